package dev.quiver.query.engine;

import dev.quiver.query.plan.Operand;
import dev.quiver.query.plan.Plan;
import dev.quiver.query.plan.Step;
import dev.quiver.storage.World;
import dev.quiver.storage.table.Table;

import java.util.List;

/**
 * The entity, table and row of many entity indices, looked up together
 * ({@link dev.quiver.storage.TableAccess#locate}) before a step binds a variable to each of them
 * in turn: the lookups' cache misses overlap instead of each bound entity waiting for its own.
 * Two ways: {@link #of}, up to {@link #CHUNK} in the order asked (a transitive walk's sources);
 * and {@link #ofInIndexOrder}, up to {@link #WINDOW} looked up in the order of their entity
 * indices, answers kept in the order asked (a join's pair targets: RG-1's 10,000 Likes targets
 * are scattered over a million entities, and lookups in index order read the entity records
 * page after page, where lookups in row order pay a cache and translation miss each). One per
 * evaluator and step, reused; the arrays stay valid until the next lookup.
 *
 * <p>Its arrays grow to the window (RG-1 join: 10,000 targets, about 520 KB of arrays), so an
 * evaluation takes one from its thread's spare ({@link #take}) and gives it back when it ends
 * ({@link #release}): a query evaluated again on the same thread allocates none of them. An
 * evaluation nested in another's callback finds no spare while the outer one holds it and makes
 * its own, so two evaluations never share one.
 */
final class Located {
    /** Per thread, the Located the last evaluation gave back, or null while one holds it. */
    private static final ThreadLocal<Located> SPARE = new ThreadLocal<>();

    /** Entities {@link #of} looks up per call. */
    static final int CHUNK = 256;
    /** Entities {@link #ofInIndexOrder} looks up per call at most. */
    static final int WINDOW = 16_384;
    /** Fewer entities than this are looked up in the order asked (nothing to gain from sorting). */
    static final int SORT_FROM = 64;
    /** Least bucket width of the sort: indices that share {@code index >>> BUCKET_SHIFT} (64 entries) are one bucket. */
    static final int BUCKET_SHIFT = 6;

    /**
     * Entries per call of {@link #ofInIndexOrder}'s passes (the sort's, the gather and the
     * scatter): each is a small method that compiles by its call count within the first window,
     * where one loop over the whole window (and over up to 4 buckets per entry) ran interpreted
     * until on-stack replacement (RG-1 join: 10,000 targets a run; its loops were compiled in the
     * second to fourth run). The pattern of {@link SparseOps}' row slices.
     */
    static final int STRIDE = 32;

    /** The answers: entity, table, row (grown past {@link #CHUNK} by {@link #ofInIndexOrder}). */
    long[] ids = new long[CHUNK];
    Table[] tables = new Table[CHUNK];
    int[] rows = new int[CHUNK];
    /** Scratch for a caller that locates a selection of its indices: the indices, and where each came from. */
    final int[] indices = new int[CHUNK];
    final int[] at = new int[CHUNK];
    /** Scratch of {@link #ofInIndexOrder}: the positions by bucket, the indices in that order, and their answers. */
    private int[] order = new int[0];
    private int[] sorted = new int[0];
    private long[] sortedIds = new long[0];
    private Table[] sortedTables = new Table[0];
    private int[] sortedRows = new int[0];
    private int[] buckets = new int[0];
    /** A caller's per-window scratch ({@link #firsts}). */
    private int[] firsts = new int[0];
    /** Entries of {@link #tables} and {@link #sortedTables} written since the last {@link #release}. */
    private int used;

    /** The thread's spare Located, or a new one when there is none (an evaluation on this thread holds it). */
    static Located take() {
        Located l = SPARE.get();
        if (l == null) {
            return new Located();
        }
        SPARE.set(null);
        return l;
    }

    /**
     * Gives {@code l}, taken with {@link #take} and no longer used, back as the thread's spare,
     * keeping the larger when there already is one. Its table references are cleared first, so
     * that a spare does not keep the tables of a closed world.
     */
    static void release(Located l) {
        java.util.Arrays.fill(l.tables, 0, Math.min(l.used, l.tables.length), null);
        java.util.Arrays.fill(l.sortedTables, 0, Math.min(l.used, l.sortedTables.length), null);
        l.used = 0;
        Located spare = SPARE.get();
        if (spare == null || spare.ids.length <= l.ids.length) {
            SPARE.set(l);
        }
    }

    /** A scratch array of at least {@code n} ints for the caller's window (kept with this Located). */
    int[] firsts(int n) {
        if (firsts.length < n) {
            firsts = new int[n];
        }
        return firsts;
    }

