package dev.quiver.query.engine;

import dev.quiver.index.Ids;
import dev.quiver.query.plan.ResolvedTerm;
import dev.quiver.query.plan.Step;
import dev.quiver.storage.table.SparseStore;
import dev.quiver.storage.TableAccess;
import dev.quiver.storage.World;
import dev.quiver.storage.table.Table;
import dev.quiver.storage.table.Types;
import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;

/**
 * The transitive operations of the {@link Evaluator} (Flecs v4 Transitive and Reflexive traits;
 * FEATURES.md QS-26..QS-35): {@link dev.quiver.query.plan.OpKind#TRANS_DOWN},
 * {@link dev.quiver.query.plan.OpKind#TRANS_UP}, {@link dev.quiver.query.plan.OpKind#TRANS_ALL} and
 * {@link dev.quiver.query.plan.OpKind#TRANS_TEST}, over one {@link Closure} per relationship and
 * run. Each (source, target) is produced once; a reflexive self row R(x, x) is added where the
 * term's {@link ResolvedTerm#selfNeedsPair()} rule allows it.
 */
final class TransitiveOps {
    /** Rows whose first targets {@link #sparseRuns} reads at once. */
    private static final int FIRSTS_SLICE = 4096;
    private final Evaluator ev;
    private final Long2ObjectOpenHashMap<Closure> closures = new Long2ObjectOpenHashMap<>();
    /** The run builders of the {@link #downRuns} walks under way, innermost last ({@link #runsBuilder}). */
    private SourceRuns.Builder[] runsBuilders = new SourceRuns.Builder[2];
    private int runsDepth;

    TransitiveOps(Evaluator ev) {
        this.ev = ev;
    }

