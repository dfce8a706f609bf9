package dev.quiver.query.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * Marks the generator steps whose later steps do not depend on which row of a table the generator
 * is on, so that counting may take one row of each table and multiply by its row count (Flecs
 * evaluates {@code $this} terms per table the same way; FEATURES.md QS-02).
 */
final class PerTable {
    private PerTable() {}

    /**
     * Marks generator steps whose later steps do not depend on which row of a table the
     * generator is on: they never read the generated source variable except as their own source,
     * and then only through table-determined operations (type matches, non-reflexive closures).
     */
    static List<Step> markRowIndependent(List<Step> steps) {
        List<Step> out = new ArrayList<>(steps);
        for (int i = 0; i < out.size(); i++) {
            Step s = out.get(i);
            int v;
            if (s.kind() == OpKind.EACH) {
                if (s.binds().length == 0) {
                    continue; // $this set before evaluation: one entity, no table walk
                }
                v = s.eachSlot();
            } else if (s.kind() == OpKind.SELECT || s.kind() == OpKind.TRANS_ALL) {
                ResolvedTerm r = s.term();
                if (!r.source().isVar() || r.reflexive()) {
                    continue;
                }
                v = r.source().slot();
                if (mentionsAsElement(r, v)) {
                    continue;
                }
            } else {
                continue;
            }
            boolean ok = true;
            for (int j = i + 1; j < out.size() && ok; j++) {
                ok = tableDetermined(out.get(j), v);
            }
            if (ok) {
                out.set(i, s.withRowIndependent(true));
            }
        }
        return out;
    }

    private static boolean mentionsAsElement(ResolvedTerm r, int v) {
        for (Operand o : new Operand[] {r.first(), r.second()}) {
            if (o != null && o.isVar() && o.slot() == v) {
                return true;
            }
        }
        return false;
    }

    private static boolean tableDetermined(Step s, int v) {
        switch (s.kind()) {
            case NOT:
            case OPTIONAL:
                return tableDetermined(s.inner(), v);
            case OR:
                for (Step a : s.alternatives()) {
                    if (!tableDetermined(a, v)) {
                        return false;
                    }
                }
                return true;
            case NOT_SCOPE:
                for (Step a : s.scope()) {
                    if (!tableDetermined(a, v)) {
                        return false;
                    }
                }
                return true;
            case EACH:
            case THIS_SET:
                return s.eachSlot() != v;
            case AND_FROM:
                for (Step a : s.scope()) {
                    if (!tableDetermined(a, v)) {
                        return false;
                    }
                }
                return true;
            case OR_FROM:
            case NOT_FROM:
                return tableDetermined(s.inner(), v);
            default:
                break;
        }
        ResolvedTerm r = s.term();
        if (r.predicate() != null) {
            return !(r.source().slot() == v || (r.second() != null && r.second().isVar() && r.second().slot() == v));
        }
        if (mentionsAsElement(r, v)) {
            return false;
        }
        Operand src = r.source();
        if (src.kind() == Operand.Kind.LOOKUP && src.slot() == v) {
            return false;
        }
        if (src.isVar() && src.slot() == v) {
            switch (s.kind()) {
                case WITH:
                case UP_WITH: // the walk reads only the source's table type (its R pairs), then other entities
                    return true;
                case TRANS_UP:
                case TRANS_TEST:
                    return !r.reflexive();
                default:
                    return false;
            }
        }
        return true;
    }
}
