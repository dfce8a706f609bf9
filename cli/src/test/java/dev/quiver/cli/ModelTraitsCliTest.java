package dev.quiver.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static dev.quiver.cli.CliRunner.fingerprint;
import static dev.quiver.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 9 through the CLI: Symmetric with Exclusive, enable/disable (CanToggle), cycle warnings of
 * {@code check}, Transient relationships left out of snapshots and exports; every refusal is one
 * line and exit 2, and changes nothing.
 */
class ModelTraitsCliTest extends FreshWorldCliTest {
    @Test
    void symmetricExclusiveReplacesThePartnerOnBothSides() {
        run("add", w, "MarriedTo", "Symmetric", "Exclusive").ok();
        run("add", w, "a", "(MarriedTo, c)").ok();
        run("add", w, "b", "(MarriedTo, d)").ok();
        assertEquals("c\n  (MarriedTo,a)\n", show("c"));
        run("add", w, "a", "(MarriedTo, b)").ok();
        assertEquals("a\n  (MarriedTo,b)\n", show("a"));
        assertEquals("b\n  (MarriedTo,a)\n", show("b"));
        assertEquals("c\n", show("c"));
        assertEquals("d\n", show("d"));
        assertEquals("a\n", run("sources", w, "MarriedTo", "b").ok().out());
        // Symmetric cannot be added once the relationship is in use
        Map<String, String> before = fingerprint(Path.of(w));
        run("add", w, "Likes", "(Likes, x)").ok();
        before = fingerprint(Path.of(w));
        run("add", w, "Likes", "Symmetric").badInput("already in use");
        assertEquals(before, fingerprint(Path.of(w)));
    }

    @Test
    void disableAndEnableToggleAComponentKeepingItsValue() {
        run("component", w, "Position", "x:f64", "y:f64").ok();
        run("add", w, "Position", "CanToggle").ok();
        run("set", w, "ship", "Position", "{\"x\": 1, \"y\": 2}").ok();
        run("set", w, "boat", "Position", "{\"x\": 3, \"y\": 4}").ok();
        assertEquals("ship: Position disabled\n", run("disable", w, "ship", "Position").ok().out());
        assertEquals("ship: Position was already disabled\n", run("disable", w, "ship", "Position").ok().out());
        assertEquals("1\n", run("query", w, "Position", "--format", "count").ok().out());
        assertTrue(show("ship").contains("(Disabled,Position) {x=1.0, y=2.0}"), show("ship"));
        assertEquals("ship: Position enabled\n", run("enable", w, "ship", "Position").ok().out());
        assertEquals("2\n", run("query", w, "Position", "--format", "count").ok().out());
        assertTrue(show("ship").contains("  Position {x=1.0, y=2.0}"), show("ship"));
        // refusals: one line, exit 2, nothing changed
        run("component", w, "Mass", "kg:f64").ok();
        run("set", w, "ship", "Mass", "{\"kg\": 5}").ok();
        run("disable", w, "ship", "Position").ok();
        Map<String, String> before = fingerprint(Path.of(w));
        run("disable", w, "ship", "Mass").badInput("CanToggle");
        run("disable", w, "nobody", "Position").badInput("unknown");
        run("enable", w, "Mass", "Position").badInput("does not own");
        run("disable", w, "ship", "(ChildOf, boat)").badInput("pair");
        run("add", w, "ship", "Position").badInput("disabled");
        run("set", w, "ship", "Position", "{\"x\": 9}").badInput("disabled");
        run("remove", w, "Position", "CanToggle").badInput("disabled on some entities");
        run("disable", w, "IsA", "Position").badInput("builtin");
        assertEquals(before, fingerprint(Path.of(w)));
    }

    @Test
    void checkWarnsAboutCyclesInUserRelationships() {
        run("add", w, "a", "(DependsOn, b)").ok();
        run("add", w, "b", "(DependsOn, a)").ok();
        run("add", w, "FriendOf", "Symmetric").ok();
        run("add", w, "a", "(FriendOf, b)").ok();
        String out = run("check", w).ok().out();
        assertTrue(out.startsWith("ok: ") && out.contains("(1 warning)"), out);
        assertTrue(out.endsWith("\nwarning: cycle in DependsOn: a -> b -> a\n"), out);
        run("add", w, "b", "(ChildOf, a)").ok();
        Map<String, String> before = fingerprint(Path.of(w));
        run("add", w, "a", "(ChildOf, a.b)").badInput("cycle a -> a.b -> a");
        assertEquals(before, fingerprint(Path.of(w)));
        run("remove", w, "a.b", "(DependsOn, a)").ok();
        assertFalse(run("check", w).ok().out().contains("warning"));
    }

    @Test
    void transientPairsAreLeftOutOfSnapshotsAndExports() throws IOException {
        run("add", w, "Hovering", "Transient").ok();
        run("add", w, "follower", "(Hovering, pad)", "(Follows, leader)").ok();
        assertTrue(show("follower").contains("(Hovering,pad)"), "the live world keeps it");
        Path snap = tmp.resolve("s.qsnap");
        run("snapshot", w, snap.toString()).ok();
        assertTrue(show("follower").contains("(Hovering,pad)"), "after the snapshot too");
        String restored = tmp.resolve("r").toString();
        run("restore", snap.toString(), restored).ok();
        String shown = run("show", restored, "follower").ok().out();
        assertEquals("follower\n  (Follows,leader)\n", shown);
        assertEquals("0\n", run("query", restored, "(Hovering, *)", "--format", "count").ok().out());
        run("check", restored).ok();
        Path out = tmp.resolve("x");
        run("export", w, out.toString(), "--format", "csv").ok();
        String edges = Files.readString(out.resolve("edges.csv"));
        assertTrue(edges.contains(",Follows") && !edges.contains("Hovering"), edges);
    }

