package dev.quiver.query.engine;

import dev.quiver.index.Ids;
import dev.quiver.query.plan.Operand;
import dev.quiver.query.plan.ResolvedTerm;
import dev.quiver.query.plan.Step;
import dev.quiver.storage.table.Column;
import dev.quiver.storage.table.Table;

/**
 * Member-value terms {@code Comp.member(src, T)} (FEATURES.md QS-23; the planner's
 * {@code MemberTerms}): reads the entity member of each Comp instance from the table columns (there
 * is no index). The member must hold an alive entity equal to T, or any alive entity for {@code *},
 * or the value of {@code $v} (bound then, else bound to it). The field reports the pair
 * {@code (Comp, value)} and the source.
 */
final class MemberOps {
    private final Evaluator ev;

    MemberOps(Evaluator ev) {
        this.ev = ev;
    }

    /** Source unbound: every instance of Comp, table by table. */
    boolean select(Step s) {
        ResolvedTerm t = s.term();
        long comp = t.member().component();
        int slot = t.source().slot();
        for (Table tb : ev.world.tableAccess().tables(comp)) {
            int n = tb.count();
            if (n == 0 || ev.skip(tb)) {
                continue;
            }
            Column col = tb.column(comp);
            if (col == null) {
                continue;
            }
            long[] ents = tb.entities();
            int member = t.member().index();
            for (int row = 0; row < n; row++) {
                ev.bindSource(slot, ents[row], tb, row);
                boolean r = match(s, t, col.word(member, row), ents[row]);
                ev.b.values[slot] = 0;
                ev.b.tables[slot] = null;
                if (!r) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Source bound or fixed: the source's own Comp instance. */
    boolean with(Step s) {
        ResolvedTerm t = s.term();
        Operand so = t.source();
        long src = ev.sourceValue(so);
        if (src == 0) {
            return true;
        }
        Table tb = ev.tableOf(so, src);
        if (tb == null) {
            return true;
        }
        int row = so.isVar() && ev.b.tables[so.slot()] != null ? ev.b.rows[so.slot()] : ev.world.tableAccess().row(src);
        Column col = tb.column(t.member().component());
        if (col == null) {
            return true;
        }
        return match(s, t, col.word(t.member().index(), row), src);
    }

    /** Matches one member value against the term's second element; continues on a match. */
    private boolean match(Step s, ResolvedTerm t, long value, long src) {
        if (value == 0) {
            return true;
        }
        Operand second = t.second();
        int bound = -2;
        switch (second.kind()) {
            case CONST:
                if (value != second.entity()) {
                    return true;
                }
                break;
            case VAR: {
                long cur = ev.b.values[second.slot()];
                if (cur != 0) {
                    if (cur != value) {
                        return true;
                    }
                } else {
                    if (!ev.world.isAlive(value)) {
                        return true;
                    }
                    bound = ev.bindOrCompare(second.slot(), value);
                }
                break;
            }
            default: // * and _
                if (!ev.world.isAlive(value)) {
                    return true;
                }
                break;
        }
        long comp = t.member().component();
        long id = second.kind() == Operand.Kind.ANY ? Ids.pairOfIndices(Ids.index(comp), Ids.WILDCARD_INDEX)
            : Ids.pair(comp, value);
        ev.setField(s.field(), id, src);
        boolean r = ev.next[s.id()].go();
        ev.unbind(bound);
        return r;
    }
}
