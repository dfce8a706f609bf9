package dev.quiver.query.engine;

import dev.quiver.index.Ids;
import dev.quiver.query.plan.Operand;
import dev.quiver.query.plan.ResolvedTerm;
import dev.quiver.query.plan.Step;
import dev.quiver.query.plan.Up;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.OnInstantiate;
import dev.quiver.storage.World;
import dev.quiver.storage.table.Table;
import dev.quiver.storage.table.Types;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;

import java.util.Arrays;

/**
 * The upward traversal operations {@code UP_WITH} and {@code UP_SELECT}: terms written
 * {@code T(up R)} or {@code T(self|up R)} (Flecs v4, FEATURES.md QS-40..QS-46; the checks are in
 * the planner's {@code UpRules}).
 *
 * <p>A source s matches when (for {@code self|up}) s's own table has the id, else when an entity
 * reached from s by following R upward, one or more steps, has it in its own table or, for an
 * (OnInstantiate, Inherit) id and R other than IsA, inherits it through IsA (tested after the
 * entities above it; the base that owns it is the field's source; Flecs v4 Queries manual). The search is
 * depth-first in type order: the first target's chain up to its root, then the next target (Flecs
 * v4 Queries manual); the first entity found is the field's source, and every id of that entity
 * that matches the term (several for a wildcard or variable id) gives one result. A visited set
 * makes the walk end on a cyclic relationship (conformance NOTES E3: Flecs terminates there too).
 * The sources found upward may be prefabs (an instance reads its prefab's values); Prefab and
 * Disabled skipping applies to the matched source, as for every term.
 *
 * <p>With the source unbound, the candidates are the entities holding the id and everything below
 * them through R (the reverse index, {@link World#forEachSource}); each candidate is then tested as
 * with a bound source, in entity id order, so results are deterministic (QS-48).
 */
final class UpTraversal {
    private final Evaluator ev;
    private final LongArrayList stack = new LongArrayList();
    private final LongOpenHashSet visited = new LongOpenHashSet();

    UpTraversal(Evaluator ev) {
        this.ev = ev;
    }

    /** {@code UP_WITH}: the source is bound or fixed. */
    boolean with(Step s) {
        ResolvedTerm t = s.term();
        long src = ev.sourceValue(t.source());
        if (src == 0 || !ev.world.isAlive(src)) {
            return true;
        }
        return matchOn(s, t, src, ev.tableOf(t.source(), src));
    }

    /** {@code UP_SELECT}: binds the source to every candidate below a holder of the id, then tests it. */
    boolean select(Step s) {
        World world = ev.world;
        ResolvedTerm t = s.term();
        Up up = t.up();
        int slot = t.source().slot();
        LongOpenHashSet seen = new LongOpenHashSet();
        LongArrayList candidates = new LongArrayList();
        LongArrayList queue = new LongArrayList();
        for (Table tb : SparseOps.tables(world, pattern(t))) {
            long[] ents = tb.entities();
            for (int row = 0, n = tb.count(); row < n; row++) {
                long h = ents[row];
                queue.add(h);
                if (up.self() && seen.add(h)) {
                    candidates.add(h);
                }
            }
        }
        long inherit = inheritable(t);
        if (inherit != 0) { // instances of holders have the id too: what is below them is a candidate
            LongOpenHashSet instances = new LongOpenHashSet(queue);
            for (int i = 0; i < queue.size(); i++) {
                world.forEachSource(Builtin.IS_A, queue.getLong(i), d -> {
                    if (instances.add(d)) {
                        queue.add(d);
                    }
                });
            }
        }
        LongOpenHashSet expanded = new LongOpenHashSet();
        for (int i = 0; i < queue.size(); i++) {
            long a = queue.getLong(i);
            if (!expanded.add(a)) {
                continue;
            }
            world.forEachSource(up.relationship(), a, d -> {
                if (seen.add(d)) {
                    candidates.add(d);
                }
                queue.add(d);
            });
        }
        long[] order = candidates.toLongArray();
        Arrays.sort(order);
        for (long c : order) {
            if (!world.isAlive(c)) {
                continue;
            }
            Table tb = world.tableAccess().table(c);
            if (ev.skip(tb)) {
                continue;
            }
            ev.bindSource(slot, c, tb, world.tableAccess().row(c));
            boolean r = matchOn(s, t, c, tb);
            ev.b.values[slot] = 0;
            if (!r) {
                return false;
            }
        }
        return true;
    }