    /** FEATURES A-37 through the CLI: Follows {delay, maxDistance} with defaults {0.5, 100}. */
    @Test
    void componentDefaultsFillValuesLeftOut() {
        String out = run("component", w, "Follows", "delay:f64=0.5", "maxDistance:f64=100", "note:string=hi").ok().out();
        assertEquals("component Follows {delay: f64 = 0.5, maxDistance: f64 = 100.0, note: string = \"hi\"}\n", out);
        run("add", w, "e", "(Follows, t)").ok();
        assertTrue(show("e").contains("(Follows,t) {delay=0.5, maxDistance=100.0, note=hi}"), show("e"));
        run("new", w, "u").ok();
        run("set", w, "e", "(Follows, u)", "{\"delay\": 0.2}").ok();
        assertTrue(show("e").contains("(Follows,u) {delay=0.2, maxDistance=100.0, note=hi}"), show("e"));
        Map<String, String> before = fingerprint(Path.of(w));
        run("component", w, "Speed", "v:f64=fast").badInput("not a number");
        run("component", w, "Flag", "on:bool=yes").badInput("true or false");
        run("component", w, "Ref", "to:entity=3").badInput("no default");
        run("component", w, "Follows", "delay:f64=0.7", "maxDistance:f64=100", "note:string=hi").badInput("already has schema");
        assertEquals(before, fingerprint(Path.of(w)));
    }

    /** TEC-06 through the CLI: a field range is the schema-level constraint; values outside exit 2 and change nothing. */
    @Test
    void componentRangesRefuseValuesOutside() {
        String out = run("component", w, "Health", "value:i64[0..100]=100", "regen:f64[0..]").ok().out();
        assertEquals("component Health {value: i64 [0..100] = 100, regen: f64 [0..]}\n", out);
        run("add", w, "e", "Health").ok();
        run("set", w, "e", "Health", "{\"value\": 40}").ok();
        Map<String, String> before = fingerprint(Path.of(w));
        run("set", w, "e", "Health", "{\"value\": 101}").badInput("Health field 'value': 101 lies outside its range [0..100]");
        run("set", w, "e", "Health", "{\"regen\": -1}").badInput("outside its range [0..]");
        run("component", w, "Mana", "v:i64[0..10]=11").badInput("the default of field 'v': 11 lies outside its range [0..10]");
        run("component", w, "Name", "s:string[0..1]").badInput("only number fields take a range");
        run("component", w, "Bad", "v:i64[0-10]").badInput("malformed range '[0-10]'");
        run("component", w, "Bad", "v:i64[a..b]").badInput("an end is not a number");
        run("component", w, "Bad", "v:i64[5..1]").badInput("min <= max");
        run("component", w, "Health", "value:i64[0..200]=100", "regen:f64[0..]").badInput("already has schema");
        assertEquals(before, fingerprint(Path.of(w)));
        assertTrue(show("e").contains("Health {value=40, regen=0.0}"), show("e"));
        // a relationship's pair data takes ranges the same way
        run("defrel", w, "Owes", "amount:f64[0..]").ok();
        run("new", w, "b").ok();
        run("set", w, "a", "(Owes, b)", "{\"amount\": -5}").badInput("outside its range");
    }

    /** TEC-01 through the CLI: defrel maps Tecs keys to traits and fields; refusals change nothing. */
    @Test
    void defrelDefinesARelationshipTheTecsWay() {
        String out = run("defrel", w, "Follows", "--exclusive", "--cascade-delete", "--reverse-index", "--transient",
                "delay:f64=0.5", "maxDistance:f64=100").ok().out();
        assertEquals("relationship Follows (OnDeleteTarget,Delete) Exclusive Component Transient "
                + "{delay: f64 = 0.5, maxDistance: f64 = 100.0}\n", out);
        run("add", w, "dog", "(Follows, owner)").ok();
        assertTrue(show("dog").contains("(Follows,owner) {delay=0.5, maxDistance=100.0}"), show("dog"));
        run("new", w, "cat").ok();
        run("set", w, "dog", "(Follows, cat)", "{\"delay\": 2}").ok();
        assertFalse(show("dog").contains("(Follows,owner)"), "exclusive: " + show("dog"));
        run("delete", w, "cat").ok();
        run("show", w, "dog").badInput("dog");
        // a tag relationship with no keys
        assertEquals("relationship Likes\n", run("defrel", w, "Likes").ok().out());
        Map<String, String> before = fingerprint(Path.of(w));
        run("defrel", w, "Near", "--sparse", "d:f64").badInput("DontFragment");
        assertEquals(before, fingerprint(Path.of(w)));
        run("defrel", w, "Near", "--sparse").ok();
        assertTrue(run("show", w, "Near").ok().out().contains("DontFragment"), run("show", w, "Near").out());
        before = fingerprint(Path.of(w));
        run("defrel", w, "Follows", "delay:f64=0.7").badInput("already has schema");
        run("defrel", w, "Bad", "delay:i99").badInput("i99");
        run("add", w, "a", "(Likes, b)").ok();
        before = fingerprint(Path.of(w));
        run("defrel", w, "Likes", "--exclusive").badInput("already in use");
        assertEquals(before, fingerprint(Path.of(w)));
    }
}
