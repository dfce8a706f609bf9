package dev.quiver.query.engine;

import dev.quiver.index.Ids;
import dev.quiver.query.plan.Operand;
import dev.quiver.query.plan.ResolvedTerm;
import dev.quiver.query.plan.Step;
import dev.quiver.storage.table.Table;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;

import java.util.List;

/**
 * The id-term operations of the {@link Evaluator}: {@link dev.quiver.query.plan.OpKind#SELECT}
 * (source unbound: walk the component index's tables for the id) and
 * {@link dev.quiver.query.plan.OpKind#WITH} (source bound: match the id against its table's type),
 * for the ids the sources own; inherited ids are {@link InheritOps}'. Matches go out through
 * {@link Evaluator#emit}. One instance per run.
 */
final class IdTermOps {
    private final Evaluator ev;
    /** Per step id: the table, first and second id WITH last matched, and its matches in {@code ev.scratch}. */
    private final Table[] cacheTable;
    private final long[] cacheFirst;
    private final long[] cacheSecond;

    IdTermOps(Evaluator ev, int steps) {
        this.ev = ev;
        cacheTable = new Table[steps];
        cacheFirst = new long[steps];
        cacheSecond = new long[steps];
    }

    /**
     * SELECT, source unbound: walks the tables of the component index for the term's id and
     * emits each id the sources own (also the own part of an inherited pair term, {@link InheritOps}).
     */
    boolean selectOwn(Step s) {
        ResolvedTerm t = s.term();
        Evaluator.Cont k = ev.next[s.id()];
        boolean pair = t.second() != null;
        long f = ev.value(t.first());
        long sec = pair ? ev.value(t.second()) : 0;
        boolean anyF = t.first().kind() == Operand.Kind.ANY;
        boolean anyS = pair && t.second().kind() == Operand.Kind.ANY;
        long pattern;
        if (pair) {
            pattern = Ids.pairOfIndices(f != 0 ? Ids.index(f) : Ids.WILDCARD_INDEX,
                sec != 0 ? Ids.index(sec) : Ids.WILDCARD_INDEX);
        } else {
            pattern = f != 0 ? f : Ids.WILDCARD;
        }
        LongArrayList m = ev.scratch[s.id()];
        boolean anySource = t.source().kind() == Operand.Kind.ANY;
        LongOpenHashSet distinct = anySource ? new LongOpenHashSet() : null;
        int slot = anySource ? -1 : t.source().slot();
        if (pair && !anySource && sec != 0 && SparseOps.sparseFirst(ev.world, t.first(), f)) {
            return ev.sparse.selectPair(s, t, f, sec, slot, k);
        }
        List<Table> walk = ev.walked(slot, SparseOps.tables(ev.world, pattern));
        int end = anySource ? walk.size() : ev.walkEnd(s, walk.size());
        for (int ti = anySource ? 0 : ev.walkStart(s, walk.size()); ti < end; ti++) {
            Table tb = walk.get(ti);
            int n = tb.count();
            if (n == 0 || ev.skip(tb)) {
                continue;
            }
            if (SparseOps.perRow(tb, pair, f, anyF)) {
                if (!ev.sparse.selectRows(s, t, tb, pair, f, sec, anyF, anyS, slot, distinct, k)) {
                    return false;
                }
                continue;
            }
            m.clear();
            TypeMatch.match(tb.type(), pair, f, sec, anyF, anyS, ev.toggled, m);
            if (m.isEmpty()) {
                continue;
            }
            if (anySource) {
                for (int i = 0; i < m.size(); i++) {
                    long id = m.getLong(i);
                    // one result per distinct reported id: a '_' element is reported as '*' (K3, K12)
                    long key = !pair ? (anyF ? Ids.WILDCARD : id)
                        : Ids.pairOfIndices(anyF ? Ids.WILDCARD_INDEX : Ids.first(id), anyS ? Ids.WILDCARD_INDEX : Ids.second(id));
                    if (distinct.add(key) && !ev.emit(s, t, id, Ids.WILDCARD, k)) {
                        return false;
                    }
                }
                continue;
            }
            long[] ents = tb.entities();
            if (ev.wholeTable(s, slot) && ev.batchable(s, tb)) {
                long saved = ev.startRows(slot, tb, 0, n);
                boolean r = ev.emitAll(s, t, m, ents[0], k);
                ev.endRows(slot, saved);
                if (!r) {
                    return false;
                }
                continue;
            }
            for (int row = 0; row < n; row++) {
                long e = ents[row];
                boolean r = ev.emitAllAt(s, t, m, slot, e, tb, row, k);
                if (!r) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * WITH, source bound or fixed: matches the id against the source's table type (cached per step
     * while the table and ids stay). The matching itself is out of line ({@link #matchRow},
     * {@link #matchTable}): what runs per source while the cache holds is short enough for the JIT
     * to inline into the continuation that runs the step (RG-1 join: once per located row).
     */
    boolean with(Step s) {
        ResolvedTerm t = s.term();
        long src = ev.sourceValue(t.source());
        if (src == 0) {
            return true;
        }
        Table tb = ev.tableOf(t.source(), src);
        if (tb == null) {
            return true;
        }
        boolean pair = t.second() != null;
        long f = ev.value(t.first());
        long sec = pair ? ev.value(t.second()) : 0;
        int id = s.id();
        if (SparseOps.perRow(tb, pair, f, t.first().kind() == Operand.Kind.ANY)) { // the match depends on the row: no cache
            matchRow(s, t, src, pair, f, sec);
        } else if (cacheTable[id] != tb || cacheFirst[id] != f || cacheSecond[id] != sec) {
            matchTable(s, t, tb, pair, f, sec);
        }
        return ev.emitAll(s, t, ev.scratch[id], src, ev.next[id]);
    }

    /** {@link #with}'s matches for a source whose table holds a sparse marker: on its logical type, not cached. */
    private void matchRow(Step s, ResolvedTerm t, long src, boolean pair, long f, long sec) {
        int id = s.id();
        LongArrayList m = ev.scratch[id];
        m.clear();
        TypeMatch.match(SparseOps.typeOf(ev.world, src), pair, f, sec, t.first().kind() == Operand.Kind.ANY,
            t.second().kind() == Operand.Kind.ANY, ev.toggled, m);
        cacheTable[id] = null;
    }

    /** {@link #with}'s matches on {@code tb}'s type, cached for the step with the table and ids. */
    private void matchTable(Step s, ResolvedTerm t, Table tb, boolean pair, long f, long sec) {
        int id = s.id();
        LongArrayList m = ev.scratch[id];
        m.clear();
        TypeMatch.match(tb.type(), pair, f, sec, t.first().kind() == Operand.Kind.ANY,
            pair && t.second().kind() == Operand.Kind.ANY, ev.toggled, m);
        cacheTable[id] = tb;
        cacheFirst[id] = f;
        cacheSecond[id] = sec;
    }
}
