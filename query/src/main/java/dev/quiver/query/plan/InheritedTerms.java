package dev.quiver.query.plan;

import dev.quiver.index.Ids;
import dev.quiver.query.UnsupportedQueryException;
import dev.quiver.query.parse.Traversal;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.OnInstantiate;
import dev.quiver.storage.World;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import it.unimi.dsi.fastutil.longs.LongArrayList;

/**
 * How IsA inheritance widens a term (Flecs v4; FEATURES ISA-10, ISA-12, TRT-13), decided when the
 * query is created:
 * <ul>
 *   <li><b>Component inheritance.</b> A term for a fixed plain id X also matches holders of every id
 *       D with {@code (IsA, X)}, transitively (a query for {@code Unit} matches a {@code MeleeUnit});
 *       the field reports the id held, one row per matching id. {@code X|self} turns it off; a
 *       Final X has no subsets (IsA to it is refused).</li>
 *   <li><b>Inherited components.</b> A term for a fixed plain id X with
 *       {@code (OnInstantiate, Inherit)} matches {@code self|up IsA} by default: the source's own X,
 *       else the nearest IsA base that owns it (the field's source). {@code X(self)} is own ids
 *       only, {@code X(up IsA)} bases only. {@code up IsA} on an id that is not Inherit is refused,
 *       as Flecs refuses it. Override ids were copied onto instances and DontInherit ids never
 *       reach them, so terms on those need nothing.</li>
 * </ul>
 * <ul>
 *   <li><b>Inherited pairs.</b> A pair or wildcard term whose pattern may match Inherit pairs
 *       ({@link #pairs}) matches the source's own pairs and the matching Inherit pairs it sees
 *       through its IsA bases and does not own, each from the nearest base holding it: exactly the
 *       pairs {@code World.has} sees, whatever the order the terms bind variables in. Flecs tries
 *       the source's own pairs first and goes up only when none match, so with a variable or
 *       wildcard target its answer depends on what is bound; Quiver's does not. With a fixed pair
 *       both agree. {@code (IsA, Base|self)} thus returns the instances of Base's subtypes, reported
 *       {@code (IsA,Base)@Mid} (NOTES K5).</li>
 * </ul>
 * Still refused with {@link UnsupportedQueryException}, instead of a short answer: an Inherit id
 * that also has IsA subsets in use.
 */
final class InheritedTerms {
    private static final int IS_A = Ids.index(Builtin.IS_A);

    private InheritedTerms() {}

    /** True when the source traversal asks for {@code up IsA} (with or without {@code self}). */
    static boolean upIsA(World world, Traversal tr) {
        return tr.up() && !tr.cascade() && !tr.desc() && tr.relationship() != null
                && world.lookup(tr.relationship().name()) == Builtin.IS_A;
    }

    /**
     * The inheritance of a term on the fixed plain id {@code x}.
     *
     * @param tr     the traversal written on the term's source
     * @param selfId {@code |self} was written on the id (no component inheritance)
     * @throws dev.quiver.query.QueryValidationException for {@code up IsA} on an id that is not Inherit
     * @throws UnsupportedQueryException for an Inherit id with IsA subsets in use
     */
    static ResolvedTerm.Inherit plain(World world, long x, Traversal tr, boolean selfId, String text, int column) {
        boolean inherit = world.isAlive(x) && world.onInstantiate(x) == OnInstantiate.INHERIT;
        boolean self = true, up = false;
        if (upIsA(world, tr)) {
            if (!inherit) {
                throw UpRules.notInheritable(world.idToString(x), text,
                        tr.relationship() != null ? tr.relationship().column() : tr.column());
            }
            self = tr.self();
            up = true;
        } else if (tr.isNone()) {
            up = inherit;
        }
        long[] derived = selfId ? new long[0] : derived(world, x);
        if (derived.length > 0 && up) {
            throw refuse(world, text, column, world.idToString(x) + " is (OnInstantiate, Inherit) and "
                    + world.idToString(derived[0]) + " IsA " + world.idToString(x) + " is in use");
        }
        return new ResolvedTerm.Inherit(derived, self, up, false);
    }

    /** The ids in use that are transitive IsA subsets of {@code x} (not {@code x} itself). */
    static long[] derived(World world, long x) {
        var out = new LongArrayList();
        if (!world.isAlive(x) || world.tables(Ids.pairOfIndices(IS_A, Ids.index(x))).isEmpty()) {
            return out.toLongArray();
        }
        var seen = new IntOpenHashSet();
        var queue = new IntArrayList();
        seen.add(Ids.index(x));
        queue.add(Ids.index(x));
        for (int q = 0; q < queue.size(); q++) {
            world.forEachSourceIndex(Builtin.IS_A, queue.getInt(q), s -> {
                if (seen.add(s)) {
                    queue.add(s);
                }
            });
        }
        for (int q = 1; q < queue.size(); q++) {
            long d = world.entityOfIndex(queue.getInt(q));
            if (d != 0 && !world.tables(d).isEmpty()) {
                out.add(d);
            }
        }
        out.sort(null);
        return out.toLongArray();
    }

    /**
     * The inheritance of a pair or wildcard term (Flecs v4: a term whose id is
     * {@code (OnInstantiate, Inherit)} matches {@code self|up IsA} by default; pairs take their
     * relationship's policy, and IsA pairs are Inherit, conformance NOTES K5): {@link
     * ResolvedTerm.Inherit#PAIRS} when no traversal is written on the source, the term is not
     * evaluated over a transitive closure, the source is not {@code _}, and the relationship is a
     * variable or wildcard (it may stand for an Inherit relationship) or a constant whose pairs are
     * Inherit; else {@link ResolvedTerm.Inherit#NONE}. Decided from the traits, not from the data,
     * so a cached query stays right when a base gets a pair later.
     *
     * @param first the resolved relationship element
     */
    static ResolvedTerm.Inherit pairs(World world, Operand first, Traversal tr, boolean transitive, boolean anySource) {
        if (transitive || anySource || !tr.isNone()) {
            return ResolvedTerm.Inherit.NONE;
        }
        if (first.kind() != Operand.Kind.CONST) {
            return ResolvedTerm.Inherit.PAIRS;
        }
        long r = first.entity();
        if (Ids.isPair(r) || !world.isAlive(r)
                || world.onInstantiate(Ids.pairOfIndices(Ids.index(r), Ids.WILDCARD_INDEX)) != OnInstantiate.INHERIT) {
            return ResolvedTerm.Inherit.NONE;
        }
        return ResolvedTerm.Inherit.PAIRS;
    }

    private static UnsupportedQueryException refuse(World world, String text, int column, String why) {
        return new UnsupportedQueryException("IsA inheritance in '" + text + "' (" + why + ")", text, column);
    }
}
