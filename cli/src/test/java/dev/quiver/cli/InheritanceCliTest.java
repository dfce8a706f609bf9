package dev.quiver.cli;

import dev.quiver.storage.World;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;

import static dev.quiver.cli.CliRunner.fingerprint;
import static dev.quiver.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * IsA inheritance and prefabs through the CLI (FEATURES ISA, A-12 to A-17): {@code show} marks
 * inherited ids, {@code new --isa/--child-of} instantiates prefabs, and each bad input (IsA to a
 * Final entity, an IsA cycle, an existing name, an unknown base) exits 2 with one line and leaves
 * the world unchanged.
 */
class InheritanceCliTest extends FreshWorldCliTest {
    /** A-14 through the CLI: show prints owned ids, then inherited ones marked with their owner. */
    @Test
    void showMarksInheritedComponents() {
        run("component", w, "MaxSpeed", "value:i64").ok();
        run("component", w, "Defense", "value:i64").ok();
        run("add", w, "MaxSpeed", "(OnInstantiate, Inherit)").ok();
        run("add", w, "Defense", "(OnInstantiate, Inherit)").ok();
        run("set", w, "SpaceShip", "MaxSpeed", "{\"value\": 100}").ok();
        run("set", w, "SpaceShip", "Defense", "{\"value\": 50}").ok();
        run("add", w, "Frigate", "(IsA, SpaceShip)").ok();
        run("set", w, "Frigate", "Defense", "{\"value\": 75}").ok();
        run("add", w, "FastFrigate", "(IsA, Frigate)").ok();
        run("set", w, "FastFrigate", "MaxSpeed", "{\"value\": 200}").ok();
        String out = run("show", w, "FastFrigate").ok().out();
        assertTrue(out.contains("  MaxSpeed {value=200}\n"), out);
        assertTrue(out.contains("  Defense {value=75} (inherited from Frigate)\n"), out);
        assertFalse(out.contains("MaxSpeed {value=100}"), out);
        String frigate = run("show", w, "Frigate").ok().out();
        assertTrue(frigate.contains("  MaxSpeed {value=100} (inherited from SpaceShip)\n"), frigate);
        // adding an inherited component makes an own copy, which add reports as added
        assertTrue(run("add", w, "Frigate", "MaxSpeed").ok().out().contains("added MaxSpeed"));
        assertTrue(run("show", w, "Frigate").ok().out().contains("  MaxSpeed {value=100}\n"));
    }

    /** ENT-10, ISA-13/14: new --isa copies Override values and instantiates the prefab's children by name. */
    @Test
    void newInstantiatesPrefab() {
        run("component", w, "Health", "value:i64").ok();
        run("add", w, "Ship", "Prefab").ok();
        run("set", w, "Ship", "Health", "{\"value\": 10}").ok();
        run("new", w, "turret", "--child-of", "Ship").ok();
        run("set", w, "Ship.turret", "Health", "{\"value\": 3}").ok();
        String out = run("new", w, "fleet.inst1", "--isa", "Ship").ok().out();
        assertEquals("fleet.inst1 (IsA, Ship)\n", out);
        String show = run("show", w, "fleet.inst1").ok().out();
        assertTrue(show.contains("  Health {value=10}\n"), show);
        assertFalse(show.contains("Prefab"), show);
        String turret = run("show", w, "fleet.inst1.turret").ok().out();
        assertTrue(turret.contains("  Health {value=3}\n"), turret);
        assertTrue(turret.contains("(IsA,Ship.turret)"), turret);
        assertTrue(turret.contains("(ChildOf,fleet.inst1)"), turret);
        // anonymous, under a parent
        String anon = run("new", w, "--child-of", "fleet", "--isa", "Ship").ok().out();
        assertTrue(anon.startsWith("#"), anon);
        try (World world = World.openReadOnly(Path.of(w))) {
            assertTrue(world.isAlive(world.resolve("fleet.inst1.turret")));
        }
    }

