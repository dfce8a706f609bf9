package dev.quiver.query;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Not, Optional, Or chains and Not scopes (FEATURES.md QS-07..QS-11, QS-21, A-21..A-23, conformance world 09). */
class OperatorsTest extends QueryTestSupport {

    private void animals() {
        with("duck", "Walks", "Swims", "Flies", "Position", "(Eats,Seeds)");
        with("penguin", "Walks", "Swims", "Position", "Velocity", "(Eats,Fish)");
        with("sparrow", "Flies", "Position", "Mass", "(Eats,Seeds)");
        with("shark", "Swims", "Position", "Velocity", "Mass", "(Eats,Fish)");
        with("cat", "Walks", "Mass");
        with("rock", "Position", "Mass");
    }

    @Test
    void notTerms() {
        animals();
        assertEquals(list("duck | - | Position -", "rock | - | Position -", "sparrow | - | Position -"),
            rows("Position, !Velocity"));
        assertEquals(list("rock | - | Position -"), rows("Position, !(Eats, *)"));
        assertEquals(list("rock"), these("Position, !(Eats, _)"));
        assertEquals(list("cat", "rock"), these("Mass, !(Eats, Fish), !(Eats, Seeds)"));
    }

    @Test
    void optionalTermsNeverRestrict() {
        animals();
        assertEquals(list("duck | - | Position -", "penguin | - | Position Velocity", "rock | - | Position -",
            "shark | - | Position Velocity", "sparrow | - | Position -"), rows("Position, ?Velocity"));
        assertEquals(list("duck | - | Position (Eats,Seeds)", "penguin | - | Position (Eats,Fish)",
            "rock | - | Position -", "shark | - | Position (Eats,Fish)", "sparrow | - | Position (Eats,Seeds)"),
            rows("Position, ?(Eats, *)"));
        assertEquals(list("cat | - | Walks - -", "penguin | - | Walks Position -"), rows("Walks, ?Position, !Flies"));
        assertEquals(list("cat | $food=* | Walks -", "duck | $food=Seeds | Walks (Eats,Seeds)",
            "penguin | $food=Fish | Walks (Eats,Fish)"), rows("Walks, ?(Eats, $food)"));
    }

    @Test
    void orChainsOneFieldFirstAlternativeWins() {
        animals();
        assertEquals(list("cat | - | Walks", "duck | - | Walks", "penguin | - | Walks", "sparrow | - | Flies"),
            rows("Walks || Flies"));
        assertEquals(list("penguin | - | Position Velocity", "rock | - | Position Mass", "shark | - | Position Velocity",
            "sparrow | - | Position Mass"), rows("Position, Velocity || Mass"));
        assertEquals(list("cat | - | Walks", "duck | - | Swims", "penguin | - | Swims", "shark | - | Swims",
            "sparrow | - | Flies"), rows("Swims || Flies || Walks"));
        assertEquals(list("duck | - | Position Flies -", "rock | - | Position Mass -", "sparrow | - | Position Flies -"),
            rows("Position, Flies || Mass, !Velocity"));
        assertEquals(3, Query.parse(w, "Position, Flies || Mass, !Velocity").fieldCount());
    }

    @Test
    void a21OrChainWithThreeFields() {
        with("e1", "Position", "Velocity", "Mass");
        with("e2", "Position", "Speed", "Mass");
        with("e3", "Position", "Mass");
        with("e4", "Position", "Velocity", "Speed", "Mass");
        assertEquals(list("e1 | - | Position Velocity Mass", "e2 | - | Position Speed Mass",
            "e4 | - | Position Velocity Mass"), rows("Position, Velocity || Speed, Mass"));
    }

    @Test
    void orChainOfPairs() {
        with("a", "(Has,Gold)", "Merchant");
        with("b", "(Has,Wood)");
        with("c", "(Has,Gold)", "(Has,Wood)");
        with("d", "(Has,Iron)");
        assertEquals(list("b | - | (Has,Wood) -", "c | - | (Has,Gold) -"), rows("(Has, Gold) || (Has, Wood), !Merchant"));
    }

    @Test
    void notScopes() {
        animals();
        assertEquals(list("duck | - | Position", "penguin | - | Position", "rock | - | Position", "sparrow | - | Position"),
            rows("Position, !{ Velocity, Mass }"));
        assertEquals(list("cat | - | Walks", "penguin | - | Walks"), rows("Walks, !{ Swims, Flies }"));
        assertEquals(list("cat", "duck", "rock", "sparrow"), these("Walks || Position, !{ Velocity || Mass, Swims }"));
    }

    @Test
    void a22NotScopeVersusPlainNot() {
        with("P1", "Position");
        with("P2", "Position");
        with("P3", "Position");
        with("P4", "Position");
        with("c1", "Position", "(ChildOf,P1)");
        with("c2", "(ChildOf,P2)");
        with("c3", "Position", "(ChildOf,P4)");
        with("c4", "(ChildOf,P4)");
        assertEquals(list("P2", "P3", "P1.c1", "P4.c3"), these("Position($this), !{ ChildOf($child, $this), Position($child) }"));
        assertEquals(List.of(), Query.parse(w, "Position($this), !{ ChildOf($child, $this), Position($child) }")
            .variableNames());
        assertEquals(list("P2 | $child=P2.c2", "P4 | $child=P4.c4"),
            answers("Position($this), ChildOf($child, $this), !Position($child)"));
    }

    @Test
    void a23OptionalWithDependentTerm() {
        with("Earth", "Planet");
        with("ship1", "SpaceShip", "(DockedTo,Earth)");
        with("ship2", "SpaceShip");
        with("ship3", "SpaceShip", "(DockedTo,ship1)");
        // dependent term skipped when the optional term did not match; applied when it did
        assertEquals(list("ship1 | $planet=Earth | SpaceShip (DockedTo,Earth) Planet@Earth",
            "ship2 | $planet=* | SpaceShip - -"), rows("SpaceShip, ?(DockedTo, $planet), Planet($planet)"));
        assertEquals(list("ship1"), these("SpaceShip($this), DockedTo($this, $Location), Planet($Location)"));
    }

    @Test
    void queriesOfOnlyNotOrOptionalTermsVisitEveryEntity() {
        with("T");
        with("R");
        with("a", "T");
        with("b", "(R,a)");
        assertEquals(list("R", "T", "a"), these("!(R, a)"));
        assertEquals(list("R | - | -", "T | - | -", "a | - | T", "b | - | -"), rows("?T"));
        assertEquals(list("T", "b"), these("!T, ?(R, *), !{ T($this) }, $this != R, !(R, b)"));
    }

    @Test
    void notWithFixedSource() {
        with("Game", "Raining");
        with("hero", "Player");
        with("sidekick", "Player");
        e("Paused");
        assertEquals(list("hero | - | Player -", "sidekick | - | Player -"), rows("Player, !Paused(Game)"));
        assertEquals(List.of(), rows("Player, !Raining(Game)"));
        assertEquals(list("- | - | -"), rows("!Paused(Game)"));
    }
}