    /** Self (for self|up), else the nearest ancestor; emits every matching id of the owner found. */
    private boolean matchOn(Step s, ResolvedTerm t, long src, Table srcTable) {
        boolean pair = t.second() != null;
        long f = ev.value(t.first());
        long sec = pair ? ev.value(t.second()) : 0;
        boolean anyF = t.first().kind() == Operand.Kind.ANY;
        boolean anyS = pair && t.second().kind() == Operand.Kind.ANY;
        LongArrayList m = ev.scratch[s.id()];
        m.clear();
        long owner = 0;
        if (t.up().self() && srcTable != null) {
            TypeMatch.match(SparseOps.typeOf(ev.world, src), pair, f, sec, anyF, anyS, ev.toggled, m);
            if (!m.isEmpty()) {
                owner = src;
            }
        }
        if (owner == 0) {
            owner = nearest(src, Ids.index(t.up().relationship()), pair, f, sec, anyF, anyS, inheritable(t), m);
            if (owner == 0) {
                return true;
            }
        }
        return ev.emitAll(s, t, m, owner, ev.next[s.id()]);
    }

    /**
     * The first entity, depth-first up R from {@code e} (e excluded unless a cycle leads back to
     * it), whose own type matches; its matching ids are left in {@code m}. 0 when none. When
     * {@code inherit} is not 0 (a plain Inherit id, R not IsA), each entity visited is also tested
     * for that id inherited through IsA, after the entities above it (Flecs v4 Queries manual:
     * "the entities visited while traversing will still be tested for inherited components";
     * Flecs' search order, flecs_type_search_relation); the base that owns it is returned.
     */
    private long nearest(long e, int rel, boolean pair, long f, long sec, boolean anyF, boolean anyS, long inherit,
                         LongArrayList m) {
        World world = ev.world;
        stack.clear();
        visited.clear();
        pushTargets(world, e, rel);
        while (!stack.isEmpty()) {
            long a = stack.popLong();
            if ((a & AFTER_ABOVE) != 0) {
                long base = world.owner(a & ~AFTER_ABOVE, inherit);
                if (base != 0) {
                    m.add(inherit);
                    return base;
                }
                continue;
            }
            if (!visited.add(a)) {
                continue;
            }
            long[] type = SparseOps.typeOf(world, a);
            TypeMatch.match(type, pair, f, sec, anyF, anyS, ev.toggled, m);
            if (!m.isEmpty()) {
                return a;
            }
            if (inherit != 0) {
                stack.add(a | AFTER_ABOVE);
            }
            pushTargets(world, a, rel);
        }
        return 0;
    }

    /** Marks a stack entry "test inheritance now that the entities above were searched" (entity ids never set bit 63). */
    private static final long AFTER_ABOVE = Long.MIN_VALUE;

    /** The term's fixed plain id when it is (OnInstantiate, Inherit) and R is not IsA, else 0. */
    private long inheritable(ResolvedTerm t) {
        if (t.second() != null || t.first().kind() != Operand.Kind.CONST
                || t.up().relationship() == Builtin.IS_A) {
            return 0;
        }
        long x = t.first().entity();
        return ev.world.isAlive(x) && ev.world.onInstantiate(x) == OnInstantiate.INHERIT ? x : 0;
    }

    /** Pushes the targets of e's (rel, *) pairs so that the first in type order is popped first. */
    private void pushTargets(World world, long e, int rel) {
        long[] type = SparseOps.typeOf(world, e);
        int start = Types.pairsStart(type, rel);
        int end = start;
        while (Types.isPairOf(type, end, rel)) {
            end++;
        }
        for (int k = end - 1; k >= start; k--) {
            long target = world.entityOfIndex(Ids.second(type[k]));
            if (target != 0 && world.isAlive(target)) {
                stack.add(target);
            }
        }
    }

    /** The term's id with every element not fixed now replaced by {@code *} (as for SELECT). */
    private long pattern(ResolvedTerm t) {
        long f = ev.value(t.first());
        if (t.second() == null) {
            return f != 0 ? f : Ids.WILDCARD;
        }
        long sec = ev.value(t.second());
        return Ids.pairOfIndices(f != 0 ? Ids.index(f) : Ids.WILDCARD_INDEX,
            sec != 0 ? Ids.index(sec) : Ids.WILDCARD_INDEX);
    }
}