    @Test
    void newRefusesBadInputAndChangesNothing() {
        run("new", w, "a").ok();
        run("add", w, "Sealed", "Final").ok();
        Map<String, String> before = fingerprint(Path.of(w));
        run("new", w, "a").badInput("entity 'a' exists");
        run("new", w, "b", "--isa", "Nope").badInput("Nope");
        run("new", w, "b", "--child-of", "Nope").badInput("Nope");
        run("new", w, "b", "--isa", "Sealed").badInput("Sealed is Final");
        assertEquals(before, fingerprint(Path.of(w)));
        assertEquals("a\n", run("new", w, "a", "--ensure").ok().out());
    }

    /** {@code new --count N}: N instances of a prefab in one transaction, children and Override copies included. */
    @Test
    void newCountInstantiatesInBulk() {
        run("component", w, "Health", "value:i64").ok();
        run("add", w, "Ship", "Prefab").ok();
        run("set", w, "Ship", "Health", "{\"value\": 10}").ok();
        run("new", w, "turret", "--child-of", "Ship").ok();
        run("new", w, "fleet").ok();
        String out = run("new", w, "--isa", "Ship", "--count", "25", "--child-of", "fleet").ok().out();
        assertTrue(out.matches("25 instances of Ship: #\\d+ \\.\\. #\\d+\\n"), out);
        assertEquals("25\n", run("query", w, "Health, (IsA, Ship), (ChildOf, fleet)", "--format", "count").ok().out());
        // every instance got its own turret, below it
        assertEquals("25\n", run("query", w, "(IsA, Ship.turret), (ChildOf, $p), ChildOf($p, fleet)", "--format", "count")
            .ok().out());
        assertEquals("0 instances of Ship\n", run("new", w, "--isa", "Ship", "--count", "0").ok().out());
        assertTrue(run("check", w).ok().out().contains("every invariant holds"));
    }

    @Test
    void newCountRefusesBadInputAndChangesNothing() {
        run("add", w, "Ship", "Prefab").ok();
        run("add", w, "Sealed", "Final").ok();
        Map<String, String> before = fingerprint(Path.of(w));
        run("new", w, "--count", "3").badInput("--count needs exactly one --isa base (given 0)");
        run("new", w, "--isa", "Ship", "--isa", "Sealed", "--count", "3").badInput("given 2");
        run("new", w, "x", "--isa", "Ship", "--count", "3").badInput("give no NAME");
        run("new", w, "--isa", "Ship", "--count", "-1").badInput("the count must be 0 or more");
        run("new", w, "--isa", "Sealed", "--count", "2").badInput("Sealed is Final");
        run("new", w, "--isa", "Nope", "--count", "2").badInput("Nope");
        run("new", w, "--isa", "Ship", "--count", "2", "--child-of", "Nope").badInput("Nope");
        assertEquals(before, fingerprint(Path.of(w)));
    }

    /** ISA-09 and TRT-04 through add: IsA to a Final entity and an IsA cycle exit 2, world unchanged. */
    @Test
    void finalAndCycleRefused() {
        run("add", w, "Unit", "Final").ok();
        run("add", w, "a", "(IsA, b)").ok();
        run("add", w, "b", "(IsA, c)").ok();
        Map<String, String> before = fingerprint(Path.of(w));
        run("add", w, "MeleeUnit", "(IsA, Unit)").badInput("Unit is Final");
        run("add", w, "c", "(IsA, a)").badInput("c -> a -> b -> c");
        assertEquals(before, fingerprint(Path.of(w)));
    }

