package dev.quiver.query;

import dev.quiver.error.BadInputException;
import dev.quiver.index.Ids;
import dev.quiver.storage.Builtin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Upward traversal of a term's source: {@code up R}, {@code self|up R}, the ChildOf default, the
 * aliases, Not/Optional/Or with traversal, fixed sources, several targets (depth-first), cycles,
 * up IsA over Inherit components, and each validation error (FEATURES.md QL-15, QL-16,
 * QS-40..QS-46; conformance world 08 and NOTES K6, K13).
 */
class UpTraversalTest extends QueryTestSupport {

    /** Conformance world 08 (tags for the components: values do not matter here). */
    private void house() {
        with("house", "Transform", "Light");
        with("house.kitchen", "Room", "Transform");
        with("house.kitchen.lamp", "Lamp", "Light");
        with("house.bedroom", "Room", "Transform");
        with("house.bedroom.closet", "Room");
        with("garden", "Outdoor");
        with("garden.shed", "Room", "Transform");
        with("house.attic", "Room");
    }

    @Test
    void upFollowsChildOfByDefaultAndReportsTheNearestOwner() {
        house();
        java.util.List<String> expected = list("house.attic | - | Transform@house", "house.bedroom | - | Transform@house",
            "house.bedroom.closet | - | Transform@house.bedroom", "house.kitchen | - | Transform@house",
            "house.kitchen.lamp | - | Transform@house.kitchen");
        assertEquals(expected, rows("Transform(up ChildOf)"));
        assertEquals(expected, rows("Transform(up)"));
        assertEquals(expected, rows("Transform(parent)"));
        assertEquals(expected, rows("Transform(up(ChildOf))"));
        assertEquals(expected, rows("Transform($this|up)"));
        assertEquals(list("house.bedroom | - | Transform Transform@house", "house.kitchen | - | Transform Transform@house"),
            rows("Transform, Transform(up)"));
    }

    @Test
    void selfUpTriesTheSourceFirst() {
        house();
        assertEquals(list("house | - | Light", "house.attic | - | Light@house", "house.bedroom | - | Light@house",
            "house.bedroom.closet | - | Light@house", "house.kitchen | - | Light@house",
            "house.kitchen.lamp | - | Light"), rows("Light(self|up)"));
        assertEquals(list("house.attic | - | Room Light@house", "house.bedroom | - | Room Light@house",
            "house.bedroom.closet | - | Room Light@house", "house.kitchen | - | Room Light@house"),
            rows("Room, Light(self|up ChildOf)"));
    }

    @Test
    void notAndOptionalWithTraversal() {
        house();
        assertEquals(list("house.attic | - | Room Light@house -", "house.bedroom | - | Room Light@house -",
            "house.bedroom.closet | - | Room Light@house -", "house.kitchen | - | Room Light@house -"),
            rows("Room, Light(up), !Light(self)"));
        assertEquals(list("garden.shed | - | Room -"), rows("Room, !Light(up)"));
        assertEquals(list("garden.shed | - | Transform -", "house | - | Transform -",
            "house.bedroom | - | Transform Transform@house", "house.kitchen | - | Transform Transform@house"),
            rows("Transform, ?Transform(up)"));
        assertEquals(list("house.kitchen.lamp | - | Lamp -"), rows("Lamp, !Outdoor(up)"));
        assertEquals(list(), rows("Room, !Transform(self|up)"));
    }

    @Test
    void orChainsWithTraversal() {
        house();
        assertEquals(list("garden.shed | - | Room Outdoor@garden", "house.attic | - | Room Light@house",
            "house.bedroom | - | Room Light@house", "house.bedroom.closet | - | Room Light@house",
            "house.kitchen | - | Room Light@house"), rows("Room, Light(up) || Outdoor(up)"));
        assertEquals(list("garden.shed | - | Outdoor@garden", "house.attic | - | Light@house",
            "house.bedroom | - | Light@house", "house.bedroom.closet | - | Light@house",
            "house.kitchen | - | Light@house", "house.kitchen.lamp | - | Light@house"),
            rows("Light(up) || Outdoor(up)"));
    }

    @Test
    void fixedSourcesWithTraversal() {
        house();
        assertEquals(list("- | - | Transform@house.kitchen"), rows("Transform(house.kitchen.lamp|up)"));
        assertEquals(list("- | - | Light@house.kitchen.lamp"), rows("Light(house.kitchen.lamp|self|up)"));
        assertEquals(list("- | - | Light@house"), rows("Light(house.kitchen.lamp|up)"));
        assertEquals(list(), rows("Transform(house|up)"));
        assertEquals(list("house.kitchen.lamp | - | Lamp Transform@house.kitchen"), rows("Lamp, Transform($this|up)"));
    }

