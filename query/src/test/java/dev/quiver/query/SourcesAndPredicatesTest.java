package dev.quiver.query;

import dev.quiver.storage.Builtin;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Fixed sources, singletons, lookup variables and the equality predicates (FEATURES.md QS-16..QS-22,
 * conformance worlds 10 and 12).
 */
class SourcesAndPredicatesTest extends QueryTestSupport {

    private void game() {
        with("Game", "Gravity", "Raining");
        e("Paused");
        with("hero", "Player", "Position");
        with("sidekick", "Player", "Position");
        with("tree", "Position");
    }

    @Test
    void fixedSources() {
        game();
        assertEquals(list("- | - | Gravity@Game"), rows("Gravity(Game)"));
        assertEquals(List.of(), rows("Paused(Game)"));
        assertEquals(list("hero | - | Position Gravity@Game", "sidekick | - | Position Gravity@Game",
            "tree | - | Position Gravity@Game"), rows("Position, Gravity(Game)"));
        // a failing fixed-source term empties the whole query (QS-16)
        assertEquals(List.of(), rows("Position, Paused(Game)"));
        assertFalse(Query.parse(w, "Gravity(Game)").hasThis());
    }

    @Test
    void singletons() {
        game();
        long input = with("Input");
        w.add(input, input);
        with("p1", "Player", "Position");
        with("p2", "Player");
        assertEquals(list("hero", "p1", "sidekick"), these("Player, Position, Input(Input)"));
        w.remove(input, input);
        assertEquals(List.of(), these("Player, Position, Input(Input)"));
        // the Singleton trait: a plain term matches on the component's own entity
        long tod = with("TimeOfDay", "Singleton");
        w.add(tod, tod);
        assertEquals(list("- | - | TimeOfDay@TimeOfDay"), rows("TimeOfDay"));
        assertEquals(list("hero | - | Position TimeOfDay@TimeOfDay", "sidekick | - | Position TimeOfDay@TimeOfDay",
            "p1 | - | Position TimeOfDay@TimeOfDay", "tree | - | Position TimeOfDay@TimeOfDay"),
            rows("Position, TimeOfDay"));
        assertEquals(Builtin.SINGLETON, w.lookup("Singleton"));
    }

    @Test
    void a28LookupVariables() {
        with("ship_a", "SpaceShip");
        with("ship_b", "SpaceShip");
        with("ship_c", "SpaceShip");
        w.add(e("ship_a.cockpit"), e("Powered"));
        e("ship_b.cockpit");
        assertEquals(list("ship_b"), these("SpaceShip($this), !Powered($this.cockpit)"));
        assertEquals(list("ship_a"), these("SpaceShip($this), Powered($this.cockpit)"));
        // $this only as a lookup base: every entity is tried
        assertEquals(list("ship_a"), these("Powered($this.cockpit)"));
    }

    private void ships() {
        for (String p : new String[] {"Earth", "Mars", "Vulcan"}) {
            with(p, "Planet");
        }
        with("UssEnterprise", "SpaceShip", "StarTrek", "(DockedTo,Earth)");
        with("UssVoyager", "SpaceShip", "StarTrek", "(DockedTo,Mars)");
        with("Rocinante", "SpaceShip", "Expanse", "(DockedTo,Mars)");
        with("MillenniumFalcon", "SpaceShip", "StarWars");
        with("UssDefiant", "SpaceShip", "StarTrek", "(DockedTo,Vulcan)");
        e("generator");
        with("reactor", "(PoweredBy,reactor)", "(PoweredBy,generator)");
        with("battery", "(PoweredBy,generator)");
    }

    @Test
    void equalityOperators() {
        ships();
        assertEquals(list("UssEnterprise | - | SpaceShip -"), rows("SpaceShip, $this == UssEnterprise"));
        assertEquals(list("Rocinante | - | SpaceShip -", "UssEnterprise | - | SpaceShip -"),
            rows("SpaceShip, $this == UssEnterprise || $this == Rocinante"));
        assertEquals(list("Mars | - | - Planet"), rows("$this == \"Mars\", Planet"));
        assertEquals(List.of(), rows("$this == \"Pluto\", Planet"));
        assertEquals(list("UssVoyager | $p=Mars | - (DockedTo,Mars)"), rows("$this == UssVoyager, (DockedTo, $p)"));
        assertEquals(list("MillenniumFalcon | - | SpaceShip -", "Rocinante | - | SpaceShip -"),
            rows("SpaceShip, $this ~= \"!Uss\""));
        assertEquals(list("UssDefiant | - | SpaceShip -", "UssEnterprise | - | SpaceShip -",
            "UssVoyager | - | SpaceShip -"), rows("SpaceShip, $this ~= \"uss\""));
        assertEquals(list("Rocinante | $p=Mars | SpaceShip (DockedTo,Mars) -",
            "UssVoyager | $p=Mars | SpaceShip (DockedTo,Mars) -"), rows("SpaceShip, (DockedTo, $p), $p == Mars"));
        assertEquals(list("battery | $src=generator | (PoweredBy,generator) -",
            "reactor | $src=generator | (PoweredBy,generator) -"), rows("(PoweredBy, $src), $this != $src"));
        assertEquals(list("reactor | $src=reactor | (PoweredBy,reactor) -"), rows("(PoweredBy, $src), $this == $src"));
        assertEquals(list(
                "Rocinante | $other=UssVoyager $p=Mars | SpaceShip (DockedTo,Mars) (DockedTo,Mars)@UssVoyager -",
                "UssVoyager | $other=Rocinante $p=Mars | SpaceShip (DockedTo,Mars) (DockedTo,Mars)@Rocinante -"),
            rows("SpaceShip, (DockedTo, $p), DockedTo($other, $p), $other != $this"));
        assertEquals(4, count("SpaceShip, $this != UssEnterprise"));
        assertEquals(5, count("SpaceShip, $this != \"Nobody\""));
    }

    @Test
    void variablesBetweenTwoEntitiesOfOneTableAreAllPairs() {
        // conformance NOTES E2: the correct answer has every ordered pair of distinct entities
        with("a", "T");
        with("b", "T");
        with("c", "T");
        assertEquals(6, count("T($x), T($y), $x != $y"));
        assertEquals(6, count("T, T($y), $this != $y"));
    }
}
