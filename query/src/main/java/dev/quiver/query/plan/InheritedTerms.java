package dev.quiver.query.plan;

import dev.quiver.index.Ids;
import dev.quiver.query.UnsupportedQueryException;
import dev.quiver.query.parse.Traversal;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.OnInstantiate;
import dev.quiver.storage.World;
import dev.quiver.storage.table.Table;
import dev.quiver.storage.table.Types;
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
 * Still refused with {@link UnsupportedQueryException}, instead of a short answer: a pair or
 * wildcard term when an IsA base owns a matching Inherit id, and an Inherit id that also has IsA
 * subsets in use. IsA and ChildOf pair terms are answered by the transitive engine and ChildOf is
 * DontInherit, so they pass.
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
        return new ResolvedTerm.Inherit(derived, self, up);
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
     * Refuses a pair or wildcard term whose answer IsA inheritance would change: an IsA base owns
     * a matching id that is Inherit.
     *
     * @param id the term's id: a pair whose elements may be wildcards
     * @throws UnsupportedQueryException when a base owns a matching Inherit id
     */
    static void checkPattern(World world, long id, String text, int column) {
        if (Ids.isPair(id) && (Ids.first(id) == IS_A || Ids.first(id) == Ids.index(Builtin.CHILD_OF))) {
            return;
        }
        for (Table t : world.tables(Ids.pairOfIndices(IS_A, Ids.WILDCARD_INDEX))) {
            if (t.count() == 0) {
                continue;
            }
            long[] type = t.type();
            for (int k = Types.pairsStart(type, IS_A); Types.isPairOf(type, k, IS_A); k++) {
                long base = world.entityOfIndex(Ids.second(type[k]));
                if (base == 0) {
                    continue;
                }
                for (long have : world.type(base)) { // the logical type: sparse pairs too
                    if (Types.matches(id, have) && world.onInstantiate(have) == OnInstantiate.INHERIT) {
                        throw refuse(world, text, column, "base " + world.idToString(base) + " has the Inherit id "
                                + world.idToString(have) + " and " + world.idToString(t.entity(0)) + " inherits from it");
                    }
                }
            }
        }
    }

    private static UnsupportedQueryException refuse(World world, String text, int column, String why) {
        return new UnsupportedQueryException("IsA inheritance in '" + text + "' (" + why + ")", text, column);
    }
}
