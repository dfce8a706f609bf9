package dev.quiver.query.engine;

import dev.quiver.query.plan.Operand;
import dev.quiver.query.plan.Plan;
import dev.quiver.query.plan.Step;
import dev.quiver.storage.World;
import dev.quiver.storage.table.Table;

import java.util.List;

/**
 * The entity, table and row of up to {@link #CHUNK} entity indices, looked up together
 * ({@link dev.quiver.storage.TableAccess#locate}) before a step binds a variable to each of them
 * in turn: the lookups' cache misses overlap instead of each bound entity waiting for its own
 * (RG-1 join: the targets of 10,000 Likes pairs are scattered over a million entities). One per
 * evaluator and kind of walk, reused; the arrays stay valid until the next {@link #of}.
 */
final class Located {
    /** Entities looked up per call. */
    static final int CHUNK = 256;

    final long[] ids = new long[CHUNK];
    final Table[] tables = new Table[CHUNK];
    final int[] rows = new int[CHUNK];
    /** Scratch for a caller that locates a selection of its indices: the indices, and where each came from. */
    final int[] indices = new int[CHUNK];
    final int[] at = new int[CHUNK];

    /**
     * Looks up entity indices {@code indices[from .. from + n)} ({@code n} at most {@link #CHUNK}):
     * afterwards {@code ids[i]} is the live entity of {@code indices[from + i]} (0 when not alive or
     * not positive), {@code tables[i]} its table and {@code rows[i]} its row.
     */
    void of(World world, int[] indices, int from, int n) {
        world.tableAccess().locate(indices, from, n, ids, tables, rows);
    }

    /**
     * Per variable slot: some step of the plan (nested ones included) has the variable as its source,
     * so binding it to an entity is followed by a lookup of that entity's table: worth doing for
     * many entities at once ({@link #of}) when a step binds it to a pair's target.
     */
    static boolean[] sourceSlots(Plan plan) {
        boolean[] out = new boolean[plan.slotCount()];
        for (Step s : plan.steps()) {
            mark(s, out);
        }
        return out;
    }

    private static void mark(Step s, boolean[] out) {
        if (s.term() != null && s.term().source() != null) {
            Operand src = s.term().source();
            if ((src.isVar() || src.kind() == Operand.Kind.LOOKUP) && src.slot() >= 0 && src.slot() < out.length) {
                out[src.slot()] = true;
            }
        }
        if (s.inner() != null) {
            mark(s.inner(), out);
        }
        for (List<Step> nested : List.of(s.alternatives(), s.scope(), s.checks())) {
            for (Step n : nested) {
                mark(n, out);
            }
        }
    }
}
