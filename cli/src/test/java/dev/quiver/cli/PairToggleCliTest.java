package dev.quiver.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static dev.quiver.cli.CliRunner.fingerprint;
import static dev.quiver.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Toggling pairs through the CLI (issue 9, Flecs v4 CanToggle on a relationship): {@code disable}
 * and {@code enable} take a pair; while disabled, queries, {@code targets} and {@code sources} skip
 * it and {@code show} prints it marked {@code (disabled)}; it survives a snapshot and restore. Every
 * refusal is one line and exit 2, and changes nothing.
 */
class PairToggleCliTest extends FreshWorldCliTest {
    @Test
    void disableAndEnableAPairKeepingItsValue() throws IOException {
        run("component", w, "Owes", "amount:f64").ok();
        run("add", w, "Owes", "CanToggle").ok();
        run("new", w, "alice").ok();
        run("set", w, "bob", "(Owes, alice)", "{\"amount\": 12.5}").ok();
        run("set", w, "carol", "(Owes, alice)", "{\"amount\": 3}").ok();
        assertEquals("bob: (Owes,alice) disabled\n", run("disable", w, "bob", "(Owes, alice)").ok().out());
        assertEquals("bob: (Owes,alice) was already disabled\n", run("disable", w, "bob", "(Owes, alice)").ok().out());
        assertEquals("bob\n  (Owes,alice) {amount=12.5} (disabled)\n", show("bob"));
        assertEquals("1\n", run("query", w, "(Owes, alice)", "--format", "count").ok().out());
        assertEquals("1\n", run("query", w, "(Owes, *)", "--format", "count").ok().out());
        assertEquals("1\n", run("query", w, "(Owes, $x)", "--format", "count").ok().out());
        assertEquals("carol\n", run("sources", w, "Owes", "alice").ok().out());
        assertEquals("", run("targets", w, "bob", "Owes").ok().out());
        assertTrue(run("check", w).ok().out().startsWith("ok"));
        Path snap = tmp.resolve("s.qsnap");
        run("snapshot", w, snap.toString()).ok();
        String restored = tmp.resolve("r").toString();
        run("restore", snap.toString(), restored).ok();
        assertEquals("bob\n  (Owes,alice) {amount=12.5} (disabled)\n", run("show", restored, "bob").ok().out());
        assertTrue(run("check", restored).ok().out().startsWith("ok"));
        Path out = tmp.resolve("x");
        run("export", w, out.toString(), "--format", "csv").ok();
        String edges = Files.readString(out.resolve("edges.csv"));
        assertEquals(1, edges.lines().filter(l -> l.contains(",Owes,")).count(), "only carol's edge: " + edges);
        assertTrue(!edges.contains("ChildOf"), "the companion Owes.~ is no vertex and has no edge: " + edges);
        assertTrue(!Files.readString(out.resolve("vertices.csv")).contains("~"));
        assertEquals("bob: (Owes,alice) enabled\n", run("enable", w, "bob", "(Owes, alice)").ok().out());
        assertEquals("bob\n  (Owes,alice) {amount=12.5}\n", show("bob"));
        assertEquals("2\n", run("query", w, "(Owes, *)", "--format", "count").ok().out());
        // removing (R, *) removes a disabled pair too
        run("disable", w, "bob", "(Owes, alice)").ok();
        run("remove", w, "bob", "(Owes, *)").ok();
        assertEquals("bob\n", show("bob"));
    }

    @Test
    void anInheritedDisabledPairShowsAsDisabled() {
        run("add", w, "Likes", "CanToggle", "(OnInstantiate, Inherit)").ok();
        run("add", w, "base", "(Likes, cake)").ok();
        run("disable", w, "base", "(Likes, cake)").ok();
        run("add", w, "kid", "(IsA, base)").ok();
        assertEquals("kid\n  (IsA,base)\n  (Likes,cake) (disabled) (inherited from base)\n", show("kid"));
        assertEquals("0\n", run("query", w, "(Likes, cake)", "--format", "count").ok().out());
        run("enable", w, "base", "(Likes, cake)").ok();
        assertEquals("kid\n  (IsA,base)\n  (Likes,cake) (inherited from base)\n", show("kid"));
    }

    @Test
    void refusalsExitTwoAndChangeNothing() {
        run("add", w, "Likes", "CanToggle").ok();
        run("add", w, "bob", "(Likes, alice)", "(Knows, alice)").ok();
        run("disable", w, "bob", "(Likes, alice)").ok();
        run("new", w, "carol").ok();
        Map<String, String> before = fingerprint(Path.of(w));
        run("disable", w, "bob", "(Knows, alice)").badInput("lacks the CanToggle trait");
        run("disable", w, "bob", "(Likes, *)").badInput("wildcard");
        run("enable", w, "bob", "(Likes, carol)").badInput("does not own");
        run("enable", w, "carol", "(Likes, alice)").badInput("does not own");
        run("enable", w, "bob", "(Likes.~, alice)").badInput("disabled form");
        run("add", w, "bob", "(Likes, alice)").badInput("disabled there");
        run("remove", w, "Likes", "CanToggle").badInput("disabled on some entities");
        run("add", w, "Likes", "DontFragment").badInput("CanToggle");
        run("delete", w, "Likes.~").badInput("toggle companion");
        run("add", w, "Likes.~", "Exclusive").badInput("toggle companion");
        assertEquals(before, fingerprint(Path.of(w)));
    }

    /**
     * {@code remove --all} removes a pair from its disabled holders too and counts them; the
     * companion is neither counted by {@code stats} nor listed by wildcard queries.
     */
    @Test
    void removeAllCountsDisabledHoldersAndTheCompanionStaysHidden() {
        run("add", w, "Likes", "CanToggle").ok();
        run("add", w, "bob", "(Likes, alice)").ok();
        run("add", w, "carol", "(Likes, alice)").ok();
        String stats = run("stats", w).ok().out();
        run("disable", w, "bob", "(Likes, alice)").ok();
        assertEquals(stats.lines().filter(l -> l.startsWith("entities")).findFirst(),
            run("stats", w).ok().out().lines().filter(l -> l.startsWith("entities")).findFirst());
        assertEquals("1\n", run("query", w, "(*, alice)", "--format", "count").ok().out());
        assertTrue(run("query", w, "(*, alice)").ok().out().contains("carol  (Likes,alice)\n"));
        assertEquals("0\n", run("query", w, "(ChildOf, Likes)", "--format", "count").ok().out());
        assertEquals("removed (Likes, alice) from 2 entities\n", run("remove", w, "--all", "(Likes, alice)").ok().out());
        assertEquals("bob\n", show("bob"));
        assertTrue(run("check", w).ok().out().startsWith("ok"));
    }
}
