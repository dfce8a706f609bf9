package dev.quiver.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static dev.quiver.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Exit codes and the one-line error rule for picocli's own errors, --verbose, help and version. */
class ErrorHandlingTest {
    @TempDir
    Path tmp;

    @Test
    void parameterErrorsAreBadInputOnOneLine() {
        run().badInput("missing command");
        run("frobnicate").badInput("frobnicate");
        run("add").badInput("Missing required parameter");
        run("init", "a", "b").badInput("b");
        run("query", tmp.toString(), "x", "--no-such-option").badInput("--no-such-option");
        run("query", tmp.toString(), "x", "--limit", "many").badInput("many");
    }

    @Test
    void verboseAddsTheStackTrace() {
        CliRunner.Run r = run("add", "--verbose", tmp.resolve("nope").toString(), "dog", "Pet");
        assertEquals(ExitCodes.BAD_INPUT, r.exit());
        assertTrue(r.err().startsWith("quiver: world "), r.err());
        assertTrue(r.errLines().size() > 1, r.err());
        assertTrue(r.err().contains("CliInputException"), r.err());
    }

    @Test
    void helpAndVersion() {
        String help = run("--help").ok().out();
        for (String verb : new String[] {"init", "load", "add", "remove", "set", "delete", "query", "stats",
                "check", "snapshot", "restore", "demo"}) {
            assertTrue(help.contains("  " + verb + " "), verb);
        }
        assertTrue(run("query", "--help").ok().out().contains("--queries-file"));
        assertTrue(run("--version").ok().out().startsWith("quiver "));
    }

    @Test
    void oneLineJoinsLineBreaks() {
        assertEquals("a; b; c", Errors.oneLine("a\n  b\r\nc\n"));
    }
}
