package dev.quiver.query.plan;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * A schedulable unit of a query: one written term, one Or chain, one Not scope or one *From term,
 * with its resolved terms, the field it writes and the variable slots it mentions. A *From unit's
 * terms are the ids of its E, one exact own-id term each ({@link FromTerms}); its
 * {@link #fromTerm} is the written {@code E($this)}.
 */
final class Unit {
    /** Kinds of units: {@code and | E}, {@code or | E}, {@code not | E} are FROM_AND, FROM_OR, FROM_NOT. */
    enum Kind { AND, OPTIONAL, NOT, OR, SCOPE, FROM_AND, FROM_OR, FROM_NOT }

    final int written;
    final Kind kind;
    final List<ResolvedTerm> terms = new ArrayList<>();
    final List<Unit> scope = new ArrayList<>();
    final int field;
    final BitSet slots = new BitSet();
    final int column;
    /** For a *From unit, the term {@code E(source)} the field reports; else null. */
    ResolvedTerm fromTerm;

    Unit(int written, Kind kind, int field, int column) {
        this.written = written;
        this.kind = kind;
        this.field = field;
        this.column = column;
    }

    /** And, Optional, Or, AndFrom and OrFrom units can bind variables. */
    boolean positive() {
        return kind == Kind.AND || kind == Kind.OPTIONAL || kind == Kind.OR || kind == Kind.FROM_AND
            || kind == Kind.FROM_OR;
    }

    /** True for the units that only filter: Not, Not scopes and NotFrom. */
    boolean filter() {
        return kind == Kind.NOT || kind == Kind.SCOPE || kind == Kind.FROM_NOT;
    }

    /** True for {@code and | E}, {@code or | E} and {@code not | E}. */
    boolean from() {
        return kind == Kind.FROM_AND || kind == Kind.FROM_OR || kind == Kind.FROM_NOT;
    }

    /** True when the unit is an And, Or, AndFrom or OrFrom unit one of whose terms can bind {@code slot}. */
    boolean binds(int slot) {
        if (kind != Kind.AND && kind != Kind.OR && kind != Kind.FROM_AND && kind != Kind.FROM_OR) {
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
