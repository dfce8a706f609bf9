package dev.quiver.query.engine;

import dev.quiver.index.Ids;
import dev.quiver.query.plan.Operand;
import dev.quiver.query.plan.ResolvedTerm;
import dev.quiver.query.plan.Step;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.OnInstantiate;
import dev.quiver.storage.table.Table;
import dev.quiver.storage.table.Types;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;

/**
 * The IsA inheritance of id terms in the {@link Evaluator} (Flecs v4; FEATURES ISA-10, ISA-12), for
 * terms whose {@link ResolvedTerm.Inherit} is not {@code NONE}:
 * <ul>
 *   <li>component inheritance: the term's id and its IsA subsets in use are matched together, each
 *       table once, one result per id the entity holds (the field reports it);</li>
 *   <li>{@code up IsA} for Inherit ids: an entity that does not own X (or any entity, for
 *       {@code up} alone) matches when an IsA base owns X, with the nearest such base (depth first,
 *       bases in type order) as the field's source; with component inheritance too, the same for
 *       each subset D that is itself Inherit (per id, as Flecs' substituted variable is matched
 *       {@code self|up} value by value; the ids {@code has} sees), so an instance owning D and
 *       inheriting X gets both rows. In detail, the nearest base (depth first,
 *       bases in type order: {@link dev.quiver.storage.World#owner}) as the field's source. With the
 *       source unbound, the candidates are the rows of the tables holding IsA pairs (component
 *       index of {@code (IsA, *)}), decided once per table: which base provides X depends only on
 *       the type.</li>
 *   <li>pair and wildcard terms ({@link ResolvedTerm.Inherit#pairs}): the source's own matching
 *       pairs, and the matching Inherit pairs it sees through its IsA bases and does not own, each
 *       with the nearest base holding it as the field's source (IsA pairs included:
 *       {@code (IsA, Base|self)} returns instances of Base's subtypes, conformance NOTES K5).</li>
 * </ul>
 */
final class InheritOps {
    private static final long IS_A_ANY = Ids.pairOfIndices(Ids.index(Builtin.IS_A), Ids.WILDCARD_INDEX);

    private final Evaluator ev;

    InheritOps(Evaluator ev) {
        this.ev = ev;
    }

