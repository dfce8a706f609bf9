package dev.quiver.query.cache;

import dev.quiver.index.Ids;
import dev.quiver.query.plan.OpKind;
import dev.quiver.query.plan.Operand;
import dev.quiver.query.plan.Plan;
import dev.quiver.query.plan.ResolvedTerm;
import dev.quiver.query.plan.Step;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.table.Table;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The part of a query that a table's type alone decides (the terms Flecs v4 caches, FEATURES.md
 * QK-03): every top-level And term on {@code $this} with a fixed or wildcard id, matched on the
 * source itself (no {@code up}, not transitive, no IsA inheritance), and every top-level Not term
 * of that shape with no variable; an And term {@code T(up R)} on {@code $this} (without
 * {@code self}) adds that the type has an {@code (R, *)} pair. A {@code $this} result can only lie in a table whose type has
 * a match for each such And term and none for each such Not term, so a cached query walks only
 * those tables. Variables in an And term count as wildcards (a necessary condition); Optional, Or,
 * scope, equality, traversal and transitive terms, and terms on other sources, add nothing: the
 * evaluator still checks every term, so the filter only ever leaves out tables without results.
 * A Not condition never leaves out a Prefab or Disabled table: no term matches on such a source
 * (QS-47), so a {@code $this} bound there as a pair element passes every Not term.
 */
final class TableFilter {

    /** One condition on a type: it has (or, negated, has no) an id matching the pattern. */
    private record Condition(boolean negated, boolean pair, long first, long second, String text) {
        boolean holds(long[] type) {
            if (negated && (Arrays.binarySearch(type, Builtin.PREFAB) >= 0 || Arrays.binarySearch(type, Builtin.DISABLED) >= 0
                    || Arrays.binarySearch(type, Builtin.DISABLED_RELATIONSHIP) >= 0)) {
                // no term matches on a Prefab or Disabled source (QS-47): a $this bound as a pair
                // element may be one, and then every Not term on it holds, whatever its table has
                return true;
            }
            if (negated && pair && first == 0) {
                // a wildcard relationship skips Disabled and toggle companion pairs, which the type
                // alone cannot tell apart: leave the Not to the evaluator
                return true;
            }
            return has(type) != negated;
        }

        private boolean has(long[] type) {
            if (!pair) {
                if (first != 0) {
                    return Arrays.binarySearch(type, first) >= 0;
                }
                for (long id : type) {
                    if (!Ids.isPair(id)) {
                        return true;
                    }
                }
                return false;
            }
            int f = first == 0 ? -1 : Ids.index(first);
            int s = second == 0 ? -1 : Ids.index(second);
            for (int k = 0; k < type.length && Ids.isPair(type[k]); k++) {
                long id = type[k];
                if ((f < 0 || Ids.first(id) == f) && (s < 0 || Ids.second(id) == s)) {
                    return true;
                }
            }
            return false;
        }
    }

    private final List<Condition> conditions;

    private TableFilter(List<Condition> conditions) {
        this.conditions = List.copyOf(conditions);
    }

    /** The conditions of a compiled query (none when it has no {@code $this}). */
    static TableFilter of(Plan plan) {
        List<Condition> out = new ArrayList<>();
        if (plan.hasThis()) {
            for (Step s : plan.steps()) {
                if (s.requires().length != 0) {
                    continue;
                }
                if (s.kind() == OpKind.SELECT || s.kind() == OpKind.WITH || s.kind() == OpKind.UP_SELECT
                    || s.kind() == OpKind.UP_WITH) {
                    Condition c = condition(s.term(), false);
                    if (c != null) {
                        out.add(c);
                    }
                } else if (s.kind() == OpKind.NOT && s.inner() != null
                    && (s.inner().kind() == OpKind.SELECT || s.inner().kind() == OpKind.WITH)
                    && s.inner().requires().length == 0) {
                    Condition c = condition(s.inner().term(), true);
                    if (c != null) {
                        out.add(c);
                    }
                }
            }
        }
        return new TableFilter(out);
    }

    private static Condition condition(ResolvedTerm t, boolean negated) {
        if (t == null || t.predicate() != null || t.transitive() || !t.inherit().none()) {
            return null;
        }
        Operand src = t.source();
        if (src.kind() != Operand.Kind.VAR || src.slot() != 0) {
            return null;
        }
        if (t.up() != null) {
            // T(up R) can only hold for a source with an R target: its table has an (R, *) pair
            return negated || t.up().self() ? null
                : new Condition(false, true, t.up().relationship(), 0, "(" + t.up().text() + ",*)($this)");
        }
        Long f = element(t.first(), negated);
        Long s = t.second() == null ? Long.valueOf(0) : element(t.second(), negated);
        if (f == null || s == null) {
            return null;
        }
        return new Condition(negated, t.second() != null, f, s, t.toString());
    }

    /** A fixed entity, 0 for any; null when the element cannot be read from the type (a variable in a Not term). */
    private static Long element(Operand o, boolean negated) {
        switch (o.kind()) {
            case CONST: return o.entity();
            case WILDCARD:
            case ANY: return 0L;
            case VAR: return negated ? null : 0L;
            default: return null;
        }
    }

    /**
     * False when a fixed entity of a condition was deleted since the query was created: the
     * evaluator then treats its term as matching nothing, while a pair on a reused entity index
     * could still match the type, so the filter must not be used (the cached query then walks
     * every table, as an uncached run does).
     */
    boolean usable(dev.quiver.storage.World world) {
        for (Condition c : conditions) {
            if ((c.first() != 0 && !world.isAlive(c.first())) || (c.second() != 0 && !world.isAlive(c.second()))) {
                return false;
            }
        }
        return true;
    }

    /** True when the table may hold results: every condition holds for its type. */
    boolean matches(Table t) {
        long[] type = t.type();
        boolean sparse = dev.quiver.storage.table.Types.hasMarker(type);
        for (Condition c : conditions) {
            if (sparse && c.pair()) {
                continue; // a sparse marker: pair terms are decided row by row, by the evaluator
            }
            if (!c.holds(type)) {
                return false;
            }
        }
        return true;
    }

    /** The conditions as text, for diagnostics ({@code "(Likes,*)($this), !Dead($this)"}). */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Condition c : conditions) {
            sb.append(sb.length() == 0 ? "" : ", ").append(c.negated() ? "!" : "").append(c.text());
        }
        return sb.toString();
    }
}
