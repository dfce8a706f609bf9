package dev.quiver.query.engine;

import dev.quiver.index.Ids;
import dev.quiver.storage.table.SparseStore;
import dev.quiver.storage.table.Table;
import dev.quiver.storage.table.Types;
import dev.quiver.storage.World;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;

import java.util.Arrays;

/**
 * Transitive closures of one relationship R during one query evaluation (Flecs v4 Transitive
 * trait; FEATURES.md QS-26..QS-33). Entities are handled as entity indices.
 *
 * <ul>
 *   <li>{@link #up(int)}: every entity reachable from x over one or more R edges, forward over
 *       the (R, *) pairs in the table types;</li>
 *   <li>{@link #down(int)}: every entity from which t is reachable, backwards over the reverse
 *       index ({@link World#forEachSource});</li>
 *   <li>{@link #tableClosure(Table)}: the union of {x} and up(x) over the table's (R, x) pairs,
 *       which is the closure of every entity in the table (they share their pairs);</li>
 *   <li>{@link #reaches(int, int)}: reachability.</li>
 * </ul>
 *
 * Each walk keeps a visited set, so cycles end and every entity appears once (set semantics). An
 * entity is in its own closure only when it lies on an R cycle; reflexivity is the caller's
 * concern. Results are memoised per entity within a budget of {@value #MEMO_BUDGET} entries, so
 * that walking every table (RG-1 {@code (LocatedIn, $x)}) costs about one step per result.
 */
final class Closure {
    static final long MEMO_BUDGET = 24_000_000L;
    private static final int TEST_THRESHOLD = 16;
    /** Targets of a backward walk's queue whose sources are read in one call ({@link #down}). */
    private static final int DOWN_SLICE = 64;

    private final World world;
    private final long relationship;
    private final int rel;
    private final IndexMemo upMemo = new IndexMemo();
    private final IndexMemo targetMemo = new IndexMemo();
    private final IndexMemo downMemo = new IndexMemo();
    private final Int2ObjectOpenHashMap<int[]> downSorted = new Int2ObjectOpenHashMap<>();
    private final Int2ObjectOpenHashMap<SourceRuns> downRuns = new Int2ObjectOpenHashMap<>();
    private final Int2IntOpenHashMap testCounts = new Int2IntOpenHashMap();
    private long memoSize;

    // visited marks, kept per thread across evaluations; one kind of walk may enclose the other
    private final VisitMarks bfsMarks = VisitMarks.BFS.get();
    private final VisitMarks unionMarks = VisitMarks.UNION.get();
    private final IntArrayList queue = bfsMarks.queue;
    private final IntArrayList result = new IntArrayList();
    private final IntArrayList union = new IntArrayList();
    /** The targets of one entity ({@link #targets}), reused by the walks (never nested). */
    private final IntArrayList edges = new IntArrayList();
    /**
     * The forward store when R is stored sparse, else null; looked up on the first forward walk
     * ({@link #targets}), since after a load the store is built on first use and a backward walk
     * ({@link #down}) needs only the reverse index.
     */
    private SparseStore store;
    private boolean storeKnown;
    /** Backward closures kept across evaluations of this world, or null inside a transaction ({@link DownCache}). */
    private final DownCache.View kept;

    // last table closure, rows of one table arrive together
    private Table lastTable;
    private int[] lastTableClosure;

    Closure(World world, long relationship) {
        this.world = world;
        this.relationship = relationship;
        this.rel = Ids.index(relationship);
        this.kept = DownCache.of(world);
    }

    /** The relationship entity. */
    long relationship() {
        return relationship;
    }

    // ------------------------------------------------------------------ forward

    /** Entity indices reachable from {@code x} over one or more R edges. */
    int[] up(int x) {
        int[] m = upMemo.get(x);
        if (m != null) {
            return m;
        }
        bfsMarks.newWalk();
        result.clear();
        queue.clear();
        queue.add(x);
        for (int qi = 0; qi < queue.size(); qi++) {
            int y = queue.getInt(qi);
            int[] known = y != x ? upMemo.get(y) : null;
            if (known != null) {
                // everything reachable from y is known; no need to expand it
                for (int z : known) {
                    if (bfsMarks.mark(z)) {
                        result.add(z);
                    }
                }
                continue;
            }
            edges.clear();
            targets(y, edges);
            for (int k = 0, n = edges.size(); k < n; k++) {
                int z = edges.getInt(k);
                if (bfsMarks.mark(z)) {
                    result.add(z);
                    queue.add(z);
                }
            }
        }
        int[] out = result.toIntArray();
        memo(upMemo, x, out);
        return out;
    }

