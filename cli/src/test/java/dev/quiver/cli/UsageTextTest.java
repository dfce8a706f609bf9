package dev.quiver.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.quiver.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The root command's and {@code query}'s models are built programmatically ({@link Quiver},
 * {@link QueryCommand#spec}): their usage help and picocli's own messages must stay exactly what
 * the annotated commands printed. The expected texts (usage-quiver.txt, usage-query.txt) are the
 * annotated commands' output, byte for byte.
 */
class UsageTextTest {
    @TempDir
    Path tmp;

    @Test
    void rootUsageHelpIsUnchanged() throws IOException {
        String expected = resource("usage-quiver.txt");
        assertEquals(expected, run("--help").ok().out());
        assertEquals(expected, run("-h").ok().out());
    }

    @Test
    void queryUsageHelpIsUnchanged() throws IOException {
        String expected = resource("usage-query.txt");
        assertEquals(expected, run("query", "--help").ok().out());
        assertEquals(expected, run("query", "-h").ok().out());
        assertEquals(expected, run("-v", "query", "--help").ok().out());
        assertEquals(expected, run("help", "query").ok().out());
        assertEquals(expected, run("query", "w", "q", "--format", "count", "-h").ok().out());
    }

    /** picocli's parse errors of query's parameters and options, each the whole stderr line. */
    @Test
    void queryParseErrorsAreUnchanged() {
        String w = tmp.resolve("w").toString();
        String help = " (see 'quiver query --help')\n";
        assertParseError("Missing required parameter: 'WORLD'" + help, "query");
        assertParseError("Invalid value for option '--format': expected one of [table, json, jsonl, csv, tsv, "
                + "count, canonical] (case-insensitive) but was 'bogus'" + help, "query", w, "q", "--format", "bogus");
        assertParseError("Invalid value for option '--limit': 'x' is not an int" + help, "query", w, "q", "--limit", "x");
        assertParseError("Missing required parameter for option '--var' (NAME=ENTITY)" + help, "query", w, "q", "--var");
        assertParseError("Missing required parameter for option '--queries-file' (FILE)" + help, "query", w, "--queries-file");
        assertParseError("Missing required parameter for option '--group-by' (R)" + help, "query", w, "q", "--group-by");
        assertParseError("Missing required parameter for option '--order-by' (KEY)" + help, "query", w, "q", "--order-by");
        assertParseError("option '--explain' should be specified only once" + help, "query", w, "q", "--explain", "--explain");
        assertParseError("option '--cached' should be specified only once" + help, "query", w, "q", "--cached", "--cached");
        assertParseError("Unmatched argument at index 3: 'extra'" + help, "query", w, "q", "extra");
        assertParseError("Unknown option: '-x'" + help, "query", w, "q", "-x");
    }

    /** Values reach the command: each option changes what a run on a real world prints. */
    @Test
    void queryOptionsReachTheCommand() throws IOException {
        String w = tmp.resolve("w").toString();
        Path tsv = Files.writeString(tmp.resolve("t.tsv"), "a\tKindOf\tb\nb\tKindOf\tc\nd\tKindOf\tc\n");
        run("init", w).ok();
        run("add", w, "KindOf", "Transitive").ok();
        run("load", w, tsv.toString()).ok();
        assertEquals("3\n", run("query", w, "(KindOf, c)", "--format", "COUNT").ok().out());
        assertEquals("3\n", run("query", w, "(KindOf, c)", "--format=count", "--limit", "1").ok().out());
        assertEquals("a\n", rows(run("query", w, "(KindOf, b)", "--format", "csv").ok().out()));
        assertEquals(1, rows(run("query", w, "(KindOf, c)", "--format", "csv", "--limit", "1").ok().out()).split("\n").length);
        assertEquals("1\n", run("query", w, "KindOf($y, c)", "--var", "y=d", "--format", "count").ok().out());
        CliRunner.Run noValue = run("query", w, "KindOf($y, c)", "--var", "y");
        assertEquals(ExitCodes.BAD_INPUT, noValue.exit());
        assertEquals("quiver: --var takes NAME=ENTITY, got 'y'\n", noValue.err());
        Path queries = Files.writeString(tmp.resolve("q.txt"), "(KindOf, b)\n(KindOf, c)\n");
        assertEquals("(KindOf, b)\t1\n(KindOf, c)\t3\n",
                run("query", w, "--queries-file", queries.toString(), "--format", "count").ok().out());
        run("query", w, "(KindOf, c)", "--queries-file", queries.toString()).badInput("not both");
        String plan = run("query", w, "(KindOf, c)", "--explain").ok().out();
        assertTrue(!plan.isEmpty() && !plan.contains("results in"), plan);
        assertTrue(run("query", w, "(KindOf, c)").ok().out().contains("3 results in"));
        run("query", w, "--explain", "--queries-file", queries.toString()).badInput("--explain applies");
        run("query", w, "(KindOf, c)", "--cached", "--explain").badInput("apply to a single QUERY");
        run("query", w, "(KindOf, c)", "--group-by", "KindOf", "--explain").badInput("apply to a single QUERY");
        run("query", w, "(KindOf, c)", "--order-by", "id", "--explain").badInput("apply to a single QUERY");
        run("query", w, "(KindOf, c)", "--order-by", "id sideways").badInput("--order-by takes KEY");
        assertEquals("a\nb\nd\n", rows(run("query", w, "(KindOf, c)", "--order-by", "id", "--format", "csv").ok().out()));
        assertEquals("d\nb\na\n", rows(run("query", w, "(KindOf, c)", "--order-by", "id desc", "--format", "csv").ok().out()));
        run("query", w, "(KindOf, c)", "--limit", "-1").badInput("--limit must be 0 or more, got -1");
        run("query", tmp.resolve("none").toString(), "(KindOf, c)").badInput("does not exist");
    }

    /** The first column of csv output, without its header line. */
    private static String rows(String csv) {
        StringBuilder b = new StringBuilder();
        String[] lines = csv.replace("\r", "").split("\n");
        for (int i = 1; i < lines.length; i++) {
            b.append(lines[i].split(",")[0]).append('\n');
        }
        return b.toString();
    }

    private static void assertParseError(String expectedErr, String... args) {
        CliRunner.Run r = run(args);
        assertEquals(ExitCodes.BAD_INPUT, r.exit(), String.join(" ", args));
        assertEquals("quiver: " + expectedErr, r.err(), String.join(" ", args));
        assertEquals("", r.out(), String.join(" ", args));
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = UsageTextTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
