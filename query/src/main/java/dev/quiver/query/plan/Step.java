package dev.quiver.query.plan;

import dev.quiver.query.parse.InOut;

import java.util.Arrays;
import java.util.List;

/**
 * One instruction of a compiled {@link Plan}: an operation, the term it evaluates and the field it
 * writes. Immutable; per-run state lives in the evaluator, indexed by {@link #id()}.
 *
 * @param id dense index of the step within its plan (nested steps included)
 * @param kind the operation
 * @param term the resolved term (null for {@link OpKind#NOT_SCOPE}, {@link OpKind#OR},
 *     {@link OpKind#NOT}, {@link OpKind#OPTIONAL}, {@link OpKind#EACH} and {@link OpKind#THIS_SET}); for the *From
 *     operations the written {@code E(source)}
 * @param inner the wrapped step of {@link OpKind#NOT} and {@link OpKind#OPTIONAL}, and the
 *     {@link OpKind#OR} over E's ids of {@link OpKind#OR_FROM} and {@link OpKind#NOT_FROM}, else null
 * @param field field index written by the step, -1 when none
 * @param alternatives the alternatives of {@link OpKind#OR}, else empty
 * @param scope the steps of {@link OpKind#NOT_SCOPE} and {@link OpKind#AND_FROM}, else empty
 * @param checks for an {@link OpKind#OR} whose source is unbound: each alternative compiled as a
 *     test on a bound source, used to keep a match of alternative i only when no earlier
 *     alternative matches the same source (one result per entity, first alternative wins, QS-10)
 * @param requires variable slots that must be bound when the step runs; when one is not (it
 *     belongs to an optional term or Or alternative that did not match) the step is skipped
 *     (FEATURES.md QS-09, dependent terms)
 * @param binds variable slots the step binds
 * @param eachSlot for {@link OpKind#EACH} and {@link OpKind#THIS_SET}, the slot it binds or looks up
 * @param rowIndependent for {@link OpKind#SELECT} and {@link OpKind#TRANS_ALL}: every later step
 *     gives the same answers for every row of a table the step visits, so counting may multiply
 *     by the table's row count instead of visiting each row
 */
public record Step(int id, OpKind kind, ResolvedTerm term, int field, Step inner, List<Step> alternatives,
                   List<Step> scope, List<Step> checks, int[] requires, int[] binds, int eachSlot, boolean rowIndependent) {

    public Step {
        alternatives = List.copyOf(alternatives);
        scope = List.copyOf(scope);
        checks = List.copyOf(checks);
    }

    Step withRowIndependent(boolean r) {
        return new Step(id, kind, term, field, inner, alternatives, scope, checks, requires, binds, eachSlot, r);
    }

    /**
     * One line describing the step (nested steps follow on their own lines in {@link Plan#toString()}).
     *
     * @param access the access of the field it writes, shown when it carries data; null to leave it out
     */
    String describe(Plan plan, InOut access) {
        StringBuilder sb = new StringBuilder();
        sb.append(kind);
        if (term != null) {
            sb.append(' ').append(term);
        }
        if (kind == OpKind.EACH || kind == OpKind.THIS_SET) {
            sb.append(' ').append(plan.slotName(eachSlot));
            if (kind == OpKind.EACH && binds.length == 0) {
                sb.append(" set"); // $this set before evaluation: the one entity is tested
            }
        }
        if (field >= 0) {
            sb.append(" field=").append(field);
            if (access != null && access != InOut.NONE && access != InOut.DEFAULT) {
                sb.append(" access=").append(access.keyword());
            }
        }
        if (binds.length > 0) {
            sb.append(" binds=");
            appendSlots(sb, binds, plan);
        }
        if (requires.length > 0) {
            sb.append(" requires=");
            appendSlots(sb, requires, plan);
        }
        if (rowIndependent) {
            sb.append(" per-table");
        }
        return sb.toString();
    }

    private static void appendSlots(StringBuilder sb, int[] slots, Plan plan) {
        int[] s = slots.clone();
        Arrays.sort(s);
        for (int i = 0; i < s.length; i++) {
            sb.append(i == 0 ? "" : ",").append(plan.slotName(s[i]));
        }
    }
}
