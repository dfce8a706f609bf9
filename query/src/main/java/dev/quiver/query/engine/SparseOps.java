package dev.quiver.query.engine;

import dev.quiver.index.Ids;
import dev.quiver.query.plan.Operand;
import dev.quiver.query.plan.ResolvedTerm;
import dev.quiver.query.plan.Step;
import dev.quiver.storage.World;
import dev.quiver.storage.rules.SparsePairs;
import dev.quiver.storage.table.SparseStore;
import dev.quiver.storage.table.Table;
import dev.quiver.storage.table.Types;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;

/**
 * Id terms over non-fragmenting ("sparse") pairs (FEATURES TRT-16): a sparse relationship's pairs
 * are not in table types, whose tables hold the marker {@code (R, *)} instead, so the storage kind
 * never changes an answer only if every pair term reads them here:
 * <ul>
 *   <li>{@code (R, T)} with the source unbound: the holders through the reverse index;</li>
 *   <li>{@code (R, $x)}, {@code (R, *)}, {@code (R, _)}: the tables holding the marker, then each
 *       row's targets; {@code (*, T)}, {@code ($r, T)}: the tables of the dense pairs plus those
 *       holding any marker, row by row;</li>
 *   <li>a bound source: its logical type (the marker replaced by its pairs).</li>
 * </ul>
 * The decision is made when a step runs, from the storage kind in effect then, so a compiled plan
 * never goes stale when a relationship switches to sparse storage after planning.
 */
final class SparseOps {
    /**
     * How many rows ahead of the one being answered {@link LocatedCheck#warm} reads the located
     * targets' data: far enough for the reads to arrive before their row is answered, near enough
     * for them to stay in the cache until then.
     */
    private static final int WARM_AHEAD = 256;
    private final Evaluator ev;

    SparseOps(Evaluator ev) {
        this.ev = ev;
    }

    /** The logical type of entity {@code e} (sorted; sparse pairs in place of their markers). */
    static long[] typeOf(World world, long e) {
        return world.tableAccess().sparse().logicalType(world.tableAccess().table(e).type(), Ids.index(e));
    }

    /** The logical type of the entity at {@code row} of {@code tb}. */
    static long[] typeOf(World world, Table tb, int row) {
        return world.tableAccess().sparse().logicalType(tb.type(), Ids.index(tb.entity(row)));
    }

    /**
     * True when a pair term whose first element is {@code f} (0: a wildcard or unbound variable;
     * {@code anyF}: {@code _}) must be matched row by row in {@code tb}: the table holds a sparse
     * marker the term's pattern can match ({@code f}'s own, or any for a wildcard first element).
     */
    static boolean perRow(Table tb, boolean pair, long f, boolean anyF) {
        if (!pair || !Types.hasMarker(tb.type())) {
            return false;
        }
        return f == 0 || anyF || tb.hasId(Types.marker(Ids.index(f)));
    }

    /**
     * The tables a table walk for {@code pattern} visits: {@link dev.quiver.storage.TableAccess#tables}, widened for sparse
     * pairs: {@code (R, x)} of a sparse R walks R's marker tables; a pair pattern with a wildcard
     * first element and a fixed second adds every table holding a marker. In table id order.
     */
    static List<Table> tables(World world, long pattern) {
        List<Table> base = world.tableAccess().tables(pattern);
        if (!Ids.isPair(pattern)) {
            return base;
        }
        SparsePairs sp = world.tableAccess().sparse();
        int f = Ids.first(pattern), s = Ids.second(pattern);
        boolean wf = f == Ids.WILDCARD_INDEX || f == Ids.ANY_INDEX, ws = s == Ids.WILDCARD_INDEX || s == Ids.ANY_INDEX;
        if (!wf) {
            return sp.isSparse(f) ? world.tableAccess().tables(Types.marker(f)) : base;
        }
        if (ws) {
            return base; // (*, *): every table holding a pair, the markers' tables included
        }
        int[] rels = sp.store().relationships();
        if (rels.length == 0) {
            return base;
        }
        var seen = new IdentityHashMap<Table, Boolean>();
        var out = new ArrayList<Table>(base);
        for (Table t : base) {
            seen.put(t, Boolean.TRUE);
        }
        for (int rel : rels) {
            for (Table t : world.tableAccess().tables(Types.marker(rel))) {
                if (seen.put(t, Boolean.TRUE) == null) {
                    out.add(t);
                }
            }
        }
        out.sort(Comparator.comparingInt(Table::id));
        return out;
    }