    /** Issue 9's first regression: a query for Unit follows (IsA, Unit) to holders of MeleeUnit. */
    @Test
    void queryFollowsComponentInheritance() {
        run("add", w, "MeleeUnit", "(IsA, Unit)").ok();
        run("add", w, "u1", "MeleeUnit").ok();
        String out = run("query", w, "Unit").ok().out();
        assertTrue(out.contains("u1"), out);
        assertTrue(out.contains("MeleeUnit"), out);
        assertEquals("1\n", run("query", w, "Unit", "--format", "count").ok().out());
        // Inherit components match through IsA; up IsA on anything else is refused like Flecs does
        run("component", w, "Mass", "value:f64").ok();
        run("add", w, "Mass", "(OnInstantiate, Inherit)").ok();
        run("set", w, "base", "Mass", "{\"value\": 10}").ok();
        run("new", w, "inst", "--isa", "base").ok();
        assertEquals("2\n", run("query", w, "Mass", "--format", "count").ok().out());
        assertEquals("1\n", run("query", w, "Mass(up IsA)", "--format", "count").ok().out());
        run("query", w, "Unit(up IsA)").badInput("doesn't have the (OnInstantiate, Inherit) trait");
    }

    /** NOTES K5 and Inherit pairs through the CLI: (IsA, X|self) and pair terms see pairs held by bases. */
    @Test
    void queriesSeeInheritedPairs() {
        run("add", w, "Mid", "(IsA, Base)").ok();
        run("add", w, "Inst", "(IsA, Mid)").ok();
        String out = run("query", w, "(IsA, Base|self)").ok().out();
        assertTrue(out.contains("Mid"), out);
        assertTrue(out.contains("Inst"), out);
        assertTrue(out.contains("(IsA,Base)@Mid"), out);
        assertEquals("2\n", run("query", w, "(IsA, Base|self)", "--format", "count").ok().out());
        assertEquals("3\n", run("query", w, "(IsA, Base)", "--format", "count").ok().out());
        // an Inherit relationship: instances see the base's pairs, reported on the base
        run("add", w, "Likes", "(OnInstantiate, Inherit)").ok();
        run("add", w, "base", "(Likes, gold)").ok();
        run("new", w, "k1", "--isa", "base").ok();
        String likes = run("query", w, "(Likes, $x)").ok().out();
        assertTrue(likes.contains("(Likes,gold)@base"), likes);
        assertEquals("2\n", run("query", w, "(Likes, gold)", "--format", "count").ok().out());
        assertEquals("1\n", run("query", w, "Likes($this|self, gold)", "--format", "count").ok().out());
        assertTrue(run("show", w, "Inst").ok().out().contains("(IsA,Base)"), run("show", w, "Inst").out());
    }

    /**
     * ISA-10 on the relationship and Inherit with subsets through the CLI: with Loves IsA Likes,
     * (Likes, X) matches holders of (Loves, X); an Inherit id with subsets in use is answered.
     */
    @Test
    void pairSubstitutionAndInheritWithSubsets() {
        run("add", w, "Loves", "(IsA, Likes)").ok();
        run("add", w, "a", "(Likes, pizza)").ok();
        run("add", w, "b", "(Loves, pizza)").ok();
        String out = run("query", w, "(Likes, pizza)").ok().out();
        assertTrue(out.contains("(Loves,pizza)") && out.contains("(Likes,pizza)"), out);
        assertEquals("2\n", run("query", w, "(Likes, pizza)", "--format", "count").ok().out());
        assertEquals("1\n", run("query", w, "(Likes|self, pizza)", "--format", "count").ok().out());
        assertEquals("2\n", run("query", w, "(Likes, *)", "--format", "count").ok().out());
        run("add", w, "LocatedIn", "Transitive").ok();
        run("add", w, "InCity", "(IsA, LocatedIn)").ok();
        run("add", w, "louvre", "(InCity, paris)").ok();
        run("query", w, "(LocatedIn, paris)").badInput("pair substitution");
        // Inherit and component inheritance combined (once refused)
        run("add", w, "Mass", "(OnInstantiate, Inherit)").ok();
        run("add", w, "HeavyMass", "(IsA, Mass)").ok();
        run("add", w, "base", "Mass").ok();
        run("new", w, "inst", "--isa", "base").ok();
        run("add", w, "x", "HeavyMass").ok();
        String mass = run("query", w, "Mass").ok().out();
        assertTrue(mass.contains("Mass@base") && mass.contains("HeavyMass"), mass);
        assertEquals("3\n", run("query", w, "Mass", "--format", "count").ok().out());
    }
}
