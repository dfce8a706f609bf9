package dev.quiver.cli;

import dev.quiver.snapshots.TsvLoader;
import dev.quiver.storage.World;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/**
 * {@code quiver demo}: the README's first command. Loads the WordNet 3.0 noun graph shipped in
 * {@code examples/wordnet} into a world (once; later runs reuse it) and prints the answers of
 * transitive queries with their expected counts and timings.
 */
@Command(name = "demo", header = "Load the WordNet noun graph and answer transitive queries.",
        description = {"Creates WORLD (default ./worlds/wordnet) if it is missing: declares KindOf, InstanceOf, "
                + "PartOf, MemberOf and SubstanceOf Transitive and Lexname Exclusive, and loads "
                + "examples/wordnet/*.tsv.gz (one transaction per file). An existing world is reused. Then runs "
                + "transitive queries and prints each count (checked against the known answer), the first "
                + "rows and the time. Exit 1 if a count differs from the known answer."})
final class DemoCommand extends BaseCommand {
    /** Relationships the demo declares Transitive. */
    static final List<String> TRANSITIVE = List.of("KindOf", "InstanceOf", "PartOf", "MemberOf", "SubstanceOf");

    /** The relationship the demo declares Exclusive. */
    static final String EXCLUSIVE = "Lexname";

    /** The files, in load order. */
    static final List<String> FILES = List.of("wordnet_nouns.tsv.gz", "wordnet_noun_lexnames.tsv.gz");

    /** The demo queries and their known answers (from the data set's answers.tsv). */
    static final List<Map.Entry<String, Long>> QUERIES = List.of(
            Map.entry("(KindOf, dog_n_01)", 189L),
            Map.entry("KindOf(dog_n_01, $x)", 14L),
            Map.entry("(Lexname, noun_animal), !(KindOf, animal_n_01)", 3516L),
            Map.entry("(KindOf, entity_n_01)", 74373L),
            Map.entry("(KindOf, animal_n_01), !(Lexname, noun_animal)", 5L),
            Map.entry("KindOf(toy_poodle_n_01, entity_n_01)", 1L),
            Map.entry("(PartOf, europe_n_01)", 648L),
            Map.entry("PartOf(paris_n_01, $x)", 6L),
            Map.entry("MemberOf(dog_n_01, $x)", 9L),
            Map.entry("(InstanceOf, city_n_01)", 661L));

    private static final int SHOWN = 5;

    @Option(names = "--world", paramLabel = "DIR", defaultValue = "worlds/wordnet",
            description = "The world directory (default: ${DEFAULT-VALUE}, relative to the current directory).")
    Path world;

    @Option(names = "--examples", paramLabel = "DIR",
            description = "The directory holding the WordNet files (default: examples/wordnet of the Quiver "
                    + "checkout, found from -Dquiver.home, $QUIVER_HOME or the jar's location).")
    Path examples;

    @Override
    public Integer call() {
        long start = System.nanoTime();
        Path dir = examples != null ? examples : findExamples();
        List<Path> files = new ArrayList<>();
        for (String f : FILES) {
            files.add(dir.resolve(f));
        }
        Loads.requireReadable(files);
        out().println("Quiver demo: WordNet 3.0 nouns (" + dir.normalize() + "; license in LICENSE-WordNet-3.0.txt)");
        try (World w = prepare(files)) {
            out().println();
            int mismatches = 0;
            for (Map.Entry<String, Long> q : QUERIES) {
                mismatches += printAnswer(w, q.getKey(), q.getValue()) ? 0 : 1;
            }
            out().println();
            out().println(QUERIES.size() + " queries, " + (mismatches == 0 ? "every count as expected"
                    : mismatches + " counts DIFFER from the known answers") + ".");
            out().println("Total: " + millis(System.nanoTime() - start) + " in this command, "
                    + millis(sinceJvmStart()) + " since the JVM started.");
            if (mismatches > 0) {
                out().flush();
                err().println("quiver: " + mismatches + " of " + QUERIES.size()
                        + " demo answers differ from the known counts");
                return ExitCodes.FAILURE;
            }
            return ExitCodes.OK;
        }
    }

    /** Opens the demo world, creating and loading it as needed. */
    private World prepare(List<Path> files) {
        if (World.exists(world)) {
            World w;
            try {
                w = World.openReadOnly(world);
            } catch (dev.quiver.storage.WorldFormatException e) {
                // the demo's own world, written by another build: keep it aside and load it again
                Path aside = world.resolveSibling(world.getFileName() + ".other-format-" + System.currentTimeMillis());
                try {
                    Files.move(world, aside);
                } catch (java.io.IOException io) {
                    throw new dev.quiver.error.StorageIOException("cannot move the world at " + world + " aside: "
                            + io.getMessage(), io);
                }
                out().println("The world at " + world + " was written by another Quiver build (" + e.getMessage()
                        + "); moved it to " + aside + " and loading it again.");
                return prepare(files);
            }
            if (declared(w) && missing(w, files).isEmpty()) {
                out().println("Reusing the world at " + world + " (" + w.entityCount()
                        + " entities); delete that directory to load it again.");
                return w;
            }
            w.close();
            out().println("Completing the world at " + world + ":");
            World writer = World.open(world);
            try {
                declare(writer);
                Loads.load(writer, missing(writer, files), interactive(), out(), "  ");
            } catch (RuntimeException e) {
                writer.close();
                throw e;
            }
            return writer;
        }
        out().println("Creating a world at " + world + ":");
        boolean dirExisted = Files.exists(world);
        World w = World.create(world);
        try {
            declare(w);
            Loads.load(w, files, interactive(), out(), "  ");
            return w;
        } catch (RuntimeException e) {
            w.close();
            Loads.undoCreate(world, dirExisted);
            throw e;
        }
    }