    /** Transitive R, target known, source unbound: every source with a path to T (QS-26, QS-34). */
    boolean down(Step s) {
        ResolvedTerm t = s.term();
        long target = ev.value(t.second());
        if (target == 0) {
            return true;
        }
        long rel = t.first().entity();
        Closure c = closure(rel);
        int[] down = c.down(Ids.index(target));
        int slot = t.source().slot();
        long pair = Ids.pair(rel, target);
        Evaluator.Cont k = ev.next[s.id()];
        if (t.reflexive() && ev.world.isAlive(target) && !Closure.contains(down, Ids.index(target))
            && (!t.selfNeedsPair() || hasPair(ev.world.tableAccess().table(target), rel))) {
            if (!emitSource(s, slot, target, pair, k)) {
                return false;
            }
        }
        if (ev.rowRuns(s, slot)) {
            SourceRuns known = c.downRuns(Ids.index(target));
            if (known != null) {
                return emitRuns(s, slot, known, pair);
            }
            return downRuns(s, slot, c, Ids.index(target), down, pair);
        }
        for (int idx : down) {
            long e = ev.world.entityOfIndex(idx);
            if (e != 0 && !emitSource(s, slot, e, pair, k)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The sources of {@link #down} handed out in runs ({@link Evaluator#rowRuns}): sources that
     * follow each other in the walk and in one table's rows (siblings, usually) are one result
     * standing for those rows; the walk order is kept. A hand-out that runs to the end records the
     * runs with the closure ({@link Closure#keepDownRuns}), for {@link #emitRuns} to hand out again.
     *
     * <p>A source continues the run when the run's table holds it in its next row. Where that row
     * is in memory it is checked there (and, when the run breaks, the rows where a few recent runs'
     * tables go on, {@link RecentRuns}); otherwise the source's id, table and row come from the
     * entity index, looked up {@link Located#CHUNK} at a time ({@link #locateChunk}), and the
     * table's rows stay unread: a world just opened reads a table's rows page by page when first
     * touched, and checking each source against its table read every row page holding a source
     * and the table's whole entity array (RG-1 depth 6, the first {@code (LocatedIn, n2)} after
     * an open: 115 row pages and an 8 MB array of the million-row leaf table), while the entity
     * pages are read for the sources anyway. The run's entities go with its result
     * ({@link Bindings#batchEntities()}).
     */
    private boolean downRuns(Step s, int slot, Closure c, int target, int[] down, long pair) {
        World world = ev.world;
        Located loc = ev.located(s);
        int located = 0, next = 0, chunkEnd = 0;
        Table run = null;
        int from = 0, to = 0;
        long[] ids = new long[16]; // the run's entities, ids[r - from] of row r; this walk's own (walks nest)
        RecentRuns recent = new RecentRuns(); // one per walk: a continuation may run another one
        SourceRuns.Builder found = runsBuilder();
        try {
            for (int i = 0; i <= down.length; i++) {
                Table tb = null;
                int row = -1;
                long e = 0;
                if (i < down.length) {
                    boolean inMemory = run != null && to < run.count() && run.rowInMemory(to);
                    if (i >= chunkEnd) {
                        chunkEnd = Math.min(down.length, i + Located.CHUNK);
                        located = locateChunk(loc, down, i, chunkEnd, !inMemory);
                        next = 0;
                    }
                    boolean have = next < located && loc.at[next] == i;
                    int g;
                    if (!have && inMemory && Ids.index(e = run.entity(to)) == down[i]) {
                        ids = add(ids, to++ - from, e); // the next row of the run's table holds this source: no lookup
                        continue;
                    }
                    if (have) { // looked up already
                        e = loc.ids[next];
                        tb = loc.tables[next];
                        row = loc.rows[next];
                        next++;
                    } else if ((g = recent.find(down[i])) >= 0) { // where a recent run's table goes on: no entity lookup
                        tb = recent.tables[g];
                        row = recent.foundRow;
                        e = tb.entity(row);
                    } else {
                        e = world.entityOfIndex(down[i]);
                        if (e != 0) {
                            tb = world.tableAccess().table(e);
                            row = world.tableAccess().row(e);
                        }
                    }
                    if (e == 0) {
                        continue;
                    }
                    if (tb == run && row == to) {
                        ids = add(ids, to++ - from, e);
                        continue;
                    }
                }
                if (run != null) {
                    found.add(run, from, to);
                    if (!emitRows(s, slot, run, from, to, pair, ids)) {
                        return false;
                    }
                    recent.ended(run, to);
                }
                run = tb;
                from = row;
                to = row + 1;
                ids[0] = e;
            }
            c.keepDownRuns(target, found.build());
            return true;
        } finally {
            releaseRunsBuilder(found);
        }
    }

    /** Hands out the runs of sources a whole {@link #downRuns} found, in their order. */
    private boolean emitRuns(Step s, int slot, SourceRuns runs, long pair) {
        TableAccess access = ev.world.tableAccess();
        int[] ids = runs.tableIds;
        int[] from = runs.from, to = runs.to;
        for (int i = 0, n = runs.count(); i < n; i++) {
            Table t = access.tableById(ids[i]);
            if (t == null) { // the runs are kept for one write count, in which no table is dropped
                throw new IllegalStateException("kept source runs name table " + ids[i] + ", which is gone");
            }
            if (!emitRows(s, slot, t, from[i], to[i], pair, null)) {
                return false;
            }
        }
        return true;
    }

    /**
     * One result standing for rows {@code from .. to - 1} of {@code run} (none when the table is
     * skipped); {@code ids[r - from]} is the entity of row {@code r} when {@code ids} is given,
     * else the rows' entities are read from the table.
     */
    private boolean emitRows(Step s, int slot, Table run, int from, int to, long pair, long[] ids) {
        if (ev.skip(run)) {
            return true;
        }
        long first = ids != null ? ids[0] : run.entity(from);
        boolean single = to - from == 1; // a single row: no batch to make
        long saved = 0;
        if (single) {
            ev.bindSource(slot, first, run, from);
        } else {
            saved = ev.startRows(slot, run, from, to - from, first, ids);
        }
        ev.setField(s.field(), pair, first);
        // one call of the continuation, not one per branch: C2 inlines the whole continuation
        // chain at each call, and two copies made downRuns' compilation take 50-57 MB of
        // compiler memory (JDK 25's Compiler.memory, RG-1 depth 6), the benchmark's peak RSS
        boolean ok = ev.next[s.id()].go();
        if (single) {
            ev.b.values[slot] = 0;
        } else {
            ev.endRows(slot, saved);
        }
        return ok;
    }

    /** A cleared builder for one {@link #downRuns} walk: walks nest (a continuation may run another one), each has its own. */
    private SourceRuns.Builder runsBuilder() {
        if (runsDepth == runsBuilders.length) {
            runsBuilders = java.util.Arrays.copyOf(runsBuilders, runsDepth * 2);
        }
        SourceRuns.Builder b = runsBuilders[runsDepth];
        if (b == null) {
            b = new SourceRuns.Builder();
            runsBuilders[runsDepth] = b;
        }
        runsDepth++;
        b.clear();
        return b;
    }

    private void releaseRunsBuilder(SourceRuns.Builder b) {
        b.clear();
        runsDepth--;
    }

    /** {@code ids} with {@code e} at position {@code at} (grown, doubled, when full). */
    private static long[] add(long[] ids, int at, long e) {
        long[] a = at < ids.length ? ids : java.util.Arrays.copyOf(ids, ids.length * 2);
        a[at] = e;
        return a;
    }

    /**
     * The tables of the last few runs of {@link #downRuns} and the row after each one's end: where
     * the walk's next sources most likely are when the current run breaks. Sources that are
     * siblings sit in consecutive rows of one table, but a few of them hold other components and
     * sit in another table (RG-1: the 1% of leaves that hold Likes), and moving each out swapped
     * another row into its place; so the walk goes back and forth between a few tables, each
     * going on at its end row or the row after. Checking those rows (their pages are the ones
     * the runs read) finds such a source without reading its entity page.
     */
    private static final class RecentRuns {
        private static final int SIZE = 4;
        final Table[] tables = new Table[SIZE];
        private final int[] ends = new int[SIZE];
        private int nextSlot;
        /** The row {@link #find} found. */
        int foundRow;

        /** A run of {@code t} ended before row {@code end}. */
        void ended(Table t, int end) {
            for (int k = 0; k < SIZE; k++) {
                if (tables[k] == t) {
                    ends[k] = end;
                    return;
                }
            }
            tables[nextSlot] = t;
            ends[nextSlot] = end;
            nextSlot = (nextSlot + 1) % SIZE;
        }

        /**
         * The slot whose table holds entity index {@code index} at its end row or the row after
         * (that row in {@link #foundRow}), or -1.
         */
        int find(int index) {
            for (int k = 0; k < SIZE; k++) {
                Table t = tables[k];
                if (t == null) {
                    continue;
                }
                int n = t.count();
                for (int r = ends[k]; r < Math.min(n, ends[k] + 2); r++) {
                    if (t.rowInMemory(r) && Ids.index(t.entity(r)) == index) { // a row not in memory stays unread
                        foundRow = r;
                        return k;
                    }
                }
            }
            return -1;
        }
    }

    /**
     * Looks up, together ({@link Located}), the sources {@code down[from .. to)}: every one when
     * {@code all} (the run's next row is not in memory, so a table read lazily is not checked row
     * by row), else those that do not follow their predecessor's index: those likely start a new
     * run, while the others (siblings, whose indices and rows follow each other) are usually found
     * in the run's next row without a lookup. Returns how many were looked up; {@code loc.at}
     * holds their positions in {@code down}.
     */
    private int locateChunk(Located loc, int[] down, int from, int to, boolean all) {
        int n = 0;
        for (int j = from; j < to; j++) {
            if (all || j == 0 || down[j] != down[j - 1] + 1) {
                loc.at[n] = j;
                loc.indices[n++] = down[j];
            }
        }
        loc.of(ev.world, loc.indices, 0, n);
        return n;
    }

    private boolean emitSource(Step s, int slot, long e, long pair, Evaluator.Cont k) {
        Table tb = ev.world.tableAccess().table(e);
        if (ev.skip(tb)) {
            return true;
        }
        int r = ev.bindOrCompare(slot, e);
        if (r == Evaluator.FAIL) {
            return true;
        }
        ev.b.tables[slot] = tb;
        ev.b.rows[slot] = ev.world.tableAccess().row(e);
        ev.setField(s.field(), pair, e);
        boolean ok = k.go();
        ev.unbind(r);
        return ok;
    }

    /** Transitive R, source known, target unbound: every entity reachable from it (QS-27, QS-29). */
    boolean up(Step s) {
        ResolvedTerm t = s.term();
        long src = ev.sourceValue(t.source());
        if (src == 0) {
            return true;
        }
        Table tb = ev.tableOf(t.source(), src);
        if (tb == null) {
            return true;
        }
        long rel = t.first().entity();
        int[] cl = closure(rel).entityClosure(tb, src);
        Evaluator.Cont k = ev.next[s.id()];
        if (t.reflexive() && !Closure.contains(cl, Ids.index(src)) && (!t.selfNeedsPair() || cl.length > 0)) {
            if (!emitTarget(s, t, rel, src, src, k)) {
                return false;
            }
        }
        for (int x : cl) {
            long e = ev.world.entityOfIndex(x);
            if (e != 0 && !emitTarget(s, t, rel, src, e, k)) {
                return false;
            }
        }
        return true;
    }

    /** Transitive R, source and target unbound: every (source, reachable target) (QS-28, RG-1 transvar). */
    boolean all(Step s) {
        ResolvedTerm t = s.term();
        long rel = t.first().entity();
        Closure c = closure(rel);
        int slot = t.source().slot();
        Evaluator.Cont k = ev.next[s.id()];
        java.util.List<Table> walk = ev.world.tableAccess().tables(Ids.pair(rel, Ids.WILDCARD));
        for (int ti = ev.walkStart(s, walk.size()), end = ev.walkEnd(s, walk.size()); ti < end; ti++) {
            Table tb = walk.get(ti);
            int n = tb.count();
            if (n == 0 || ev.skip(tb)) {
                continue;
            }
            boolean perRow = c.perRow(tb);
            long[] ents = tb.entities();
            boolean whole = ev.wholeTable(s, slot) && ev.batchable(s, tb);
            if (whole && !perRow) {
                if (!emitRun(s, t, rel, tb, 0, n, c.tableClosure(tb), slot, k)) {
                    return false;
                }
                continue;
            }
            if (whole && !t.reflexive()) {
                if (!sparseRuns(s, t, c, tb, slot, k)) {
                    return false;
                }
                continue;
            }
            int[] cl = perRow ? null : c.tableClosure(tb);
            for (int row = 0; row < n; row++) {
                long src = ents[row];
                if (perRow) {
                    cl = c.entityClosure(tb, src);
                }
                ev.bindSource(slot, src, tb, row);
                boolean r = true;
                if (t.reflexive() && !Closure.contains(cl, Ids.index(src))) {
                    r = emitTarget(s, t, rel, src, src, k);
                }
                for (int i = 0; i < cl.length && r; i++) {
                    long e = ev.world.entityOfIndex(cl[i]);
                    if (e != 0) {
                        r = emitTarget(s, t, rel, src, e, k);
                    }
                }
                ev.b.values[slot] = 0;
                if (!r) {
                    return false;
                }
            }
        }
        return true;
    }

    /** One result per closure element standing for rows {@code from} to {@code to - 1} of {@code tb}, which share closure {@code cl}. */
    private boolean emitRun(Step s, ResolvedTerm t, long rel, Table tb, int from, int to, int[] cl, int slot,
                            Evaluator.Cont k) {
        return emitRun(s, t, rel, tb, from, to, cl, 0, cl.length, slot, k);
    }

    /**
     * One result per target {@code cl[cFrom .. cTo)} (entity indices; a dead one is skipped) standing
     * for rows {@code from} to {@code to - 1} of {@code tb}: a single row is bound as itself, more
     * as one batch.
     */
    private boolean emitRun(Step s, ResolvedTerm t, long rel, Table tb, int from, int to, int[] cl, int cFrom, int cTo,
                            int slot, Evaluator.Cont k) {
        boolean single = to - from == 1; // a single row: no batch to make
        long first = tb.entity(from);
        long saved = 0;
        if (single) {
            ev.bindSource(slot, first, tb, from);
        } else {
            saved = ev.startRows(slot, tb, from, to - from);
        }
        boolean r = true;
        for (int i = cFrom; i < cTo && r; i++) {
            long e = ev.world.entityOfIndex(cl[i]);
            if (e != 0) {
                r = emitTarget(s, t, rel, first, e, k);
            }
        }
        if (single) {
            ev.b.values[slot] = 0;
        } else {
            ev.endRows(slot, saved);
        }
        return r;
    }

    /**
     * {@link #all} over a table holding R's sparse marker, by a generator handling whole tables:
     * the rows' first targets are read at once ({@link SparseStore#firsts}); each run of
     * consecutive rows with the same single target shares that target's closure; a row with several
     * targets gets its own closure. Runs that follow each other and reach the same target are
     * handed out together for that target ({@link TargetRuns}: a node's grandchildren, in the
     * consecutive runs of its children's children, come as one result).
     */
    private boolean sparseRuns(Step s, ResolvedTerm t, Closure c, Table tb, int slot, Evaluator.Cont k) {
        int n = tb.count();
        long rel = t.first().entity();
        SparseStore st = ev.world.tableAccess().sparse().store();
        long[] ents = tb.entities();
        // read a slice at a time: one array the size of a million-row table per run would be a
        // humongous allocation (each starts a concurrent collection cycle of G1)
        int[] firsts = new int[Math.min(n, FIRSTS_SLICE)];
        int base = 0, len = Math.min(n, FIRSTS_SLICE);
        st.firsts(Ids.index(rel), ents, 0, len, firsts);
        TargetRuns runs = new TargetRuns(); // this walk's own: a later step may walk another table meanwhile
        int row = 0;
        while (row < n) {
            if (row >= base + len) {
                base = row;
                len = Math.min(n - base, FIRSTS_SLICE);
                st.firsts(Ids.index(rel), ents, base, len, firsts);
            }
            int f = firsts[row - base];
            int end = row + 1;
            if (f > 0) {
                while (end < n) {
                    if (end >= base + len) { // the run goes on past the slice: read the next one
                        base = end;
                        len = Math.min(n - base, FIRSTS_SLICE);
                        st.firsts(Ids.index(rel), ents, base, len, firsts);
                    }
                    if (firsts[end - base] != f) {
                        break;
                    }
                    end++;
                }
            }
            if (f != 0) {
                int closed = runs.add(row, end, f > 0 ? c.targetClosure(f) : c.entityClosure(tb, tb.entity(row)));
                if (!emitRanges(s, t, rel, tb, runs, closed, slot, k)) {
                    return false;
                }
            }
            row = end;
        }
        return emitRanges(s, t, rel, tb, runs, runs.flush(), slot, k);
    }

    /** Hands out the ranges {@link TargetRuns} closed: each one result for its rows and target. */
    private boolean emitRanges(Step s, ResolvedTerm t, long rel, Table tb, TargetRuns runs, int closed, int slot,
                               Evaluator.Cont k) {
        for (int i = 0; i < closed; i++) {
            if (!emitRun(s, t, rel, tb, runs.closedFrom[i], runs.closedTo, runs.closedX, i, i + 1, slot, k)) {
                return false;
            }
        }
        return true;
    }

    private boolean emitTarget(Step s, ResolvedTerm t, long rel, long src, long target, Evaluator.Cont k) {
        int r = -1;
        if (t.second().isVar()) {
            r = ev.bindOrCompare(t.second().slot(), target);
            if (r == Evaluator.FAIL) {
                return true;
            }
        }
        ev.setField(s.field(), Ids.pair(rel, target), src);
        boolean ok = k.go();
        ev.unbind(r);
        return ok;
    }

    /** Transitive R, both known: reachability (QS-29; Reflexive: R(X, X) holds, QS-34). */
    boolean test(Step s) {
        ResolvedTerm t = s.term();
        long src = ev.sourceValue(t.source());
        long target = ev.value(t.second());
        if (src == 0 || target == 0) {
            return true;
        }
        long rel = t.first().entity();
        boolean alive = ev.world.isAlive(src);
        boolean ok = (t.reflexive() && src == target && (!t.selfNeedsPair() || (alive && hasPair(ev.world.tableAccess().table(src), rel))))
            || (alive && closure(rel).reaches(Ids.index(src), Ids.index(target)));
        if (!ok) {
            return true;
        }
        ev.setField(s.field(), Ids.pair(rel, target), src);
        return ev.next[s.id()].go();
    }

    /** True when the table's type holds some (rel, *) pair. */
    private static boolean hasPair(Table t, long rel) {
        return Types.hasPairOf(t.type(), Ids.index(rel));
    }

    private Closure closure(long rel) {
        Closure c = closures.get(rel);
        if (c == null) {
            c = new Closure(ev.world, rel);
            closures.put(rel, c);
        }
        return c;
    }
}