    /**
     * The closure shared by every entity in a table: the union over its (R, x) pairs of x and
     * everything reachable from x.
     */
    int[] tableClosure(Table t) {
        if (t == lastTable) {
            return lastTableClosure;
        }
        int[] out = closureOfType(t.type());
        lastTable = t;
        lastTableClosure = out;
        return out;
    }

    /**
     * The closure of entity {@code e} in table {@code t}: the table's ({@link #tableClosure}), or,
     * when R is stored sparse and the table holds its marker, the closure of e's own targets.
     */
    int[] entityClosure(Table t, long e) {
        if (java.util.Arrays.binarySearch(t.type(), Types.marker(rel)) < 0) {
            return tableClosure(t);
        }
        int[] targets = world.tableAccess().sparse().targets(Ids.index(e), rel);
        return targets.length == 1 ? targetClosure(targets[0]) : union(targets, 0, targets.length);
    }

    /**
     * The closure of a source whose one R target is {@code x}: x and everything reachable from x
     * (the same array for every source of x, memoised).
     */
    int[] targetClosure(int x) {
        int[] m = targetMemo.get(x);
        if (m != null) {
            return m;
        }
        int[] up = up(x);
        int[] out;
        if (contains(up, x)) {
            out = up;
        } else {
            out = new int[up.length + 1];
            out[0] = x;
            System.arraycopy(up, 0, out, 1, up.length);
        }
        memo(targetMemo, x, out);
        return out;
    }

    /** The union of the closures of targets {@code xs[from..to)}: each x and everything reachable from it. */
    private int[] union(int[] xs, int from, int to) {
        unionMarks.newWalk();
        union.clear();
        for (int k = from; k < to; k++) {
            int x = xs[k];
            if (unionMarks.mark(x)) {
                union.add(x);
            }
            for (int z : up(x)) {
                if (unionMarks.mark(z)) {
                    union.add(z);
                }
            }
        }
        return union.toIntArray();
    }

    /** True when the closure differs by row in table {@code t} (it holds R's sparse marker). */
    boolean perRow(Table t) {
        return java.util.Arrays.binarySearch(t.type(), Types.marker(rel)) >= 0;
    }

    private int[] closureOfType(long[] type) {
        int start = Types.pairsStart(type, rel);
        int end = start;
        while (Types.isPairOf(type, end, rel)) {
            end++;
        }
        if (end - start == 1) {
            return targetClosure(Ids.second(type[start]));
        }
        int[] xs = new int[end - start];
        for (int k = start; k < end; k++) {
            xs[k - start] = Ids.second(type[k]);
        }
        return union(xs, 0, xs.length);
    }

    /** The closure of one entity (the closure of its table). */
    int[] upOfEntity(long e) {
        if (!world.isAlive(e)) {
            return new int[0];
        }
        return entityClosure(world.tableAccess().table(e), e);
    }

    // ------------------------------------------------------------------ backward

    /**
     * Entity indices from which {@code t} is reachable over one or more R edges, in walk order. The
     * array is shared (this evaluation's memo, and {@link DownCache} across evaluations while the
     * world is unchanged): do not modify it.
     */
    int[] down(int t) {
        int[] m = downMemo.get(t);
        if (m != null) {
            return m;
        }
        if (kept != null) {
            m = kept.get(rel, t);
            if (m != null) {
                memo(downMemo, t, m);
                return m;
            }
        }
        bfsMarks.newWalk();
        int[] q = bfsMarks.downQueue;
        q[0] = t;
        int size = 1;
        var access = world.tableAccess();
        for (int qi = 0; qi < size; ) {
            // the sources of a slice of the queue appended at once (their lists looked up together),
            // then the ones already reached dropped: the order of one target at a time
            int n = Math.min(DOWN_SLICE, size - qi);
            int room = access.sourceBound(relationship, q, qi, n);
            if ((long) size + room > q.length) {
                q = Arrays.copyOf(q, (int) Math.min(Integer.MAX_VALUE - 8, Math.max((long) size + room, 2L * q.length)));
                bfsMarks.downQueue = q;
            }
            int end = access.sourceIndices(relationship, q, qi, n, q, size);
            qi += n;
            int w = size;
            for (int i = size; i < end; i++) {
                int s = q[i];
                if (bfsMarks.mark(s)) {
                    q[w++] = s;
                }
            }
            size = w;
        }
        // every entity reached, in walk order (the queue after t; t is unmarked at the start, so
        // it comes again only when a cycle leads back to it)
        int[] out = Arrays.copyOfRange(q, 1, size);
        memo(downMemo, t, out);
        if (kept != null) {
            kept.put(rel, t, out);
        }
        return out;
    }

