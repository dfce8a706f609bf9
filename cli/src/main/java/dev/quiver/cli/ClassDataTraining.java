package dev.quiver.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The training runs the {@code quiver} launcher records its class-data-sharing archives from (it
 * lists the classes a run loads with {@code -XX:DumpLoadedClassList}, then dumps a static archive
 * of them). An archive holds what one run loaded, hence this class: training with {@code load}
 * alone left about 300 classes of the query path to load at each start. There are two sets:
 * <ul>
 *   <li>{@link #ALL}, for the general archive: one JVM that runs the commonest commands on a
 *   scratch world, writes ({@code init}, {@code add} of a trait, {@code load}), then the reads
 *   ({@code query} in three formats, JSON and a transitive one among them, {@code show},
 *   {@code stats}, {@code check}) and a refused command. It leaves the world in DIR/world.</li>
 *   <li>{@link #READ}, for the archive of the reading verbs without a JSON format: only those
 *   commands ({@code query} in the table, count, CSV and TSV formats, {@code show}, {@code stats},
 *   {@code targets}, {@code sources}, a refused query and query's help), on the world an
 *   {@link #ALL} run left in the same DIR. Its archive is about a fifth smaller (no write path, no
 *   Jackson), and mapping an archive costs the JVM in proportion to its size: relocating its
 *   pointers was most of the JVM's own start-up.</li>
 * </ul>
 *
 * <p>Not part of the command line: the launcher runs {@code java -Dquiver.classDataTraining=DIR
 * [-Dquiver.classDataTraining.set=read] -jar quiver.jar} ({@link Quiver#main} hands over here), so
 * the class path and the jar manifest's {@code Add-Opens} are those of every later start, as the
 * archive requires. Each command is built as {@link Quiver#main} builds it
 * ({@link Quiver#commandLineFor}), so the classes loaded are those of a real start. Output is
 * discarded; the exit code is 0 when every command gave the exit code expected of it, else 1
 * (the launcher then keeps no archive).
 */
public final class ClassDataTraining {
    private ClassDataTraining() {}

    /** The system property that makes {@link Quiver#main} run the training in directory DIR. */
    static final String PROPERTY = "quiver.classDataTraining";

    /** The system property naming the set of commands to run: {@link #ALL} (the default) or {@link #READ}. */
    static final String SET_PROPERTY = "quiver.classDataTraining.set";

    /** Nodes of the training world's PartOf tree. */
    static final int TREE_NODES = 2000;

    /** The set of the general archive: writes and reads on a new world in DIR/world. */
    static final String ALL = "all";

    /** The set of the reading verbs' archive: reads without a JSON format, on the world of an {@link #ALL} run. */
    static final String READ = "read";

    /**
     * Runs the training set named {@code set} in {@code dir}.
     *
     * @return the exit code: 0 when each command exited as expected, else 1
     * @throws IllegalArgumentException when {@code set} is neither {@link #ALL} nor {@link #READ}
     */
    static int train(Path dir, String set) throws IOException {
        if (ALL.equals(set)) {
            return train(dir);
        }
        if (READ.equals(set)) {
            return trainReads(dir);
        }
        throw new IllegalArgumentException("unknown class-data training set '" + set + "' (expected " + ALL + " or " + READ + ")");
    }

    /**
     * Runs the {@link #ALL} training commands in {@code dir} (a scratch directory without a world).
     *
     * @return the exit code: 0 when each command exited as expected, else 1
     */
    static int train(Path dir) throws IOException {
        dev.quiver.index.ChronicleSupport.warmUpInBackground(); // as Quiver.main does for a subcommand
        Files.createDirectories(dir);
        Path tsv = dir.resolve("train.tsv");
        StringBuilder lines = new StringBuilder("a\tKindOf\tb\nb\tKindOf\tc\nc\tKindOf\td\n");
        // and a tree of PartOf pairs, enough pages for a generation file of several Chronicle
        // segments, as a real world's (one segment leaves classes of a real open out of the archive)
        for (int i = 1; i < TREE_NODES; i++) {
            lines.append('n').append(i).append("\tPartOf\tn").append(i / 3).append('\n');
        }
        Files.writeString(tsv, lines, StandardCharsets.UTF_8);
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

    /**
     * Runs the {@link #READ} training commands on {@code dir}/world, the world an {@link #ALL} run
     * left there; fails (1) when there is none.
     */
    static int trainReads(Path dir) {
        dev.quiver.index.ChronicleSupport.warmUpInBackground();
        String world = dir.resolve("world").toString();
        boolean ok = run(ExitCodes.OK, "query", world, "(KindOf, d)")
                & run(ExitCodes.OK, "query", world, "(KindOf, d)", "--format", "count")
                & run(ExitCodes.OK, "query", world, "(KindOf, $x)", "--format", "csv")
                & run(ExitCodes.OK, "query", world, "KindOf(a, $x)", "--format", "tsv")
                & run(ExitCodes.OK, "show", world, "a")
                & run(ExitCodes.OK, "stats", world)
                & run(ExitCodes.OK, "targets", world, "a", "KindOf")
                & run(ExitCodes.OK, "sources", world, "KindOf", "d")
                & run(ExitCodes.BAD_INPUT, "query", world, "(KindOf")
                & run(ExitCodes.OK, "query", "-h");
        return ok ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    private static boolean run(int expected, String... args) {
        PrintWriter sink = new PrintWriter(OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8);
        int code = Quiver.commandLineFor(sink, sink, false, args).execute(args);
        if (code != expected) {
            System.err.println("training: quiver " + String.join(" ", args) + " exited " + code + ", expected " + expected);
        }
        return code == expected;
    }
}