    @Test
    void variableAndWildcardIdsBindFromTheNearestOwner() {
        with("root", "(Eats,Seeds)", "(Eats,Fish)");
        with("root.mid", "Position");
        with("root.mid.leaf", "Position");
        with("other", "(Eats,Grass)");
        with("other.kid");
        assertEquals(list("other.kid | $food=Grass | (Eats,Grass)@other",
            "root.mid | $food=Fish | (Eats,Fish)@root", "root.mid | $food=Seeds | (Eats,Seeds)@root",
            "root.mid.leaf | $food=Fish | (Eats,Fish)@root", "root.mid.leaf | $food=Seeds | (Eats,Seeds)@root"),
            rows("Eats($this|up, $food)"));
        assertEquals(list("root.mid | - | Position (Eats,Fish)@root", "root.mid | - | Position (Eats,Seeds)@root",
            "root.mid.leaf | - | Position (Eats,Fish)@root", "root.mid.leaf | - | Position (Eats,Seeds)@root"),
            rows("Position, Eats($this|up, *)"));
        assertEquals(list("root.mid.leaf | $c=Position | Position@root.mid"), rows("$c(up)"));
    }

    @Test
    void severalTargetsAreSearchedDepthFirstInTypeOrder() {
        w.add(e("Near"), Builtin.TRAVERSABLE);
        long b = e("b"), c = e("c");
        with("d", "T");
        with("c", "T");
        w.add(b, pair("Near", "d"));
        w.add(e("a"), pair("Near", "b"));
        w.add(e("a"), pair("Near", "c"));
        assertTrue(Ids.index(b) < Ids.index(c));
        // a's first target b is followed up to d before its second target c is tried
        assertEquals(list("a | - | T@d", "b | - | T@d"), rows("T(up Near)"));
        assertEquals(list("a | - | T@d", "b | - | T@d", "c | - | T", "d | - | T"), rows("T(self|up Near)"));
    }

    @Test
    void cyclesTerminate() {
        w.add(e("Loop"), Builtin.TRAVERSABLE);
        w.add(e("a"), pair("Loop", "b"));
        w.add(e("b"), pair("Loop", "a"));
        with("c", "U");
        w.add(e("c"), pair("Loop", "c"));
        with("b", "T");
        // b reaches itself through a: T is found one or more steps up from b
        assertEquals(list("a | - | T@b", "b | - | T"), rows("T(up Loop)"));
        assertEquals(list("c | - | U"), rows("U(up Loop)"));
        with("x", "V");
        assertEquals(0, count("V(up Loop)"));
    }

    @Test
    void transitiveRelationshipsAreTraversable() {
        transitive("LocatedIn");
        with("Earth", "Planet");
        w.add(e("Europe"), pair("LocatedIn", "Earth"));
        w.add(e("Paris"), pair("LocatedIn", "Europe"));
        assertEquals(list("Europe | - | Planet@Earth", "Paris | - | Planet@Earth"), rows("Planet(up LocatedIn)"));
    }

    @Test
    void upIsAReadsInheritableComponentsFromTheBases() {
        long speed = e("Speed");
        w.add(speed, Ids.pair(Builtin.ON_INSTANTIATE, Builtin.INHERIT));
        with("Monster", "Speed");
        with("Minion", "Speed");
        w.add(e("Minion"), Builtin.PREFAB);
        w.add(e("orc"), pair("IsA", "Monster"));
        w.add(e("ElderDragon"), pair("IsA", "Monster"));
        w.add(e("ancient"), pair("IsA", "ElderDragon"));
        w.add(e("imp"), pair("IsA", "Minion"));
        assertEquals(list("ElderDragon | - | Speed@Monster", "ancient | - | Speed@Monster", "imp | - | Speed@Minion",
            "orc | - | Speed@Monster"), rows("Speed(up IsA)"));
        assertEquals(list("- | - | Speed@Monster"), rows("Speed(ancient|up IsA)"));
    }

    @Test
    void planNamesTheTraversal() {
        house();
        assertEquals("0: UP_SELECT Transform($this|up ChildOf) field=0 binds=$this\n",
            Query.parse(w, "Transform(up)").plan());
        assertEquals("0: SELECT Room($this) field=0 binds=$this per-table\n"
            + "1: UP_WITH Light($this|self|up ChildOf) field=1\n",
            Query.parse(w, "Room, Light(self|up)").plan());
    }

    // ------------------------------------------------------------------ bad input

