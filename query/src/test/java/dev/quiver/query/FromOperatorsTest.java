package dev.quiver.query;

import dev.quiver.query.parse.InOut;
import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The *From operators {@code and | E}, {@code or | E}, {@code not | E} (FEATURES.md QL-13, QS-24;
 * Flecs Queries manual "AndFrom, OrFrom, NotFrom Operators"): E's own ids as And terms, one Or
 * chain, or Not terms, DontInherit ids left out, the field set to E without data.
 */
class FromOperatorsTest extends QueryTestSupport {

    /** Prefabs standing for component lists; recipes.Brunch is a child of recipes. */
    private void kitchen() {
        with("recipes", "Cookbook");
        with("Ingredients", "Prefab", "Bacon", "Eggs");
        with("recipes.Brunch", "Prefab", "Bacon", "Toast");
        with("Greens", "Prefab", "Lettuce", "Tomato");
        with("blt", "Bacon", "Eggs", "Lettuce", "Tomato");
        with("breakfast", "Bacon", "Eggs", "Toast");
        with("omelette", "Eggs");
        with("salad", "Lettuce");
        with("bread", "Toast");
    }

    @Test
    void andFromNeedsEveryIdOfE() {
        kitchen();
        assertEquals(list("blt | - | Ingredients", "breakfast | - | Ingredients"), rows("and | Ingredients"));
        assertEquals(list("breakfast | - | Toast Ingredients"), rows("Toast, and | Ingredients"));
        assertEquals(list("blt"), these("and | Ingredients, and | Greens"));
        // the upper-case spelling of the seed 001 (QL-13)
        assertEquals(list("blt", "breakfast"), these("AND | Ingredients"));
    }

    @Test
    void orFromNeedsOneIdOfEOneResultPerEntity() {
        kitchen();
        assertEquals(list("blt | - | Ingredients", "breakfast | - | Ingredients", "omelette | - | Ingredients"),
            rows("or | Ingredients"));
        assertEquals(list("blt", "salad"), these("OR | Greens"));
        assertEquals(list("breakfast | - | Toast Ingredients"), rows("Toast, or | Ingredients"));
    }

    @Test
    void notFromRefusesEveryIdOfEAndLeavesTheFieldUnset() {
        kitchen();
        assertEquals(list("bread | - | Toast -"), rows("Toast, not | Ingredients"));
        assertEquals(list("breakfast | - | Eggs -", "omelette | - | Eggs -"), rows("Eggs, not | Greens"));
        assertEquals(list("bread", "omelette"), these("Toast || Eggs, not | Greens, !Bacon"));
        // alone, it runs over every entity (FEATURES.md QS-49), the prefabs and their children excluded
        List<String> all = these("not | Ingredients");
        assertTrue(all.contains("salad") && all.contains("bread") && all.contains("recipes"), all.toString());
        assertTrue(!all.contains("blt") && !all.contains("omelette") && !all.contains("Ingredients"), all.toString());
    }

    @Test
    void dontInheritIdsOfEAreLeftOut() {
        kitchen();
        // Brunch is a Prefab and a child of recipes: neither Prefab nor (ChildOf, recipes) is matched
        assertEquals(list("breakfast | - | recipes.Brunch"), rows("and | recipes.Brunch"));
        assertEquals(2, count("and | Ingredients"));
        long secret = with("Secret");
        w.add(secret, pair("OnInstantiate", "DontInherit"));
        w.add(e("Ingredients"), secret);
        assertEquals(2, count("and | Ingredients"));
        long shared = with("Shared");
        w.add(shared, pair("OnInstantiate", "Inherit"));
        w.add(e("Ingredients"), shared);
        assertEquals(0, count("and | Ingredients"));
        w.add(e("blt"), shared);
        assertEquals(list("blt"), these("and | Ingredients"));
    }

    @Test
    void eIdsMatchExactlyOwnIdsNoTransitiveClosureNorIsA() {
        transitive("LocatedIn");
        with("paris", "(LocatedIn,france)");
        with("france", "(LocatedIn,europe)");
        with("Place", "Prefab", "(LocatedIn,europe)");
        with("berlin", "(LocatedIn,europe)");
        assertEquals(list("berlin", "france"), these("and | Place"));
        // whereas the written term follows the transitive relationship
        assertEquals(list("berlin", "france", "paris"), these("(LocatedIn, europe)"));
        // an instance's Override copies of its base's ids are its own ids
        with("Base", "Prefab", "Wing");
        with("plane", "(IsA,Base)");
        assertEquals(list("plane"), these("and | Base"));
    }