    /**
     * Where the sources of {@link #down down(t)} lie ({@link SourceRuns}), when known: found by an
     * earlier hand-out in this evaluation, or kept ({@link DownCache}) while the world is unchanged.
     */
    SourceRuns downRuns(int t) {
        SourceRuns r = downRuns.get(t);
        if (r == null && kept != null) {
            r = kept.getRuns(rel, t);
            if (r != null) {
                downRuns.put(t, r);
            }
        }
        return r;
    }

    /** Records where the sources of {@link #down down(t)} lie, as a whole hand-out found them. */
    void keepDownRuns(int t, SourceRuns r) {
        if (memoSize + r.weight() <= MEMO_BUDGET) {
            downRuns.put(t, r);
            memoSize += r.weight();
        }
        if (kept != null) {
            kept.putRuns(rel, t, r);
        }
    }

    // ------------------------------------------------------------------ tests

    /**
     * True when {@code t} is reachable from {@code s} over one or more R edges. The first tests
     * against a target walk forward from s and stop at t; a target tested often gets its backward
     * closure computed once and searched.
     */
    boolean reaches(int s, int t) {
        int[] sorted = downSorted.get(t);
        if (sorted != null) {
            return Arrays.binarySearch(sorted, s) >= 0;
        }
        int n = testCounts.addTo(t, 1) + 1;
        if (n > TEST_THRESHOLD) {
            sorted = down(t).clone();
            Arrays.sort(sorted);
            downSorted.put(t, sorted);
            return Arrays.binarySearch(sorted, s) >= 0;
        }
        int[] known = upMemo.get(s);
        if (known != null) {
            return contains(known, t);
        }
        bfsMarks.newWalk();
        queue.clear();
        queue.add(s);
        for (int qi = 0; qi < queue.size(); qi++) {
            edges.clear();
            targets(queue.getInt(qi), edges);
            for (int k = 0, ne = edges.size(); k < ne; k++) {
                int z = edges.getInt(k);
                if (z == t) {
                    return true;
                }
                if (bfsMarks.mark(z)) {
                    queue.add(z);
                }
            }
        }
        return false;
    }

    // ------------------------------------------------------------------ helpers

    static boolean contains(int[] a, int x) {
        for (int v : a) {
            if (v == x) {
                return true;
            }
        }
        return false;
    }

    /**
     * Adds the R targets of entity index {@code index} to {@code out}: the (R, x) pairs of its
     * table type, then, when R is stored sparse, its targets in the forward store (ascending),
     * read in place of building its logical type. Nothing for a dead index.
     */
    private void targets(int index, IntArrayList out) {
        long e = world.entityOfIndex(index);
        if (e == 0) {
            return;
        }
        long[] type = world.tableAccess().table(e).type();
        for (int k = Types.pairsStart(type, rel); Types.isPairOf(type, k, rel); k++) {
            if (!Types.isMarker(type[k])) {
                out.add(Ids.second(type[k]));
            }
        }
        if (!storeKnown) {
            store = world.tableAccess().sparse().isSparse(rel) ? world.tableAccess().sparse().store() : null;
            storeKnown = true;
        }
        if (store != null) {
            int f = store.first(rel, index);
            if (f != 0) {
                out.add(f);
                int[] more = store.more(rel, index);
                if (more != null) {
                    out.addElements(out.size(), more);
                }
            }
        }
    }

    private void memo(IndexMemo map, int key, int[] value) {
        if (memoSize + value.length + 4 <= MEMO_BUDGET) {
            map.put(key, value);
            memoSize += value.length + 4;
        }
    }


}
