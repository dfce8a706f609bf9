package dev.quiver.query.engine;

import dev.quiver.query.plan.OpKind;
import dev.quiver.query.plan.Operand;
import dev.quiver.query.plan.Plan;
import dev.quiver.query.plan.ResolvedTerm;
import dev.quiver.query.plan.Step;

import java.util.List;

/**
 * Which row-independent generators ({@link Step#rowIndependent()}) may also hand out the rows of a
 * table holding a sparse marker {@code (R, *)} together. The planner's row independence is about
 * table types; in a marker table the rows differ by their non-fragmenting pairs, which are not in
 * the type. A generator stays table-at-a-time there when no later step reads anything of the
 * generated variable but its table type: every later term on that variable is a plain
 * {@link OpKind#WITH} of a non-pair id (no pair, no IsA inheritance, no member value), and the
 * variable appears in no other position. Decided per plan when an evaluation starts, so a plan
 * stays right when a relationship switches to sparse storage after planning. The same rule lets a
 * walk that finds its sources one by one ({@code TRANS_DOWN}) hand out the sources that lie in
 * consecutive rows of one table together ({@link Evaluator#rowRuns}).
 */
final class MarkerSafety {
    private MarkerSafety() {}

    /**
     * Per step id: true for a top-level step binding a variable source (or {@link OpKind#EACH})
     * whose later steps read only that variable's table type.
     */
    static boolean[] of(Plan plan) {
        List<Step> steps = plan.steps();
        boolean[] out = new boolean[plan.stepCount()];
        for (int i = 0; i < steps.size(); i++) {
            Step s = steps.get(i);
            boolean each = s.kind() == OpKind.EACH;
            if (!each && (s.term() == null || s.term().source() == null || s.term().source().kind() != Operand.Kind.VAR)) {
                continue;
            }
            int v = each ? s.eachSlot() : s.term().source().slot();
            boolean ok = true;
            for (int j = i + 1; j < steps.size() && ok; j++) {
                ok = typeOnly(steps.get(j), v);
            }
            out[s.id()] = ok;
        }
        return out;
    }

    /** True when step {@code s} (and every step nested in it) reads slot {@code v} only through its table type. */
    private static boolean typeOnly(Step s, int v) {
        if (s.kind() == OpKind.EACH && s.eachSlot() == v) {
            return false;
        }
        if (s.inner() != null && !typeOnly(s.inner(), v)) {
            return false;
        }
        for (List<Step> nested : List.of(s.alternatives(), s.scope(), s.checks())) {
            for (Step n : nested) {
                if (!typeOnly(n, v)) {
                    return false;
                }
            }
        }
        ResolvedTerm t = s.term();
        if (t == null) {
            return true;
        }
        if (mentions(t.first(), v) || mentions(t.second(), v)) {
            return false;
        }
        Operand src = t.source();
        if (src == null || !mentions(src, v)) {
            return true;
        }
        return s.kind() == OpKind.WITH && src.kind() == Operand.Kind.VAR && t.predicate() == null
            && t.second() == null && t.inherit().none() && t.member() == null;
    }

    private static boolean mentions(Operand o, int v) {
        return o != null && (o.isVar() || o.kind() == Operand.Kind.LOOKUP) && o.slot() == v;
    }
}
