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
 * <ul>
 *   <li><b>Pair substitution</b> (Flecs v4 component inheritance on the relationship: its query
 *       compiler replaces a first element that has IsA subsets with a variable ranging over
 *       {@code (IsA, R)}, self included, flecs_query_insert_inheritance). A pair term
 *       {@code (R, T)} with a fixed relationship R that has IsA subsets ({@code Loves IsA Likes})
 *       also matches {@code (Loves, T)}; T may be fixed, {@code *}, {@code _} or a variable, and
 *       the field reports the pair held. {@code R|self} turns it off. Inherited pairs
 *       ({@link #pairs}) follow: the Inherit pairs of R and its subsets seen through IsA bases.</li>
 * </ul>
 * Both combine: an Inherit X with IsA subsets D in use matches, per id of X and the D, the
 * source's own id, else (for X, and for a D that is Inherit itself) the nearest IsA base owning
 * it: the ids {@code World.has} sees, one row each.
 * Still refused with {@link UnsupportedQueryException}, instead of a short answer: pair
 * substitution on a Transitive relationship or with a traversal written on the source.
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
        return new ResolvedTerm.Inherit(derived, self, up, false);
    }

    /** True when every list still holds the subsets its id has now ({@link Plan#current}). */
    static boolean current(World world, java.util.List<Plan.SubsetList> lists) {
        for (Plan.SubsetList l : lists) {
            if (!java.util.Arrays.equals(l.ids(), l.inUse() ? derived(world, l.id()) : subsets(world, l.id()))) {
                return false;
            }
        }
        return true;
    }

    /** The ids in use that are transitive IsA subsets of {@code x} (not {@code x} itself), in id order. */
    static long[] derived(World world, long x) {
        return java.util.Arrays.stream(subsets(world, x)).filter(d -> !world.tableAccess().tables(d).isEmpty()).toArray();
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
        if (Ids.isPair(r) || !world.isAlive(r) || !inheritable(world, r)) {
            return ResolvedTerm.Inherit.NONE;
        }
        return ResolvedTerm.Inherit.PAIRS;
    }

    /**
     * Pair substitution for a pair term whose relationship is the fixed plain id {@code r}:
     * {@code inherit} widened with R's transitive IsA subsets (every alive one, in use or not, so
     * a cached query does not depend on which relationships hold pairs), and with the inherited
     * pairs ({@link #pairs}) looked up when R or a subset is {@code (OnInstantiate, Inherit)}.
     * Unchanged when R has no IsA subset.
     *
     * @param inherit    what {@link #pairs} decided for R alone
     * @param transitive the term is evaluated over R's transitive closure
     * @param anySource  the source is {@code _}
     * @throws UnsupportedQueryException when R has IsA subsets and the term is transitive or has a
     *         traversal written on its source
     */
    static ResolvedTerm.Inherit substitute(World world, ResolvedTerm.Inherit inherit, long r, Traversal tr,
                                           boolean transitive, boolean anySource, String text, int column) {
        long[] subs = subsets(world, r);
        if (subs.length == 0) {
            return inherit;
        }
        if (transitive) {
            throw refuse(world, text, column, "pair substitution on transitive relationship " + world.idToString(r)
                + ", which has IsA subset " + world.idToString(subs[0]));
        }
        if (!tr.isNone()) {
            throw refuse(world, text, column, "pair substitution with a traversal on the source: "
                + world.idToString(subs[0]) + " IsA " + world.idToString(r));
        }
        boolean up = !anySource && inheritable(world, r);
        for (long d : subs) {
            up |= !anySource && inheritable(world, d);
        }
        return new ResolvedTerm.Inherit(subs, true, up, true);
    }

    private static boolean inheritable(World world, long r) {
        return world.onInstantiate(Ids.pairOfIndices(Ids.index(r), Ids.WILDCARD_INDEX)) == OnInstantiate.INHERIT;
    }

    /** Every alive transitive IsA subset of {@code r} (not {@code r} itself), in id order. */
    static long[] subsets(World world, long r) {
        var out = new LongArrayList();
        if (!world.isAlive(r) || world.tableAccess().tables(Ids.pairOfIndices(IS_A, Ids.index(r))).isEmpty()) {
            return out.toLongArray();
        }
        var seen = new IntOpenHashSet();
        var queue = new IntArrayList();
        seen.add(Ids.index(r));
        queue.add(Ids.index(r));
        for (int q = 0; q < queue.size(); q++) {
            world.tableAccess().forEachSourceIndex(Builtin.IS_A, queue.getInt(q), s -> {
                if (seen.add(s)) {
                    queue.add(s);
                }
            });
        }
        for (int q = 1; q < queue.size(); q++) {
            long d = world.entityOfIndex(queue.getInt(q));
            if (d != 0) {
                out.add(d);
            }
        }
        out.sort(null);
        return out.toLongArray();
    }

    private static UnsupportedQueryException refuse(World world, String text, int column, String why) {
        return new UnsupportedQueryException("IsA inheritance in '" + text + "' (" + why + ")", text, column);
    }
}
