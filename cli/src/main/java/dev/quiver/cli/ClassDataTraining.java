package dev.quiver.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The training run the {@code quiver} launcher records its class-data-sharing archive from (it
 * lists the classes this run loads with {@code -XX:DumpLoadedClassList}, then dumps a static
 * archive of them): one JVM that runs the commonest commands on a scratch world, writes
 * ({@code init}, {@code add} of a trait, {@code load}), then the reads ({@code query} in three formats, a
 * transitive one among them, {@code show}, {@code stats}, {@code check}) and a refused command, so
 * that the classes each of them loads come from the archive instead of the jar. The archive holds
 * what one run loaded, hence this class: training with {@code load} alone left about 300 classes
 * of the query path to load at each start.
 *
 * <p>Not part of the command line: the launcher runs {@code java -Dquiver.classDataTraining=DIR
 * -jar quiver.jar} ({@link Quiver#main} hands over here), so the class path and the jar manifest's
 * {@code Add-Opens} are those of every later start, as the archive requires. Output is discarded;
 * the exit code is 0 when every command gave the exit code expected of it, else 1 (the launcher
 * then keeps no archive).
 */
public final class ClassDataTraining {
    private ClassDataTraining() {}

    /** The system property that makes {@link Quiver#main} run the training in directory DIR. */
    static final String PROPERTY = "quiver.classDataTraining";

    /**
     * Runs the training commands in {@code dir} (a scratch directory without a world).
     *
     * @return the exit code: 0 when each command exited as expected, else 1
     */
    static int train(Path dir) throws IOException {
        dev.quiver.index.ChronicleSupport.warmUpInBackground(); // as Quiver.main does for a subcommand
        Files.createDirectories(dir);
        Path tsv = dir.resolve("train.tsv");
        Files.writeString(tsv, "a\tKindOf\tb\nb\tKindOf\tc\nc\tKindOf\td\n", StandardCharsets.UTF_8);
        String world = dir.resolve("world").toString();
        boolean ok = run(ExitCodes.OK, "init", world)
                & run(ExitCodes.OK, "add", world, "KindOf", "Transitive")
                & run(ExitCodes.OK, "load", world, tsv.toString())
                & run(ExitCodes.OK, "query", world, "(KindOf, d)")
                & run(ExitCodes.OK, "query", world, "(KindOf, d)", "--format", "count")
                & run(ExitCodes.OK, "query", world, "(KindOf, $x)", "--format", "json")
                & run(ExitCodes.OK, "show", world, "a")
                & run(ExitCodes.OK, "stats", world)
                & run(ExitCodes.OK, "check", world)
                & run(ExitCodes.BAD_INPUT, "query", world, "(KindOf");
        return ok ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    private static boolean run(int expected, String... args) {
        PrintWriter sink = new PrintWriter(OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8);
        int code = Quiver.commandLine(sink, sink, false).execute(args);
        if (code != expected) {
            System.err.println("training: quiver " + String.join(" ", args) + " exited " + code + ", expected " + expected);
        }
        return code == expected;
    }
}