    /**
     * {@code SELECT} of {@code (R, T)} with R sparse and T fixed or bound, the source a variable:
     * the sources of T through R from the reverse index, in entity index order.
     */
    boolean selectPair(Step s, ResolvedTerm t, long rel, long tgt, int slot, Evaluator.Cont k) {
        if (ev.walkStart(s, 1) >= ev.walkEnd(s, 1)) {
            return true;
        }
        World world = ev.world;
        var src = new IntArrayList();
        world.tableAccess().forEachSourceIndex(rel, Ids.index(tgt), src::add);
        int[] order = src.toIntArray();
        java.util.Arrays.sort(order);
        long id = Ids.pair(rel, tgt);
        var m = new LongArrayList(1);
        m.add(id);
        for (int idx : order) {
            long e = world.entityOfIndex(idx);
            if (e == 0 || !world.isAlive(e)) {
                continue;
            }
            Table tb = world.tableAccess().table(e);
            if (ev.skip(tb)) {
                continue;
            }
            boolean r = ev.emitAllAt(s, t, m, slot, e, tb, world.tableAccess().row(e), k);
            if (!r) {
                return false;
            }
        }
        return true;
    }

    /**
     * One table of a {@code SELECT} walk that holds a sparse marker: each row matched on its
     * logical type. {@code distinct} is set for a {@code _} source (one result per reported id).
     */
    boolean selectRows(Step s, ResolvedTerm t, Table tb, boolean pair, long f, long sec, boolean anyF, boolean anyS,
                       int slot, LongOpenHashSet distinct, Evaluator.Cont k) {
        if (pair && distinct == null && f != 0 && !anyF && ev.world.tableAccess().sparse().isSparse(Ids.index(f))) {
            return selectTargets(s, t, tb, Ids.index(f), sec, anyS, slot, k);
        }
        LongArrayList m = ev.scratch[s.id()];
        for (int row = 0; row < tb.count(); row++) {
            m.clear();
            TypeMatch.match(typeOf(ev.world, tb, row), pair, f, sec, anyF, anyS, ev.toggled, m);
            if (m.isEmpty()) {
                continue;
            }
            if (distinct != null) {
                for (int i = 0; i < m.size(); i++) {
                    long id = m.getLong(i);
                    long key = Ids.pairOfIndices(anyF ? Ids.WILDCARD_INDEX : Ids.first(id), anyS ? Ids.WILDCARD_INDEX : Ids.second(id));
                    if (distinct.add(key) && !ev.emit(s, t, id, Ids.WILDCARD, k)) {
                        return false;
                    }
                }
                continue;
            }
            long e = tb.entity(row);
            ev.bindSource(slot, e, tb, row);
            boolean r = ev.emitAll(s, t, new LongArrayList(m), e, k);
            ev.b.values[slot] = 0;
            if (!r) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@link #selectRows} for {@code (R, x)} with R sparse (the common case: R's marker tables):
     * each row's targets read straight from the forward store, no logical type built.
     */
    private boolean selectTargets(Step s, ResolvedTerm t, Table tb, int rel, long sec, boolean anyS, int slot,
                                  Evaluator.Cont k) {
        SparseStore st = ev.world.tableAccess().sparse().store();
        int want = sec == 0 ? -1 : Ids.index(sec);
        if (want < 0 && !t.second().isVar() && ev.wholeTable(s, slot) && ev.batchable(s, tb)) {
            return selectTargetRuns(s, t, tb, st, rel, anyS, slot, k);
        }
        Located loc = want < 0 && locatesTarget(t, slot) ? ev.located(s) : null;
        long[] ents = tb.entities();
        int n = tb.count();
        int chunk = loc != null ? Located.WINDOW : Located.CHUNK;
        // the step after a located (R, $y), when it is a WITH on $y answered by $y's table alone, runs per table
        LocatedCheck check = loc != null ? LocatedCheck.after(ev, s, t.second().slot()) : null;
        TargetSlice rows = new TargetSlice(s, t, tb, st, rel, want, anyS, slot, ents, loc != null ? loc.firsts(Math.min(n, chunk))
            : new int[Math.min(n, chunk)], loc, check, k);
        for (int from = 0; from < n; from += chunk) {
            int len = Math.min(chunk, n - from);
            st.firsts(rel, ents, from, len, rows.firsts);
            if (loc != null) {
                loc.ofInIndexOrder(ev.world, rows.firsts, len); // several targets (negative) and none (0) locate nothing
            }
            // the rows a slice at a time: the slice method compiles by its call count within the
            // first evaluation, while a loop over all rows here would run interpreted until
            // on-stack replacement (after about 60,000 rows; RG-1 join: its sixth run)
            if (check != null) {
                check.warm(loc, 0, Math.min(len, WARM_AHEAD));
            }
            for (int i = 0; i < len; i += TargetSlice.ROWS) {
                if (check != null && i + WARM_AHEAD < len) {
                    check.warm(loc, i + WARM_AHEAD, Math.min(len, i + WARM_AHEAD + TargetSlice.ROWS));
                }
                if (!rows.run(from, i, Math.min(len, i + TargetSlice.ROWS))) {
                    return false;
                }
            }
        }
        return true;
    }

    /** {@link #selectTargets}' state for one table, and its per-row work for a slice of rows. */
    private final class TargetSlice {
        /** Rows per call of {@link #run}. */
        static final int ROWS = 32;
        private final Step s;
        private final ResolvedTerm t;
        private final Table tb;
        private final SparseStore st;
        private final int rel;
        private final int want;
        private final boolean anyS;
        private final int slot;
        private final long[] ents;
        /** The first targets of the current chunk of rows ({@link SparseStore#firsts}). */
        final int[] firsts;
        private final Located loc;
        /** The next step answered per table of the located targets ({@link LocatedCheck}), or null. */
        private final LocatedCheck check;
        private final Evaluator.Cont k;
        private final LongArrayList m = new LongArrayList(2);

        TargetSlice(Step s, ResolvedTerm t, Table tb, SparseStore st, int rel, int want, boolean anyS, int slot,
                    long[] ents, int[] firsts, Located loc, LocatedCheck check, Evaluator.Cont k) {
            this.s = s;
            this.t = t;
            this.tb = tb;
            this.st = st;
            this.rel = rel;
            this.want = want;
            this.anyS = anyS;
            this.slot = slot;
            this.ents = ents;
            this.firsts = firsts;
            this.loc = loc;
            this.check = check;
            this.k = k;
        }

        /** Rows {@code from + i0} to {@code from + i1 - 1} of the table, their targets at {@code i0..i1-1} of {@link #firsts}. */
        boolean run(int from, int i0, int i1) {
            for (int i = i0; i < i1; i++) {
                int row = from + i;
                long e = ents[row];
                int src = Ids.index(e);
                int f = firsts[i];
                int t0 = Math.abs(f);
                if (t0 == 0) {
                    continue;
                }
                if (loc != null && f > 0) { // one target, located: bind $this and the target with their tables
                    if (loc.ids[i] != 0 && !bindTarget(s, t, tb, row, e, slot, Ids.pairOfIndices(rel, t0), loc, i, check, k)) {
                        return false;
                    }
                    continue;
                }
                m.clear();
                if (want >= 0) {
                    if (t0 == want || (f < 0 && st.has(rel, src, want))) {
                        m.add(Ids.pairOfIndices(rel, want));
                    }
                } else {
                    m.add(Ids.pairOfIndices(rel, t0));
                    int[] more = anyS || f > 0 ? null : st.more(rel, src);
                    if (more != null) {
                        for (int x : more) {
                            m.add(Ids.pairOfIndices(rel, x));
                        }
                    }
                }
                if (m.isEmpty()) {
                    continue;
                }
                if (!ev.emitAllAt(s, t, m, slot, e, tb, row, k)) {
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * True when {@code (R, $y)} binds an unbound variable {@code $y} (not the source's) that a later
     * step reads as its source, R being fixed: the targets' tables and rows are then looked up a
     * window at a time ({@link Located#ofInIndexOrder}) and bound with them, as {@link Evaluator#emit} would bind
     * the target alone and the later step would look its table up.
     */
    private boolean locatesTarget(ResolvedTerm t, int slot) {
        return t.first().kind() == Operand.Kind.CONST && t.second().isVar() && t.second().slot() != slot
            && ev.b.values[t.second().slot()] == 0 && ev.sourceSlot(t.second().slot());
    }

    /**
     * {@link Evaluator#emitAllAt} of the one pair {@code id} at {@code row} of {@code tb} for a term
     * {@link #locatesTarget}: binds the source and the target, located at {@code loc}'s {@code i},
     * with their tables and rows, writes the field, continues, and unbinds both. With a
     * {@link LocatedCheck} the next step is answered by the target's table: no result when it
     * fails, else straight on to the step after it.
     */
    private boolean bindTarget(Step s, ResolvedTerm t, Table tb, int row, long e, int slot, long id, Located loc, int i,
                               LocatedCheck check, Evaluator.Cont k) {
        int ys = t.second().slot();
        Table yt = loc.tables[i];
        int answer = check == null ? LocatedCheck.GENERAL : check.of(yt);
        if (answer == LocatedCheck.NONE) {
            return true;
        }
        long y = loc.ids[i];
        ev.bindSource(slot, e, tb, row);
        ev.bindSource(ys, y, yt, loc.rows[i]);
        ev.setField(s.field(), id, e);
        boolean r = answer == LocatedCheck.MATCH ? check.pass(y) : k.go();
        ev.unbind(ys);
        ev.b.values[slot] = 0;
        return r;
    }

    /**
     * {@link #selectTargets} of {@code (R, *)} or {@code (R, _)} by a generator that handles whole
     * tables ({@link Evaluator#wholeTable}): the first targets of all rows are read at once
     * ({@link SparseStore#firsts}), and each run of consecutive rows with one target each (any
     * number for {@code _}) is one result standing for all of them, the field's id given per row
     * ({@link Bindings#fieldRowIds}; for {@code _} it is {@code (R, *)} for all). A row with
     * several targets gives one single-row result per target, as {@link #selectTargets} does.
     */
    private boolean selectTargetRuns(Step s, ResolvedTerm t, Table tb, SparseStore st, int rel, boolean anyS, int slot,
                                     Evaluator.Cont k) {
        int n = tb.count();
        long[] ents = tb.entities();
        int[] firsts = new int[n];
        st.firsts(rel, ents, 0, n, firsts);
        LongArrayList m = new LongArrayList(4);
        int run = -1;
        for (int row = 0; row <= n; row++) {
            int f = row < n ? firsts[row] : 0;
            if (f > 0 || (f < 0 && anyS)) {
                if (run < 0) {
                    run = row;
                }
                continue;
            }
            if (run >= 0 && !targetRun(s, t, tb, rel, firsts, run, row, anyS, slot, k)) {
                return false;
            }
            run = -1;
            if (f < 0) { // several targets: one single-row result per target
                m.clear();
                m.add(Ids.pairOfIndices(rel, -f));
                for (int x : st.more(rel, Ids.index(ents[row]))) {
                    m.add(Ids.pairOfIndices(rel, x));
                }
                boolean r = ev.emitAllAt(s, t, m, slot, ents[row], tb, row, k);
                if (!r) {
                    return false;
                }
            }
        }
        return true;
    }

    /** One result for rows {@code from} to {@code to - 1} of {@code tb}, each with its first target in {@code firsts}. */
    private boolean targetRun(Step s, ResolvedTerm t, Table tb, int rel, int[] firsts, int from, int to, boolean anyS,
                              int slot, Evaluator.Cont k) {
        int n = to - from;
        long saved = ev.startRows(slot, tb, from, n);
        if (!anyS && !ev.counting && s.field() >= 0) {
            ev.b.rowIds[s.field()] = new RowIds(rel, firsts, from, n);
        }
        boolean r = ev.emit(s, t, Ids.pairOfIndices(rel, Math.abs(firsts[from])), tb.entity(from), k);
        ev.endRows(slot, saved);
        return r;
    }


    /** True when {@code o} is a fixed or bound entity that is a sparse relationship now. */
    static boolean sparseFirst(World world, Operand o, long value) {
        return value != 0 && o.kind() != Operand.Kind.ANY && world.tableAccess().sparse().isSparse(Ids.index(value));
    }
}
