package dev.quiver.query.plan;

import dev.quiver.index.Ids;
import dev.quiver.query.UnsupportedQueryException;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.World;
import dev.quiver.storage.table.Table;
import dev.quiver.storage.table.Types;

/**
 * Refuses a term whose answer would depend on IsA inheritance, which the engine does not evaluate
 * yet (issue 9), instead of answering it wrongly: Flecs v4 matches a term for {@code X} also on
 * <ul>
 *   <li>holders of an id {@code D} with {@code (IsA, X)} (component inheritance: a query for
 *       {@code Unit} matches a {@code MeleeUnit} when {@code MeleeUnit} IsA {@code Unit}), and</li>
 *   <li>instances of a base that owns {@code X} (an entity with {@code (IsA, base)}).</li>
 * </ul>
 * IsA pairs themselves are answered by the transitive engine, and ChildOf is DontInherit, so terms
 * on those relationships pass. A world without IsA pairs costs one component-index probe.
 */
final class InheritanceGuard {
    private InheritanceGuard() {}

    /**
     * @param world  the world the query runs on
     * @param id     the term's id (a plain id, or a pair whose elements may be wildcards)
     * @param text   the term, for the message
     * @param column the term's column
     * @throws UnsupportedQueryException when inheritance would change the term's answer
     */
    static void check(World world, long id, String text, int column) {
        int isA = Ids.index(Builtin.IS_A);
        if (Ids.isPair(id) && (Ids.first(id) == isA || Ids.first(id) == Ids.index(Builtin.CHILD_OF))) {
            return;
        }
        var withBases = world.tables(Ids.pairOfIndices(isA, Ids.WILDCARD_INDEX));
        if (withBases.isEmpty()) {
            return;
        }
        if (!Ids.isPair(id) && !Ids.isWildcard(id)) {
            // component inheritance: an id derived from this one is in use
            for (Table t : world.tables(Ids.pairOfIndices(isA, Ids.index(id)))) {
                for (int r = 0; r < t.count(); r++) {
                    long derived = t.entity(r);
                    if (!world.tables(derived).isEmpty()) {
                        throw refuse(world, text, column, world.idToString(derived) + " IsA " + world.idToString(id)
                                + " and is in use");
                    }
                }
            }
        }
        // instance inheritance: a base owns a matching id
        for (Table t : withBases) {
            if (t.count() == 0) {
                continue;
            }
            long[] type = t.type();
            for (int k = Types.pairsStart(type, isA); Types.isPairOf(type, k, isA); k++) {
                long base = world.entityOfIndex(Ids.second(type[k]));
                if (base != 0 && Types.hasMatch(world.table(base).type(), id)) {
                    throw refuse(world, text, column, "base " + world.idToString(base) + " has it and "
                            + world.idToString(t.entity(0)) + " inherits from it");
                }
            }
        }
    }

    private static UnsupportedQueryException refuse(World world, String text, int column, String why) {
        return new UnsupportedQueryException("IsA inheritance in '" + text + "' (" + why + ")", text, column);
    }
}
