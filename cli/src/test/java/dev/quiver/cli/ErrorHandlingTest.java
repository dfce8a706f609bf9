package dev.quiver.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static dev.quiver.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

    /**
     * {@code main} builds only the subcommand it runs (start-up); every other test runs that way
     * through {@link CliRunner}. Here each subcommand's help and a bad option give exactly what the
     * whole command line gives.
     */
    @Test
    void theCommandLineOfOneSubcommandAnswersAsTheWholeOne() {
        for (String name : Quiver.SUBCOMMANDS.keySet()) {
            for (String[] args : new String[][] {{name, "--help"}, {"-v", name, "--help"}, {name, "--no-such-option"}}) {
                assertEquals(whole(args), run(args), String.join(" ", args));
            }
        }
        for (String[] args : new String[][] {{"--version"}, {"--help"}, {"help", "query"}, {"frobnicate"}, {}}) {
            assertEquals(whole(args), run(args), String.join(" ", args));
        }
        assertEquals(Quiver.SUBCOMMANDS.size(), Quiver.commandLine(new java.io.PrintWriter(new java.io.StringWriter()),
                new java.io.PrintWriter(new java.io.StringWriter()), false).getSubcommands().size());
    }

    /** {@code main} starts the Chronicle warm-up for a subcommand only (help and version open no world). */
    @Test
    void theWarmUpStartsForASubcommandOnly() {
        for (String[] args : new String[][] {{"query", "w", "X"}, {"-v", "show", "w", "a"}, {"--verbose", "init", "w"}}) {
            assertTrue(Quiver.namesSubcommand(args), String.join(" ", args));
        }
        for (String[] args : new String[][] {{}, {"--version"}, {"-v"}, {"help", "query"}, {"frobnicate", "query"}, {"--help"}}) {
            assertFalse(Quiver.namesSubcommand(args), String.join(" ", args));
        }
    }

    /**
     * {@link Quiver#SUBCOMMANDS} writes the names out: each must be its class's {@code @Command} name,
     * or for {@code query}, whose model is built programmatically, the name of that model.
     */
    @Test
    void eachSubcommandIsFiledUnderItsCommandName() {
        var whole = Quiver.commandLine(new java.io.PrintWriter(new java.io.StringWriter()),
                new java.io.PrintWriter(new java.io.StringWriter()), false).getSubcommands();
        for (var e : Quiver.SUBCOMMANDS.entrySet()) {
            picocli.CommandLine.Command c = e.getValue().getAnnotation(picocli.CommandLine.Command.class);
            assertEquals(c == null ? whole.get(e.getKey()).getCommandSpec().name() : c.name(), e.getKey());
            assertEquals(e.getValue(), whole.get(e.getKey()).getCommandSpec().userObject().getClass());
        }
    }

    private static CliRunner.Run whole(String... args) {
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        int exit;
        try (java.io.PrintWriter o = new java.io.PrintWriter(out); java.io.PrintWriter e = new java.io.PrintWriter(err)) {
            exit = Quiver.commandLine(o, e, false).execute(args);
        }
        return new CliRunner.Run(exit, out.toString().replace("\r\n", "\n"), err.toString().replace("\r\n", "\n"));
    }

    @Test
    void oneLineJoinsLineBreaks() {
        assertEquals("a; b; c", Errors.oneLine("a\n  b\r\nc\n"));
    }
}
