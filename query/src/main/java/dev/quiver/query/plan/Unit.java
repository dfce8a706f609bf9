package dev.quiver.query.plan;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * A schedulable unit of a query: one written term, one Or chain or one Not scope, with its
 * resolved terms, the field it writes and the variable slots it mentions.
 */
final class Unit {
    /** Kinds of units. */
    enum Kind { AND, OPTIONAL, NOT, OR, SCOPE }

    final int written;
    final Kind kind;
    final List<ResolvedTerm> terms = new ArrayList<>();
    final List<Unit> scope = new ArrayList<>();
    final int field;
    final BitSet slots = new BitSet();
    final int column;

    Unit(int written, Kind kind, int field, int column) {
        this.written = written;
        this.kind = kind;
        this.field = field;
        this.column = column;
    }

    /** And, Optional and Or units can bind variables. */
    boolean positive() {
        return kind == Kind.AND || kind == Kind.OPTIONAL || kind == Kind.OR;
    }

    /** True when the unit is an And or Or unit one of whose terms can bind {@code slot}. */
    boolean binds(int slot) {
        if (kind != Kind.AND && kind != Kind.OR) {
            return false;
        }
        for (ResolvedTerm r : terms) {
            if (r.canBind(slot)) {
                return true;
            }
        }
        return false;
    }
}
