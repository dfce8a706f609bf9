package dev.quiver.query;

import dev.quiver.query.cache.CachedQuery;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A query kept across writes (a held {@link Query}, a {@link CachedQuery}) answers as the same
 * query planned now when the data its plan read changes ({@link dev.quiver.query.plan.Plan#current}):
 * a component whose IsA subset comes into use (component inheritance matches only the subsets in
 * use), a relationship that gets an IsA subset (pair substitution). Found by
 * WholeLanguageModelTest with seed 758160: a cached {@code U1(self), ?(R4, *)} kept 7 rows of 9
 * after an entity got U2, a subset of U1 that no table held when the query was made.
 */
class PlanCurrencyTest extends QueryTestSupport {

    private List<String> paths(List<QueryRow> rows) {
        List<String> out = new ArrayList<>();
        for (QueryRow r : rows) {
            out.add(w.path(r.thisEntity()) + ":" + w.idToString(r.fieldId(0)));
        }
        out.sort(null);
        return out;
    }

    @Test
    void aSubsetComingIntoUseJoinsHeldAndCachedQueries() {
        with("U2", "(IsA, U1)");
        with("a", "U1");
        Query held = Query.parse(w, "U1(self)");
        try (CachedQuery cached = CachedQuery.parse(w, "U1(self)")) {
            assertEquals(List.of("a:U1"), paths(cached.rows(-1)));
            with("b", "U2"); // U2 in use only now: the plans above did not read it
            assertEquals(List.of("a:U1", "b:U2"), paths(held.rows(-1)));
            assertEquals(List.of("a:U1", "b:U2"), paths(cached.rows(-1)));
            assertEquals(2, cached.count());
            assertEquals(2, held.count());
            w.remove(e("b"), e("U2")); // the table of U2 stays: U2 counts as in use, b is just not in it
            assertEquals(List.of("a:U1"), paths(cached.rows(-1)));
        }
    }

    @Test
    void aSubsetMadeLaterJoinsTheCachedQuery() {
        with("a", "U1");
        e("R");
        try (CachedQuery cached = CachedQuery.parse(w, "U1, ?(R, *)")) {
            assertEquals(List.of("a:U1"), paths(cached.rows(-1)));
            with("U3", "(IsA, U1)");
            with("c", "U3", "(R, t)");
            assertEquals(paths(Query.parse(w, "U1, ?(R, *)").rows(-1)), paths(cached.rows(-1)));
            assertEquals(List.of("a:U1", "c:U3"), paths(cached.rows(-1)));
        }
    }

    @Test
    void aRelationshipSubsetMadeLaterJoinsThePairTerm() {
        with("x", "(Likes, t)");
        try (CachedQuery cached = CachedQuery.parse(w, "(Likes, t)")) {
            assertEquals(List.of("x:(Likes,t)"), paths(cached.rows(-1)));
            with("Loves", "(IsA, Likes)"); // Flecs v4 pair substitution: (Loves, t) matches (Likes, t)
            with("y", "(Loves, t)");
            assertEquals(List.of("x:(Likes,t)", "y:(Loves,t)"), paths(cached.rows(-1)));
            assertEquals(paths(Query.parse(w, "(Likes, t)").rows(-1)), paths(cached.rows(-1)));
        }
    }

    @Test
    void aMemberTermRefusedOnceTheComponentHasASubsetInUse() {
        long move = w.component("Move", Schema.of("value", FieldType.ENTITY));
        w.set(e("a"), move, Map.of("value", e("Left")));
        try (CachedQuery cached = CachedQuery.parse(w, "(Move.value, Left)")) {
            assertEquals(1, cached.count());
            with("Move3", "(IsA, Move)");
            with("b", "Move3");
            UnsupportedQueryException now = assertThrows(UnsupportedQueryException.class,
                () -> Query.parse(w, "(Move.value, Left)"));
            assertEquals(now.getMessage(), assertThrows(UnsupportedQueryException.class, cached::count).getMessage());
        }
    }

    @Test
    void anUnchangedPlanIsKept() {
        with("U2", "(IsA, U1)");
        with("b", "U2");
        Query held = Query.parse(w, "U1");
        with("c", "U2"); // U2 was in use already: nothing the plan read changed
        assertSame(held, held.refreshed());
        w.add(e("c"), Builtin.PREFAB);
        assertEquals(List.of("b:U2"), paths(held.rows(-1)));
    }
}