    private void declare(World w) {
        w.transaction(tx -> {
            long transitive = tx.id("Transitive");
            for (String r : TRANSITIVE) {
                tx.add(tx.entity(r), transitive);
            }
            tx.add(tx.entity(EXCLUSIVE), tx.id("Exclusive"));
        });
        out().println("  declared " + String.join(", ", TRANSITIVE) + " Transitive; " + EXCLUSIVE + " Exclusive");
    }

    private static boolean declared(World w) {
        for (String r : TRANSITIVE) {
            long e = w.lookup(r);
            if (e == 0 || !w.has(e, w.id("Transitive"))) {
                return false;
            }
        }
        long x = w.lookup(EXCLUSIVE);
        return x != 0 && w.has(x, w.id("Exclusive"));
    }

    /**
     * The files whose pairs are not in the world yet. Each file loads as one transaction, so a file
     * is loaded exactly when its first pair is present.
     */
    private static List<Path> missing(World w, List<Path> files) {
        List<Path> out = new ArrayList<>();
        for (Path f : files) {
            String[] first = TsvLoader.firstPair(f);
            if (first == null) {
                continue;
            }
            long s = w.lookup(first[0]);
            long r = w.lookup(first[1]);
            long t = w.lookup(first[2]);
            if (s == 0 || r == 0 || t == 0 || !w.has(s, w.pair(r, t))) {
                out.add(f);
            }
        }
        return out;
    }

    /** Prints one query's answer; returns whether the count is the expected one. */
    private boolean printAnswer(World w, String query, long expected) {
        Answer a = Answer.evaluate(w, query, SHOWN, false);
        boolean ok = a.count == expected;
        out().println(query);
        out().println("  " + a.count + (a.count == 1 ? " result" : " results") + " in "
                + String.format(Locale.ROOT, "%.1f ms", a.millis())
                + (ok ? " (expected " + expected + ")" : "  MISMATCH: expected " + expected));
        if (!a.rows.isEmpty()) {
            StringJoiner shown = new StringJoiner(", ", "  " + (a.truncated() ? "first " + a.rows.size() + ": " : ""), "");
            for (Answer.Row r : a.rows) {
                shown.add(describe(a, r));
            }
            out().println(shown);
        }
        out().flush();
        return ok;
    }

    /** A row as its {@code $this} entity, its variables, or (for a yes/no query) "yes". */
    private static String describe(Answer a, Answer.Row r) {
        StringJoiner j = new StringJoiner(" ");
        if (a.hasThis) {
            j.add(r.self());
        }
        r.vars().forEach((k, v) -> j.add(a.hasThis || r.vars().size() > 1 ? "$" + k + "=" + v : v));
        return j.length() == 0 ? "yes (a path exists)" : j.toString();
    }

    /**
     * The examples/wordnet directory: from -Dquiver.home, $QUIVER_HOME, the jar's location
     * ({@code cli/target/quiver.jar} sits two levels below the checkout) or the current directory.
     */
    static Path findExamples() {
        List<Path> candidates = new ArrayList<>();
        String prop = System.getProperty("quiver.home");
        if (prop != null && !prop.isBlank()) {
            candidates.add(Path.of(prop));
        }
        String env = System.getenv("QUIVER_HOME");
        if (env != null && !env.isBlank()) {
            candidates.add(Path.of(env));
        }
        try {
            var source = DemoCommand.class.getProtectionDomain().getCodeSource();
            if (source != null) {
                Path p = Path.of(source.getLocation().toURI()).toAbsolutePath();
                for (int i = 0; i < 4 && p.getParent() != null; i++) {
                    p = p.getParent();
                    candidates.add(p);
                }
            }
        } catch (URISyntaxException | IllegalArgumentException | SecurityException e) {
            // not loaded from a file: rely on the other candidates
        }
        candidates.add(Path.of("").toAbsolutePath());
        for (Path home : candidates) {
            Path dir = home.resolve("examples").resolve("wordnet");
            if (Files.isRegularFile(dir.resolve(FILES.get(0)))) {
                return dir;
            }
        }
        throw new CliInputException("cannot find examples/wordnet (looked in " + candidates
                + "); set QUIVER_HOME to the Quiver checkout or pass --examples DIR");
    }

    private static String millis(long nanos) {
        return String.format(Locale.ROOT, "%.2f s", nanos / 1e9);
    }

    /** Nanoseconds since the JVM started (its start time has millisecond resolution). */
    private static long sinceJvmStart() {
        return (System.currentTimeMillis() - ManagementFactory.getRuntimeMXBean().getStartTime()) * 1_000_000L;
    }
}
