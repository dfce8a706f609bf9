package dev.quiver.query.plan;

import dev.quiver.index.Ids;
import dev.quiver.query.QueryValidationException;
import dev.quiver.query.UnknownQueryNameException;
import dev.quiver.query.UnsupportedQueryException;
import dev.quiver.query.parse.Term;
import dev.quiver.query.parse.TermRef;
import dev.quiver.query.parse.Traversal;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.World;
import dev.quiver.storage.table.Table;

/**
 * Validates the traversal flags of a term's source and turns them into an {@link Up}, with the
 * checks Flecs v4 makes when it creates a query ({@code flecs_term_finalize} and
 * {@code flecs_term_verify} in src/query/validator.c):
 * <ul>
 *   <li>{@code desc} needs {@code cascade} ("desc modifier invalid without cascade");</li>
 *   <li>{@code cascade} (and so {@code cascade|desc}) orders results by depth, which Flecs allows
 *       only on cached queries ("cannot create uncached query with group_by/order_by/change
 *       detection", conformance NOTES K13): refused here, accepted by
 *       {@code dev.quiver.query.cache.CachedQuery};</li>
 *   <li>{@code up} without a relationship follows ChildOf;</li>
 *   <li>the relationship must be Traversable ("cannot traverse non-traversable relationship",
 *       NOTES K13); ChildOf and IsA are, and Transitive implies Traversable in Flecs;</li>
 *   <li>{@code up IsA} needs a component with {@code (OnInstantiate, Inherit)} ("IsA traversal
 *       not allowed ... doesn't have the (OnInstantiate, Inherit) trait", NOTES K6).</li>
 * </ul>
 * Flecs does not block DontInherit ids from {@code up ChildOf} (only the IsA check above), and
 * neither does Quiver.
 */
final class UpRules {
    private UpRules() {}

    /**
     * The traversal of a term's source, or null when the source has no {@code up}.
     *
     * @param world the world
     * @param term the parsed term (for messages)
     * @param src the term's source as resolved (its traversal may have been taken over by IsA inheritance)
     * @param first the resolved first element
     * @return the traversal, or null for no flags or {@code self} alone
     * @throws UnknownQueryNameException when the relationship does not exist
     * @throws QueryValidationException on a combination Flecs refuses (see the class comment)
     * @throws UnsupportedQueryException for up with a {@code _} source, on a transitive pair term,
     *     or {@code up IsA} with a variable or wildcard id
     */
    static Up of(World world, Term term, TermRef src, Operand first, boolean transitivePair) {
        Traversal tr = src.traversal();
        long rel = Builtin.CHILD_OF;
        String relText = "ChildOf";
        int relColumn = tr.column();
        if (tr.relationship() != null) {
            relText = tr.relationship().name();
            relColumn = tr.relationship().column();
            rel = world.lookup(relText);
            if (rel == 0) {
                throw new UnknownQueryNameException(relText, relColumn);
            }
        }
        if (tr.isNone() || tr.selfOnly()) {
            return null;
        }
        if (tr.desc() && !tr.cascade()) {
            throw new QueryValidationException("desc modifier invalid without cascade in '" + term + "' at column "
                + tr.column(), "desc", tr.column());
        }
        if (tr.cascade()) {
            throw new QueryValidationException("cascade orders results by depth, which needs a cached query"
                + " (CachedQuery, quiver query --cached); Flecs v4 refuses it the same way on an uncached query, in '"
                + term + "' at column "
                + tr.column(), "cascade", tr.column());
        }
        if (src.kind() == TermRef.Kind.ANY) {
            throw new UnsupportedQueryException("traversal 'up' with source '_'", "_", src.column());
        }
        if (!traversable(world, rel)) {
            throw new QueryValidationException("cannot traverse non-traversable relationship '" + relText + "' in '"
                + term + "' at column " + relColumn, relText, relColumn);
        }
        if (transitivePair) {
            throw new UnsupportedQueryException("traversal 'up' on a term of transitive relationship '"
                + first.text() + "'", tr.toString(), tr.column());
        }
        if (rel == Builtin.IS_A) {
            if (first.kind() != Operand.Kind.CONST) {
                throw new UnsupportedQueryException("traversal 'up IsA' with a variable or wildcard id",
                    first.text(), term.first().column());
            }
            long component = Ids.isPair(first.entity()) ? 0 : first.entity();
            if (component == 0 || !inheritable(world, component)) {
                throw notInheritable(first.text(), term.toString(), relColumn);
            }
        }
        return new Up(rel, relText, tr.self());
    }

    /** Traversable, or Transitive (which implies Traversable in Flecs v4). */
    static boolean traversable(World world, long rel) {
        return !Ids.isPair(rel) && world.isAlive(rel)
            && (world.has(rel, Builtin.TRAVERSABLE) || world.has(rel, Builtin.TRANSITIVE));
    }

    /**
     * Flecs v4's refusal of {@code up IsA} on an id without {@code (OnInstantiate, Inherit)} (its
     * validator's wording, NOTES K6); {@code column} is the relationship's.
     */
    static QueryValidationException notInheritable(String id, String term, int column) {
        return new QueryValidationException("IsA traversal not allowed for '" + id + "' because the component"
            + " doesn't have the (OnInstantiate, Inherit) trait in '" + term + "' at column " + column, id, column);
    }

    /** The component has {@code (OnInstantiate, Inherit)}. */
    static boolean inheritable(World world, long component) {
        return world.isAlive(component) && world.has(component, Ids.pair(Builtin.ON_INSTANTIATE, Builtin.INHERIT));
    }

}