    /**
     * Looks up entity indices {@code indices[from .. from + n)} ({@code n} at most {@link #CHUNK}):
     * afterwards {@code ids[i]} is the live entity of {@code indices[from + i]} (0 when not alive or
     * not positive), {@code tables[i]} its table and {@code rows[i]} its row.
     */
    void of(World world, int[] indices, int from, int n) {
        used = Math.max(used, n);
        world.tableAccess().locate(indices, from, n, ids, tables, rows);
    }

    /**
     * {@link #of} for {@code indices[0 .. n)} ({@code n} at most {@link #WINDOW}), the lookups made
     * in entity index order (a counting sort by index bucket) when there are {@link #SORT_FROM} or
     * more; the answers are in the order asked.
     */
    void ofInIndexOrder(World world, int[] indices, int n) {
        if (n > WINDOW) {
            throw new IllegalArgumentException("at most " + WINDOW + " entities at once, not " + n);
        }
        grow(n);
        used = Math.max(used, n);
        if (n < SORT_FROM) {
            of(world, indices, 0, n);
            return;
        }
        sortByBucket(indices, n);
        for (int k = 0; k < n; k += STRIDE) {
            gather(indices, k, Math.min(n, k + STRIDE));
        }
        world.tableAccess().locate(sorted, 0, n, sortedIds, sortedTables, sortedRows);
        for (int k = 0; k < n; k += STRIDE) {
            scatter(k, Math.min(n, k + STRIDE));
        }
    }

    /** {@code order}: the positions {@code 0 .. n)} by bucket of their index (counting sort; non-positive indices first). */
    private void sortByBucket(int[] indices, int n) {
        int max = 0;
        for (int i = 0; i < n; i += STRIDE) {
            max = max(indices, i, Math.min(n, i + STRIDE), max);
        }
        int shift = BUCKET_SHIFT; // at most about 4n buckets, however far apart the indices lie
        while ((max >>> shift) > 4 * n) {
            shift++;
        }
        int nb = (max >>> shift) + 2;
        if (buckets.length < nb) {
            buckets = new int[nb];
        } else {
            java.util.Arrays.fill(buckets, 0, nb, 0);
        }
        for (int i = 0; i < n; i += STRIDE) {
            count(indices, i, Math.min(n, i + STRIDE), shift);
        }
        int sum = 0;
        for (int b = 0; b < nb; b += STRIDE) {
            sum = starts(b, Math.min(nb, b + STRIDE), sum);
        }
        for (int i = 0; i < n; i += STRIDE) {
            place(indices, i, Math.min(n, i + STRIDE), shift);
        }
    }

    /** The largest of {@code max} and {@code indices[from .. to)}. */
    private static int max(int[] indices, int from, int to, int max) {
        for (int i = from; i < to; i++) {
            max = Math.max(max, indices[i]);
        }
        return max;
    }

    /** Counts {@code indices[from .. to)} into their buckets. */
    private void count(int[] indices, int from, int to, int shift) {
        int[] bk = buckets;
        for (int i = from; i < to; i++) {
            bk[bucket(indices[i], shift)]++;
        }
    }

    /** Turns the counts of buckets {@code from .. to)} into their first positions, {@code sum} being the entries before them; returns the entries up to {@code to}. */
    private int starts(int from, int to, int sum) {
        int[] bk = buckets;
        for (int b = from; b < to; b++) {
            int c = bk[b];
            bk[b] = sum;
            sum += c;
        }
        return sum;
    }

    /** Puts the positions {@code from .. to)} at their bucket's next place in {@code order}. */
    private void place(int[] indices, int from, int to, int shift) {
        int[] bk = buckets;
        int[] o = order;
        for (int i = from; i < to; i++) {
            o[bk[bucket(indices[i], shift)]++] = i;
        }
    }

    /** {@code sorted[k] = indices[order[k]]} for {@code k} in {@code from .. to)}. */
    private void gather(int[] indices, int from, int to) {
        int[] o = order;
        int[] so = sorted;
        for (int k = from; k < to; k++) {
            so[k] = indices[o[k]];
        }
    }

    /** The answers of sorted entries {@code from .. to)} back at the positions they were asked at. */
    private void scatter(int from, int to) {
        int[] o = order;
        for (int k = from; k < to; k++) {
            int i = o[k];
            ids[i] = sortedIds[k];
            tables[i] = sortedTables[k];
            rows[i] = sortedRows[k];
        }
    }

    private static int bucket(int index, int shift) {
        return index <= 0 ? 0 : (index >>> shift) + 1;
    }

    /** Room for {@code n} answers and the sort's scratch. */
    private void grow(int n) {
        if (ids.length < n) {
            ids = new long[n];
            tables = new Table[n];
            rows = new int[n];
        }
        if (order.length < n) {
            order = new int[n];
            sorted = new int[n];
            sortedIds = new long[n];
            sortedTables = new Table[n];
            sortedRows = new int[n];
        }
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