    private void errorsWorld() {
        house();
        with("Monster", "Health");
        w.add(e("orc"), pair("IsA", "Monster"));
        w.add(e("Speed"), Ids.pair(Builtin.ON_INSTANTIATE, Builtin.INHERIT));
        with("Monster", "Speed");
        transitive("LocatedIn");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "`Transform(up Room)`          | `cannot traverse non-traversable relationship 'Room' in 'Transform($this|up Room)' at column 14` | Room | 14",
        "`Transform(self|up(Lamp))`    | `cannot traverse non-traversable relationship 'Lamp' in 'Transform($this|self|up Lamp)' at column 19` | Lamp | 19",
        "`Health(up IsA)`              | `IsA traversal not allowed for 'Health' because the component doesn't have the (OnInstantiate, Inherit) trait in 'Health($this|up IsA)' at column 11` | Health | 11",
        "`Transform(desc)`             | `desc modifier invalid without cascade in 'Transform($this|desc)' at column 11` | desc | 11",
        "`Transform(up|desc)`          | `desc modifier invalid without cascade in 'Transform($this|up|desc)' at column 11` | desc | 11",
        "`Transform, Transform(cascade)` | `cascade orders results by depth, which needs a cached query (CachedQuery, quiver query --cached); Flecs v4 refuses it the same way on an uncached query, in 'Transform($this|cascade)' at column 22` | cascade | 22",
        "`Transform(cascade|desc)`     | `cascade orders results by depth, which needs a cached query (CachedQuery, quiver query --cached); Flecs v4 refuses it the same way on an uncached query, in 'Transform($this|cascade|desc)' at column 11` | cascade | 11",
    })
    void validationErrorsNameTheTermAndColumn(String query, String message, String token, int column) {
        errorsWorld();
        QueryValidationException ex = assertThrows(QueryValidationException.class, () -> Query.parse(w, query));
        assertEquals(message, ex.getMessage());
        assertEquals(token, ex.token());
        assertEquals(column, ex.column());
        assertInstanceOf(BadInputException.class, ex);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "`Transform(_|up)`                | `unsupported: traversal 'up' with source '_' at column 11`",
        "`LocatedIn($this|up, house)`     | `unsupported: traversal 'up' on a term of transitive relationship 'LocatedIn' at column 17`",
        "`$c(up IsA)`                     | `unsupported: traversal 'up IsA' with a variable or wildcard id at column 1`",
        "`Transform(up Ghost)`            | ``",
    })
    void unsupportedTraversals(String query, String message) {
        errorsWorld();
        if (message == null || message.isEmpty()) {
            UnknownQueryNameException ex = assertThrows(UnknownQueryNameException.class, () -> Query.parse(w, query));
            assertEquals("unknown name 'Ghost' at column 14", ex.getMessage());
            return;
        }
        UnsupportedQueryException ex = assertThrows(UnsupportedQueryException.class, () -> Query.parse(w, query));
        assertEquals(message, ex.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "`Transform(up|)`              | `expected a traversal flag (self, up, cascade, desc) at column 14, found ')'` | 14",
        "`Transform($this|sideways)`   | `unknown traversal flag 'sideways' at column 17` | 17",
        "`Transform(self|up|)`         | `expected a traversal flag (self, up, cascade, desc) at column 19, found ')'` | 19",
        "`Transform(up ChildOf IsA)`   | `unexpected 'IsA' at column 22` | 22",
    })
    void malformedTraversalFlags(String query, String message, int column) {
        errorsWorld();
        QuerySyntaxException ex = assertThrows(QuerySyntaxException.class, () -> Query.parse(w, query));
        assertEquals(message, ex.getMessage());
        assertEquals(column, ex.column());
    }

    @Test
    void refusedTraversalFlagsOnTheSourceAndOnTargets() {
        errorsWorld();
        assertEquals("unsupported: traversal 'down' at column 11",
            assertThrows(UnsupportedQueryException.class, () -> Query.parse(w, "Transform(down)")).getMessage());
        assertEquals("unsupported: traversal 'up' on a term target at column 19",
            assertThrows(UnsupportedQueryException.class, () -> Query.parse(w, "(LocatedIn, house|up)")).getMessage());
    }

    /** Once refused: up IsA on an Inherit id that also has IsA subsets in use is answered per id. */
    @Test
    void upIsAWithComponentInheritanceIsAnswered() {
        errorsWorld();
        with("Walker", "(IsA,Speed)");
        with("rover", "Walker");
        assertEquals(list("orc | - | Speed@Monster"), rows("Speed(up IsA)"));
        assertEquals(list("Monster | - | Speed", "orc | - | Speed@Monster", "rover | - | Walker"), rows("Speed"));
    }
}
