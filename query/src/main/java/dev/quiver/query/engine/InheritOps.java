package dev.quiver.query.engine;

import dev.quiver.index.Ids;
import dev.quiver.query.plan.ResolvedTerm;
import dev.quiver.query.plan.Step;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.table.Table;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import it.unimi.dsi.fastutil.longs.LongArrayList;

/**
 * The IsA inheritance of id terms in the {@link Evaluator} (Flecs v4; FEATURES ISA-10, ISA-12), for
 * terms whose {@link ResolvedTerm.Inherit} is not {@code NONE}:
 * <ul>
 *   <li>component inheritance: the term's id and its IsA subsets in use are matched together, each
 *       table once, one result per id the entity holds (the field reports it);</li>
 *   <li>{@code up IsA} for Inherit ids: an entity that does not own X (or any entity, for
 *       {@code up} alone) matches when an IsA base owns X, with the nearest such base (depth first,
 *       bases in type order: {@link dev.quiver.storage.World#owner}) as the field's source. With the
 *       source unbound, the candidates are the IsA descendants of X's owners, found through the
 *       reverse index, never by scanning entities.</li>
 * </ul>
 */
final class InheritOps {
    private final Evaluator ev;

    InheritOps(Evaluator ev) {
        this.ev = ev;
    }

    /** Source unbound. */
    boolean select(Step s) {
        ResolvedTerm t = s.term();
        ResolvedTerm.Inherit in = t.inherit();
        long x = t.first().entity();
        int slot = t.source().slot();
        Evaluator.Cont k = ev.next[s.id()];
        long[] ids = ids(x, in);
        LongArrayList m = new LongArrayList();
        if (in.self()) {
            var seen = new IntOpenHashSet();
            for (long id : ids) {
                for (Table tb : ev.world.tables(id)) {
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
                        ev.bindSource(slot, ents[row], tb, row);
                        boolean r = emitAll(s, t, m, ents[row], k);
                        ev.b.values[slot] = 0;
                        if (!r) {
                            return false;
                        }
                    }
                }
            }
        }
        if (in.up() && hasIsA()) {
            for (int c : descendantsOfOwners(x)) {
                long e = ev.world.entityOfIndex(c);
                if (e == 0 || (in.self() && ev.world.owns(e, x))) {
                    continue;
                }
                long owner = ownerUp(e, x);
                Table tb = ev.world.table(e);
                if (owner == 0 || ev.skip(tb)) {
                    continue;
                }
                ev.bindSource(slot, e, tb, ev.world.row(e));
                boolean r = emit(s, t, x, owner, k);
                ev.b.values[slot] = 0;
                if (!r) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Source bound or fixed. */
    boolean with(Step s) {
        ResolvedTerm t = s.term();
        ResolvedTerm.Inherit in = t.inherit();
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
        if (in.self()) {
            boolean any = false;
            for (long id : ids(x, in)) {
                if (tb.hasId(id)) {
                    any = true;
                    if (!emit(s, t, id, src, k)) {
                        return false;
                    }
                }
            }
            if (any || !in.up()) {
                return true;
            }
        }
        if (in.up() && hasIsA()) {
            long owner = ownerUp(src, x);
            if (owner != 0) {
                return emit(s, t, x, owner, k);
            }
        }
        return true;
    }

    private static long[] ids(long x, ResolvedTerm.Inherit in) {
        long[] ids = new long[in.derived().length + 1];
        ids[0] = x;
        System.arraycopy(in.derived(), 0, ids, 1, in.derived().length);
        return ids;
    }

    private boolean hasIsA() {
        return !ev.world.tables(Ids.pairOfIndices(Ids.index(Builtin.IS_A), Ids.WILDCARD_INDEX)).isEmpty();
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

    /** Entity indices of every transitive IsA descendant of an owner of {@code x}, in index order. */
    private int[] descendantsOfOwners(long x) {
        var seen = new IntOpenHashSet();
        var queue = new IntArrayList();
        for (Table tb : ev.world.tables(x)) {
            for (int row = 0, n = tb.count(); row < n; row++) {
                int o = Ids.index(tb.entity(row));
                if (seen.add(o)) {
                    queue.add(o);
                }
            }
        }
        var out = new IntArrayList();
        var inOut = new IntOpenHashSet();
        for (int q = 0; q < queue.size(); q++) {
            ev.world.forEachSourceIndex(Builtin.IS_A, queue.getInt(q), d -> {
                if (seen.add(d)) {
                    queue.add(d);
                }
                if (inOut.add(d)) {
                    out.add(d); // owners that also inherit come here too (matched by up alone)
                }
            });
        }
        int[] a = out.toIntArray();
        java.util.Arrays.sort(a);
        return a;
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
