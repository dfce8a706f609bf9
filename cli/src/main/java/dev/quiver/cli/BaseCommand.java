package dev.quiver.cli;

import dev.quiver.storage.World;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * Base of every subcommand: the output streams, and opening worlds the way every verb does
 * (mutating verbs as the writer, reading verbs read-only, and a missing world is bad input).
 * A subcommand returns its exit code; errors are thrown and turned into exit codes by
 * {@link Errors}.
 */
abstract class BaseCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @ParentCommand
    Quiver root;

    /** The description of {@code -h}/{@code --help}, the usage help option of every command. */
    static final String HELP_DESCRIPTION = "Show this help message and exit.";

    @Option(names = {"-h", "--help"}, usageHelp = true, description = HELP_DESCRIPTION)
    boolean help;

    /** {@code -h}/{@code --help} for a command whose model is built programmatically. */
    static OptionSpec helpOption() {
        return OptionSpec.builder("-h", "--help").usageHelp(true).type(boolean.class).description(HELP_DESCRIPTION).build();
    }

    /** Standard output of this run. */
    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    /** Standard error of this run. */
    PrintWriter err() {
        return spec.commandLine().getErr();
    }

    /** True when progress bars may be drawn (see {@link Quiver#interactive()}). */
    boolean interactive() {
        return root != null && root.interactive();
    }

    /**
     * Opens an existing world as its writer.
     *
     * @throws CliInputException when {@code dir} holds no world
     */
    static World openWriter(Path dir) {
        requireWorld(dir);
        return World.open(dir);
    }

    /**
     * Opens an existing world read-only.
     *
     * @throws CliInputException when {@code dir} holds no world
     */
    static World openReader(Path dir) {
        requireWorld(dir);
        return World.openReadOnly(dir);
    }

    /** @throws CliInputException when {@code dir} holds no world */
    static void requireWorld(Path dir) {
        if (!World.exists(dir)) {
            String what = Files.exists(dir) ? "is not a Quiver world" : "does not exist";
            throw new CliInputException("world " + dir + " " + what + " (create one with 'quiver init " + dir + "')");
        }
    }

    /** Milliseconds since {@code startNanos}, with one decimal. */
    static String millisSince(long startNanos) {
        return String.format(java.util.Locale.ROOT, "%.1f ms", (System.nanoTime() - startNanos) / 1e6);
    }
}