    /** Source unbound. */
    boolean select(Step s) {
        ResolvedTerm t = s.term();
        ResolvedTerm.Inherit in = t.inherit();
        if (in.pairs()) {
            return selectPairs(s);
        }
        long x = t.first().entity();
        int slot = t.source().slot();
        Evaluator.Cont k = ev.next[s.id()];
        long[] ids = ids(x, in);
        LongArrayList m = new LongArrayList();
        if (in.self()) {
            var seen = new IntOpenHashSet();
            for (long id : ids) {
                for (Table tb : ev.world.tableAccess().tables(id)) {
                    if (tb.count() == 0 || !seen.add(tb.id()) || ev.skip(tb)) {
                        continue;
                    }
                    m.clear();
                    for (long other : ids) {
                        if (tb.hasId(other)) {
                            m.add(other);
                        }
                    }
                    long[] ents = tb.entities();
                    for (int row = 0, n = tb.count(); row < n; row++) {
                        boolean r = ev.emitAllAt(s, t, m, slot, ents[row], tb, row, k);
                        if (!r) {
                            return false;
                        }
                    }
                }
            }
        }
        if (in.up()) {
            // who inherits X (or a subset) is decided by the type (its IsA bases), so this runs
            // table by table over the tables holding IsA pairs, never entity by entity
            boolean[] upOk = inheritable(ids);
            LongArrayList from = new LongArrayList();
            for (Table tb : ev.world.tableAccess().tables(IS_A_ANY)) {
                if (tb.count() == 0 || ev.skip(tb)) {
                    continue;
                }
                inheritedIds(tb, tb.entity(0), ids, upOk, in.self(), m, from);
                if (!m.isEmpty() && !rows(s, tb, slot, m, from, k)) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Which of {@code ids} (the term's id, then its IsA subsets) an up IsA search may find: the
     * term's id (an Inherit id, or {@code up} would be refused) and the subsets that are
     * {@code (OnInstantiate, Inherit)} themselves, the ids {@code has} sees through IsA.
     */
    private boolean[] inheritable(long[] ids) {
        boolean[] ok = new boolean[ids.length];
        ok[0] = true;
        for (int i = 1; i < ids.length; i++) {
            ok[i] = ev.world.onInstantiate(ids[i]) == OnInstantiate.INHERIT;
        }
        return ok;
    }

    /**
     * The ids of {@code ids} that entity {@code e} (of table {@code tb}) sees through its IsA
     * bases, into {@code out}, with the nearest base owning each into {@code from}; an id {@code e}
     * owns is left out when {@code self} (it matched as its own).
     */
    private void inheritedIds(Table tb, long e, long[] ids, boolean[] upOk, boolean self, LongArrayList out,
                              LongArrayList from) {
        out.clear();
        from.clear();
        for (int i = 0; i < ids.length; i++) {
            if (!upOk[i] || (self && tb.hasId(ids[i]))) {
                continue;
            }
            long owner = ownerUp(e, ids[i]);
            if (owner != 0) {
                out.add(ids[i]);
                from.add(owner);
            }
        }
    }

    /** Source bound or fixed. */
    boolean with(Step s) {
        ResolvedTerm t = s.term();
        ResolvedTerm.Inherit in = t.inherit();
        if (in.pairs()) {
            return withPairs(s);
        }
        long src = ev.sourceValue(t.source());
        if (src == 0 || !ev.world.isAlive(src)) {
            return true;
        }
        Table tb = ev.tableOf(t.source(), src);
        if (tb == null) {
            return true;
        }
        long x = t.first().entity();
        Evaluator.Cont k = ev.next[s.id()];
        long[] ids = ids(x, in);
        if (in.self()) {
            for (long id : ids) {
                if (tb.hasId(id) && !emit(s, t, id, src, k)) {
                    return false;
                }
            }
        }
        if (in.up()) {
            LongArrayList m = new LongArrayList(), from = new LongArrayList();
            inheritedIds(tb, src, ids, inheritable(ids), in.self(), m, from);
            for (int i = 0; i < m.size(); i++) {
                if (!emit(s, t, m.getLong(i), from.getLong(i), k)) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * A pair or wildcard term, source unbound ({@link ResolvedTerm.Inherit#pairs}): the tables
     * holding a matching pair, each row with its own matches; then (when {@code up}) the tables
     * holding IsA pairs, each row with the matching Inherit pairs it sees through its bases and
     * does not own (which those are depends only on the type, so they are found once per table).
     * With pair substitution the own matches are those of the relationship and of its subsets.
     */
    private boolean selectPairs(Step s) {
        ResolvedTerm t = s.term();
        ResolvedTerm.Inherit in = t.inherit();
        long[] rels = rels(t);
        if (rels == null) {
            // the own pairs the ordinary way (chunks, whole tables), then the inherited ones in the first chunk
            if (!ev.idTerms.selectOwn(s)) {
                return false;
            }
            if (ev.laterChunk(s)) {
                return true;
            }
        } else {
            if (ev.laterChunk(s)) {
                return true;
            }
            if (!selectSubstituted(s, rels)) {
                return false;
            }
        }
        if (!in.up()) {
            return true;
        }
        int slot = t.source().slot();
        Evaluator.Cont k = ev.next[s.id()];
        long f = ev.value(t.first()), sec = ev.value(t.second());
        boolean anyF = t.first().kind() == Operand.Kind.ANY, anyS = t.second().kind() == Operand.Kind.ANY;
        LongArrayList m = new LongArrayList(), from = new LongArrayList();
        for (Table tb : ev.world.tableAccess().tables(IS_A_ANY)) {
            if (tb.count() == 0 || ev.skip(tb)) {
                continue;
            }
            if (Types.hasMarker(tb.type())) { // sparse pairs: the own pairs differ row by row
                if (!rowByRow(s, tb, slot, f, rels, sec, anyF, anyS, m, from, k)) {
                    return false;
                }
                continue;
            }
            inheritedPairs(tb.type(), tb.entity(0), f, rels, sec, anyF, anyS, m, from);
            if (!m.isEmpty() && !rows(s, tb, slot, m, from, k)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The own part of a substituted pair term, source unbound or {@code _}: each table holding a
     * pair of the relationship or of one of its subsets once (a sparse marker's table row by row),
     * every matching pair of each row; for a {@code _} source each distinct reported pair once.
     * Never split in chunks: it runs whole in the first one.
     */
    private boolean selectSubstituted(Step s, long[] rels) {
        ResolvedTerm t = s.term();
        Evaluator.Cont k = ev.next[s.id()];
        long sec = ev.value(t.second());
        boolean anyS = t.second().kind() == Operand.Kind.ANY;
        boolean anySource = t.source().kind() == Operand.Kind.ANY;
        int slot = anySource ? -1 : t.source().slot();
        LongOpenHashSet distinct = anySource ? new LongOpenHashSet() : null;
        var seen = new IntOpenHashSet();
        LongArrayList m = new LongArrayList();
        for (long rel : rels) {
            long pattern = Ids.pairOfIndices(Ids.index(rel), sec != 0 ? Ids.index(sec) : Ids.WILDCARD_INDEX);
            for (Table tb : SparseOps.tables(ev.world, pattern)) {
                if (tb.count() == 0 || !seen.add(tb.id()) || ev.skip(tb)) {
                    continue;
                }
                boolean perRow = false; // row by row when the table holds the marker of one of the relationships
                for (long r : rels) {
                    perRow |= SparseOps.perRow(tb, true, r, false);
                }
                if (!perRow) {
                    matchOwn(tb.type(), 0, rels, sec, false, anyS, m);
                    if (m.isEmpty()) {
                        continue;
                    }
                }
                long[] ents = tb.entities();
                for (int row = 0, n = tb.count(); row < n; row++) {
                    if (perRow) {
                        matchOwn(SparseOps.typeOf(ev.world, tb, row), 0, rels, sec, false, anyS, m);
                    }
                    if (anySource) {
                        for (int i = 0; i < m.size(); i++) {
                            long id = m.getLong(i);
                            long key = anyS ? Ids.pairOfIndices(Ids.first(id), Ids.WILDCARD_INDEX) : id;
                            if (distinct.add(key) && !ev.emit(s, t, id, Ids.WILDCARD, k)) {
                                return false;
                            }
                        }
                        continue;
                    }
                    if (m.isEmpty()) {
                        continue;
                    }
                    boolean r = ev.emitAllAt(s, t, m, slot, ents[row], tb, row, k);
                    if (!r) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /**
     * The own pairs of {@code type} matching the pattern into {@code out} (cleared first): with
     * {@code rels} (pair substitution) those of each relationship in it, else of {@code f}.
     */
    private void matchOwn(long[] type, long f, long[] rels, long sec, boolean anyF, boolean anyS,
                                 LongArrayList out) {
        out.clear();
        if (rels == null) {
            TypeMatch.match(type, true, f, sec, anyF, anyS, ev.toggled, out);
            return;
        }
        for (long r : rels) {
            TypeMatch.match(type, true, r, sec, false, anyS, ev.toggled, out);
        }
    }

    /** The relationships a substituted pair term matches (its own first, then its IsA subsets), or null. */
    private static long[] rels(ResolvedTerm t) {
        long[] d = t.inherit().derived();
        if (d.length == 0) {
            return null;
        }
        long[] rels = new long[d.length + 1];
        rels[0] = t.first().entity();
        System.arraycopy(d, 0, rels, 1, d.length);
        return rels;
    }

    /** {@link #selectPairs} over a table holding sparse markers: each row with its own logical type. */
    private boolean rowByRow(Step s, Table tb, int slot, long f, long[] rels, long sec, boolean anyF, boolean anyS,
                             LongArrayList m, LongArrayList from, Evaluator.Cont k) {
        long[] ents = tb.entities();
        for (int row = 0, n = tb.count(); row < n; row++) {
            long e = ents[row];
            inheritedPairs(SparseOps.typeOf(ev.world, tb, row), e, f, rels, sec, anyF, anyS, m, from);
            if (m.isEmpty()) {
                continue;
            }
            ev.bindSource(slot, e, tb, row);
            boolean r = emitFrom(s, m, from, k);
            ev.b.values[slot] = 0;
            if (!r) {
                return false;
            }
        }
        return true;
    }

    /** Each row of {@code tb} bound to the source slot, with the matches {@code m} found on {@code from} (null: the row). */
    private boolean rows(Step s, Table tb, int slot, LongArrayList m, LongArrayList from, Evaluator.Cont k) {
        long[] ents = tb.entities();
        for (int row = 0, n = tb.count(); row < n; row++) {
            ev.bindSource(slot, ents[row], tb, row);
            boolean r = from == null ? ev.emitAll(s, s.term(), m, ents[row], k) : emitFrom(s, m, from, k);
            ev.b.values[slot] = 0;
            if (!r) {
                return false;
            }
        }
        return true;
    }

    /** A pair or wildcard term, source bound or fixed: its own matching pairs, then the Inherit ones it sees through its bases. */
    private boolean withPairs(Step s) {
        ResolvedTerm t = s.term();
        long src = ev.sourceValue(t.source());
        if (src == 0 || !ev.world.isAlive(src)) {
            return true;
        }
        Table tb = ev.tableOf(t.source(), src);
        if (tb == null) {
            return true;
        }
        long f = ev.value(t.first()), sec = ev.value(t.second());
        boolean anyF = t.first().kind() == Operand.Kind.ANY, anyS = t.second().kind() == Operand.Kind.ANY;
        long[] rels = rels(t);
        LongArrayList m = new LongArrayList(), from = new LongArrayList();
        long[] type = SparseOps.typeOf(ev.world, src); // the logical type: sparse pairs too
        matchOwn(type, f, rels, sec, anyF, anyS, m);
        if (!ev.emitAll(s, t, m, src, ev.next[s.id()])) {
            return false;
        }
        if (!t.inherit().up() || !Types.hasPairOf(tb.type(), Ids.index(Builtin.IS_A))) {
            return true;
        }
        inheritedPairs(type, src, f, rels, sec, anyF, anyS, m, from);
        return emitFrom(s, m, from, ev.next[s.id()]);
    }

    private boolean emitFrom(Step s, LongArrayList m, LongArrayList from, Evaluator.Cont k) {
        for (int i = 0, n = m.size(); i < n; i++) {
            if (!ev.emit(s, s.term(), m.getLong(i), from.getLong(i), k)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The pairs matching the pattern that entity {@code e} (of logical type {@code type}) sees through its IsA
     * bases and does not own, Inherit ones only, nearest base first ({@link
     * dev.quiver.storage.World#inheritedIds}), into {@code out}, with the base providing each into
     * {@code from}. A {@code _} position keeps one pair per group, none of a group {@code e} owns.
     */
    private void inheritedPairs(long[] type, long e, long f, long[] rels, long sec, boolean anyF, boolean anyS,
                                LongArrayList out, LongArrayList from) {
        out.clear();
        from.clear();
        LongArrayList own = null;
        for (long id : ev.world.inheritedIds(e)) {
            if (!Ids.isPair(id) || !firstMatches(Ids.first(id), f, rels)
                    || (sec != 0 && Ids.second(id) != Ids.index(sec)) || collapsed(out, id, anyF, anyS)) {
                continue;
            }
            if (anyF || anyS) {
                if (own == null) {
                    own = new LongArrayList();
                    matchOwn(type, f, rels, sec, anyF, anyS, own);
                }
                if (collapsed(own, id, anyF, anyS)) {
                    continue;
                }
            }
            out.add(id);
            from.add(ev.world.owner(e, id));
        }
    }

    /** True when a pair's relationship index {@code first} matches {@code f} (0: any), or one of {@code rels}. */
    private static boolean firstMatches(int first, long f, long[] rels) {
        if (rels == null) {
            return f == 0 || first == Ids.index(f);
        }
        for (long r : rels) {
            if (first == Ids.index(r)) {
                return true;
            }
        }
        return false;
    }

    /** True when a {@code _} position makes {@code id} one of the group of a pair in {@code out}. */
    private static boolean collapsed(LongArrayList out, long id, boolean anyF, boolean anyS) {
        if (!anyF && !anyS) {
            return false;
        }
        for (int i = 0; i < out.size(); i++) {
            long o = out.getLong(i);
            if ((anyF || Ids.first(o) == Ids.first(id)) && (anyS || Ids.second(o) == Ids.second(id))) {
                return true;
            }
        }
        return false;
    }

    private static long[] ids(long x, ResolvedTerm.Inherit in) {
        long[] ids = new long[in.derived().length + 1];
        ids[0] = x;
        System.arraycopy(in.derived(), 0, ids, 1, in.derived().length);
        return ids;
    }

    /** The nearest IsA base of {@code e} (not {@code e} itself) that owns {@code x}, or 0. */
    private long ownerUp(long e, long x) {
        for (long b : ev.world.targets(e, Builtin.IS_A)) {
            long o = ev.world.owner(b, x);
            if (o != 0) {
                return o;
            }
        }
        return 0;
    }

    private boolean emitAll(Step s, ResolvedTerm t, LongArrayList m, long src, Evaluator.Cont k) {
        for (int i = 0, n = m.size(); i < n; i++) {
            if (!emit(s, t, m.getLong(i), src, k)) {
                return false;
            }
        }
        return true;
    }

    private boolean emit(Step s, ResolvedTerm t, long id, long src, Evaluator.Cont k) {
        ev.setField(s.field(), id, src);
        return k.go();
    }
}