    @Test
    void emptyEFollowsTheListOfTermsReading() {
        kitchen();
        with("Nothing", "Prefab");
        long all = count("Cookbook || Bacon || Eggs || Lettuce || Toast");
        assertEquals(all, count("Cookbook || Bacon || Eggs || Lettuce || Toast, and | Nothing"));
        assertEquals(0, count("Eggs, or | Nothing"));
        assertEquals(0, count("or | Nothing"));
        assertEquals(list("blt | - | Eggs -", "breakfast | - | Eggs -", "omelette | - | Eggs -"),
            rows("Eggs, not | Nothing"));
        assertEquals(list("omelette | - | Eggs Nothing -"), rows("Eggs, and | Nothing, !Bacon"));
    }

    @Test
    void aStoredQueryFollowsEWhenItChanges() {
        kitchen();
        Query q = Query.parse(w, "and | Ingredients");
        assertEquals(2, q.count());
        w.add(e("Ingredients"), e("Toast"));
        assertEquals(1, q.count());
        assertEquals(List.of("breakfast"), q.rows(-1).stream().map(r -> w.path(r.thisEntity())).toList());
        w.remove(e("Ingredients"), e("Bacon"));
        w.remove(e("Ingredients"), e("Toast"));
        assertEquals(3, q.count());
        // a deleted E matches nothing, like any deleted constant of a query
        Query not = Query.parse(w, "Eggs, not | Greens");
        assertEquals(2, not.count());
        w.delete(e("Greens"));
        assertEquals(0, not.count());
        assertEquals(3, q.count());
    }

    @Test
    void insideScopesAndWithVariables() {
        kitchen();
        assertEquals(list("bread", "omelette", "salad"), these("Eggs || Lettuce || Toast, !{ and | Ingredients }"));
        assertEquals(list("blt | $x=blt | Ingredients Bacon", "blt | $x=breakfast | Ingredients Bacon@breakfast",
            "breakfast | $x=blt | Ingredients Bacon@blt", "breakfast | $x=breakfast | Ingredients Bacon"),
            rows("and | Ingredients, Bacon($x)"));
    }

    @Test
    void theFieldHasNoDataAndOnlyNoneIsAllowed() {
        kitchen();
        Query q = Query.parse(w, "Eggs, and | Ingredients, or | Greens, not | Toast");
        assertEquals(InOut.NONE, q.fieldAccess(1));
        assertEquals(InOut.NONE, q.fieldAccess(2));
        assertEquals(InOut.NONE, q.fieldAccess(3));
        assertEquals(InOut.NONE, Query.parse(w, "[none] and | Ingredients").fieldAccess(0));
        for (String m : new String[] {"in", "out", "inout", "filter"}) {
            QueryValidationException ex = assertThrows(QueryValidationException.class,
                () -> Query.parse(w, "Eggs, [" + m + "] or | Greens"));
            assertEquals("invalid access modifier [" + m + "] on '[" + m + "] or | Greens': a *From term's field"
                + " never has data; only [none] is allowed, at column 7", ex.getMessage());
            assertEquals(7, ex.column());
            assertEquals("[" + m + "]", ex.token());
        }
    }

    @Test
    void eMustBeAFixedEntity() {
        kitchen();
        QueryValidationException v = assertThrows(QueryValidationException.class,
            () -> Query.parse(w, "Eggs, and | $x"));
        assertEquals("'and |' needs a fixed entity whose ids it matches, found '$x' in 'and | $x' at column 13",
            v.getMessage());
        assertEquals(13, v.column());
        assertThrows(QueryValidationException.class, () -> Query.parse(w, "or | *"));
        assertThrows(QueryValidationException.class, () -> Query.parse(w, "not | Greens|self"));
        UnknownQueryNameException u = assertThrows(UnknownQueryNameException.class,
            () -> Query.parse(w, "Eggs, not | Nowhere"));
        assertEquals(13, u.column());
    }

    @Test
    void componentsOfEAreMatchedWithoutTheirValues() {
        long pos = w.component("Position", Schema.of("x", FieldType.F64));
        with("Mover", "Prefab", "Speedy");
        w.set(e("Mover"), pos, java.util.Map.of("x", 1.0));
        with("car", "Speedy");
        w.set(e("car"), pos, java.util.Map.of("x", 5.0));
        with("cat", "Speedy");
        // E's component counts as an id; its value does not
        assertEquals(list("car | - | Mover"), rows("and | Mover"));
    }
}
