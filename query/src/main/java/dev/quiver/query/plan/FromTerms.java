package dev.quiver.query.plan;

import dev.quiver.index.Ids;
import dev.quiver.query.parse.Term;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.OnInstantiate;
import dev.quiver.storage.World;
import it.unimi.dsi.fastutil.longs.LongArrayList;

import java.util.Arrays;
import java.util.List;

/**
 * The *From operators {@code and | E}, {@code or | E} and {@code not | E} (Flecs v4 AndFrom, OrFrom,
 * NotFrom; FEATURES.md QL-13, QS-24; Flecs Queries manual, "AndFrom, OrFrom, NotFrom Operators"):
 * the ids of E are matched as if they were written as a list of And terms, one Or chain, or a list
 * of Not terms on the term's source.
 *
 * <ul>
 *   <li><b>Which ids.</b> E's own ids, in type order, leaving out those whose OnInstantiate policy is
 *       DontInherit ({@link World#onInstantiate}): Prefab, ChildOf and IsA pairs, every builtin and
 *       trait, and user ids with {@code (OnInstantiate, DontInherit)}. A name is not an id in
 *       Quiver, so it never appears. So a prefab can stand for its component list.</li>
 *   <li><b>How each id matches.</b> Exactly, on the source's own type, as Flecs' {@code x_from}
 *       instructions test it: no transitive closure, no IsA inheritance, no component
 *       inheritance.</li>
 *   <li><b>E without such ids</b> follows the manual's "as if they were provided as a list of
 *       terms": {@code and | E} constrains nothing (every entity matches), {@code or | E} matches
 *       nothing, {@code not | E} constrains nothing. Flecs v4.1.6 instead matches nothing in all
 *       three cases (its {@code flecs_query_x_from} returns false when there is no id to filter
 *       on).</li>
 *   <li><b>The field</b> has no data (access {@code none}): for And and Or it is set with id E and
 *       the source; for Not it is never set.</li>
 *   <li><b>When E changes.</b> The ids are read when the query is planned and the plan keeps them
 *       ({@link Plan#fromLists()}); {@link Plan#fromListsCurrent(World)} tells when E's ids have
 *       changed since, and {@code Query} then plans again, so that a query keeps following E
 *       (FEATURES.md QS-24, "read E's id list when the query is evaluated"). A deleted E matches
 *       nothing, like any deleted constant of a query.</li>
 * </ul>
 */
final class FromTerms {
    private FromTerms() {}

    /**
     * The ids of E that a *From term holds: E's own ids, in type order, without its DontInherit
     * ids; empty when E is not alive.
     */
    static long[] ids(World world, long e) {
        if (!world.isAlive(e)) {
            return new long[0];
        }
        LongArrayList out = new LongArrayList();
        for (long id : world.type(e)) { // the logical type: sparse pairs, never their marker
            int c = Ids.isPair(id) ? Ids.first(id) : Ids.index(id); // builtins (IsA pairs included: they are Inherit) never count
            if (c >= Builtin.FIRST_USER_INDEX && world.onInstantiate(id) != OnInstantiate.DONT_INHERIT) {
                out.add(id);
            }
        }
        return out.toLongArray();
    }

    /**
     * One id of E as an exact own-id term on {@code source}: a plain id or a pair of constants,
     * not transitive, not widened by IsA.
     *
     * @param from the written *From term (for messages and columns)
     */
    static ResolvedTerm term(World world, Term from, long id, Operand source) {
        if (!Ids.isPair(id)) {
            return new ResolvedTerm(from, constant(world, id), null, source, null, null, false, false, false);
        }
        long r = world.entityOfIndex(Ids.first(id));
        long t = world.entityOfIndex(Ids.second(id));
        return new ResolvedTerm(from, constant(world, r), constant(world, t), source, null, null, false, false, false);
    }

    private static Operand constant(World world, long e) {
        return Operand.constant(e, world.idToString(e), false);
    }

    /** True when every list still holds E's ids (or E is deleted). */
    static boolean current(World world, List<Plan.FromList> lists) {
        for (Plan.FromList l : lists) {
            if (world.isAlive(l.entity()) && !Arrays.equals(l.ids(), ids(world, l.entity()))) {
                return false;
            }
        }
        return true;
    }
}
