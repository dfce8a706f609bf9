package dev.quiver.cli;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static dev.quiver.cli.CliRunner.fingerprint;
import static dev.quiver.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code quiver load W F.flecs} and {@code quiver query --format canonical}: the blocks of the
 * conformance FORMAT.md (rows sorted by bytes, vars, fields and their sources, error blocks, the
 * world-entity filter) and script errors as exit 2 with the world unchanged.
 */
class CanonicalFormatTest {
    @TempDir
    static Path tmp;

    private static String w;

    @BeforeAll
    static void world() throws Exception {
        w = tmp.resolve("w").toString();
        Path f = Files.writeString(tmp.resolve("t.flecs"), String.join("\n",
                "T {}", "U {}", "Likes {}", "R { Transitive }", "bob {}",
                "UssVoyager { T }", "a { T; U; (Likes, bob) }", "b { T; (R, a) }", ""));
        String out = run("load", w, f.toString()).ok().out();
        assertTrue(out.contains("t.flecs: 15 statements, 8 entities"), out);
        assertTrue(out.contains("created world " + w + ": loaded 15 statements from 1 file, 8 entities"), out);
    }

    private static String canonical(String query) {
        return run("query", w, query, "--format", "canonical").ok().out();
    }

    @Test
    void rowsAreSortedByBytesWithACount() {
        assertEquals("query: T\nUssVoyager | - | T\na | - | T\nb | - | T\ncount: 3\n\n", canonical("T"));
        assertEquals("query: (Likes, Likes)\ncount: 0\n\n", canonical("(Likes, Likes)"));
    }

    @Test
    void variablesAndFieldSources() {
        // a variable source prints @source even when it is $this's entity
        assertTrue(canonical("T, T($y)").contains("\na | $y=a | T T@a\n"));
        // an anonymous variable source prints no source; a _ source prints @*
        assertEquals("query: T($_x)\n- | - | T\n- | - | T\n- | - | T\ncount: 3\n\n", canonical("T($_x)"));
        assertEquals("query: Likes(_, $y)\n- | $y=bob | (Likes,bob)@*\ncount: 1\n\n", canonical("Likes(_, $y)"));
        // an optional term that did not match: its field is '-', its variable '*'
        assertEquals("query: T, ?Likes($this, $x)\nUssVoyager | $x=* | T -\na | $x=bob | T (Likes,bob)\nb | $x=* | T -\n"
                + "count: 3\n\n", canonical("T, ?Likes($this, $x)"));
        // anonymous variables are not printed; variables are sorted by name
        assertEquals("query: (Likes, $_x)\na | - | (Likes,bob)\ncount: 1\n\n", canonical("(Likes, $_x)"));
        assertEquals("query: R($zz, $aa)\n- | $aa=a $zz=b | (R,a)@b\ncount: 1\n\n", canonical("R($zz, $aa)"));
    }

    @Test
    void rowsBindingABuiltinAreDropped() {
        // R's only id is the builtin Transitive: $c would be bound to it
        assertEquals("query: $c(R)\ncount: 0\n\n", canonical("$c(R)"));
        assertEquals("query: Transitive\nR | - | Transitive\ncount: 1\n\n", canonical("Transitive"));
    }

    @Test
    void aQueryThatFailsToParseOrResolvePrintsError() {
        assertEquals("query: Foo\nerror\n\n", canonical("Foo"));
        assertEquals("query: T,,\nerror\n\n", canonical("T,,"));
        assertEquals("query: T(up Likes)\nerror\n\n", canonical("T(up Likes)")); // Likes is not Traversable
        assertEquals("query: T, T(cascade)\nerror\n\n", canonical("T, T(cascade)")); // uncached query
    }

    @Test
    void aQueriesFileIsStrippedAndRunsEveryQuery() throws Exception {
        Path q = Files.writeString(tmp.resolve("q.queries"), "# comment\n\n  T  \r\n\tFoo\n(Likes, $_x)\n");
        assertEquals("query: T\nUssVoyager | - | T\na | - | T\nb | - | T\ncount: 3\n\n"
                + "query: Foo\nerror\n\n"
                + "query: (Likes, $_x)\na | - | (Likes,bob)\ncount: 1\n\n",
                run("query", w, "--queries-file", q.toString(), "--format", "canonical").ok().out());
        run("query", w, "T", "--format", "canonical", "--limit", "1").badInput("--limit does not apply");
    }

    @Test
    void aBadScriptIsExit2AndChangesNothing() throws Exception {
        Path bad = Files.writeString(tmp.resolve("bad.flecs"), "X {}\na { Y }\n");
        Map<String, String> before = fingerprint(Path.of(w));
        run("load", w, bad.toString()).badInput("bad.flecs:2:5: unresolved identifier 'Y'");
        assertEquals(before, fingerprint(Path.of(w)));

        Path fresh = tmp.resolve("fresh");
        run("load", fresh.toString(), bad.toString()).badInput("bad.flecs:2:5:");
        assertFalse(Files.exists(fresh), "the world this load created is removed again");
    }
}
