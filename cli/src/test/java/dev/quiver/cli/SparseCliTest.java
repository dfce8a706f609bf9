package dev.quiver.cli;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;

import static dev.quiver.cli.CliRunner.fingerprint;
import static dev.quiver.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Non-fragmenting storage through the CLI (issue 8 section 5, FEATURES TRT-07, TRT-16, A-34):
 * DontFragment and Union, {@code show} and {@code stats} telling the storage, the structural-trait
 * refusals (one line, exit 2, nothing changed), cleanup and reopen over sparse pairs.
 */
class SparseCliTest extends FreshWorldCliTest {
    private String count(String query) {
        return run("query", w, query, "--format", "count").ok().out();
    }

    @Test
    void a34UnionThroughTheCli() {
        run("add", w, "Movement", "Union").ok();
        run("add", w, "e", "(Movement, Running)").ok();
        run("add", w, "e", "(Movement, Walking)").ok();
        assertEquals("e\n  (Movement,Walking)\n", show("e"));
        assertTrue(show("Movement").contains("stored sparse"), show("Movement"));
        run("remove", w, "e", "(Movement, Running)").ok();
        assertEquals("e\n  (Movement,Walking)\n", show("e"));
        assertEquals("1\n", count("(Movement, *)"));
        assertEquals("0\n", count("(Movement, Running)"));
        run("remove", w, "e", "(Movement, *)").ok();
        assertEquals("e\n", show("e"));
        assertEquals("0\n", count("(Movement, *)"));
    }

    @Test
    void dontFragmentSharesOneTableAndSurvivesReopenAndCleanup() {
        run("add", w, "In", "DontFragment", "(OnDeleteTarget, Delete)").ok();
        for (int i = 0; i < 40; i++) {
            run("add", w, "x" + i, "(In, p" + i + ")", "Tag").ok();
        }
        String stats = run("stats", w).ok().out();
        assertTrue(stats.contains("sparse relationships: 1") && stats.contains("sparse pairs: 40"), stats);
        assertTrue(stats.contains("tables: "), stats);
        int tables = Integer.parseInt(stats.replaceAll("(?s).*\\ntables: (\\d+).*", "$1"));
        assertTrue(tables < 10, "one table for the 40 holders, not one per target: " + stats);
        assertEquals("1\n", count("(In, p3)"));
        assertEquals("40\n", count("(In, $x), Tag"));
        run("delete", w, "p3").ok(); // (OnDeleteTarget, Delete) reaches the sparse pair
        assertEquals("39\n", count("(In, *)"));
        run("query", w, "x3").badInput("");
        assertEquals("x5\n", run("sources", w, "In", "p5").ok().out());
    }

    @Test
    void structuralTraitsAreRefusedInUseAndChangeNothing() {
        run("add", w, "R", "Exclusive").ok();
        run("add", w, "a", "(R, b)").ok();
        Map<String, String> before = fingerprint(Path.of(w));
        run("add", w, "R", "DontFragment").badInput("already in use");
        run("add", w, "R", "Union").badInput("already in use");
        run("add", w, "IsA", "DontFragment").badInput("");
        run("component", w, "Pos", "x:f64").ok();
        Map<String, String> withPos = fingerprint(Path.of(w));
        run("add", w, "Pos", "DontFragment").badInput("no data");
        assertEquals(withPos, fingerprint(Path.of(w)));
        assertTrue(!before.equals(withPos));
    }
}
