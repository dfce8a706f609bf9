package dev.quiver.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * What the {@code rg1} and {@code graph} commands share: the working directory of the worlds they
 * create ({@code --dir}, {@code --keep}), the JSON file of figures ({@code --json}), the
 * description of the machine, and number formatting.
 */
abstract class BenchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;

    @Option(names = "--dir", paramLabel = "DIR",
            description = "Where the worlds are created: a missing or empty directory (default: a new temporary "
                    + "directory, removed at the end).")
    Path dir;

    @Option(names = "--keep", description = "Keep the (last) world and snapshot instead of removing them.")
    boolean keep;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the figures (medians) to FILE as JSON.")
    Path json;

    private boolean createdTemp;

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    /** Checks the options every command shares, before any work. */
    void checkCommonOptions() {
        if (json != null) {
            Path parent = json.toAbsolutePath().getParent();
            if (parent == null || !Files.isDirectory(parent)) {
                throw new BenchInputException("cannot write --json " + json + ": directory " + parent + " does not exist");
            }
            if (Files.isDirectory(json)) {
                throw new BenchInputException("cannot write --json " + json + ": it is a directory");
            }
        }
        if (dir != null) {
            if (Files.exists(dir) && !Files.isDirectory(dir)) {
                throw new BenchInputException("--dir " + dir + " is not a directory");
            }
            if (Files.isDirectory(dir) && !isEmpty(dir)) {
                throw new BenchInputException("--dir " + dir + " is not empty; give a new or empty directory");
            }
        }
    }

    /** Creates the working directory: {@code --dir}, or a new temporary directory. */
    Path workDirectory(String prefix) {
        try {
            if (dir != null) {
                return Files.createDirectories(dir);
            }
            createdTemp = true;
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new BenchInputException("cannot create a directory for the worlds: " + e);
        }
    }

    /** Removes what the run created under {@code work}, unless {@code --keep}. */
    void cleanUp(Path work, Path created) {
        if (keep) {
            return;
        }
        Machine.deleteTree(createdTemp ? work : created);
    }

    /** Writes {@code figures} to the {@code --json} file, when one was given. */
    void writeJson(Map<String, Object> figures) {
        if (json == null) {
            return;
        }
        try {
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(json.toFile(), figures);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + json + ": " + e.getMessage(), e);
        }
        out().println("figures written to " + json);
    }

    /** The machine, collections, JVM and load, as JSON fields. */
    static Map<String, Object> environment(String loadAtStart) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("peak_rss_bytes", Machine.peakRssBytes());
        m.put("date", ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
        m.put("gc", Machine.gcSummary());
        m.put("jvm", Machine.jvm());
        m.put("machine", Machine.machine());
        m.put("load_average_start", loadAtStart);
        m.put("load_average_end", Machine.loadAverage());
        return m;
    }

    /** Prints peak RSS, the collections so far, the JVM, the machine and the load averages. */
    void printEnvironment(String loadAtStart) {
        long rss = Machine.peakRssBytes();
        out().println(String.format(Locale.ROOT, "%-9s %s (%s bytes, VmHWM)", "peak RSS", Machine.bytes(rss), count(rss)));
        out().println(String.format(Locale.ROOT, "%-9s %s", "gc", Machine.gcSummary()));
        out().println(String.format(Locale.ROOT, "%-9s %s", "JVM", Machine.jvm()));
        out().println(String.format(Locale.ROOT, "%-9s %s", "machine", Machine.machine()));
        out().println(String.format(Locale.ROOT, "%-9s %s at start, %s at end (1, 5, 15 min)", "load avg",
                loadAtStart, Machine.loadAverage()));
    }

    /** Median and range of a figure: {@code 12.3 ms (11.9-13.0)}. */
    static String figure(Samples s, String unit) {
        if (s.size() == 1) {
            return num(s.median()) + " " + unit;
        }
        return num(s.median()) + " " + unit + " (" + num(s.min()) + "-" + num(s.max()) + ")";
    }

    /** A measurement with three or four significant digits. */
    static String num(double v) {
        double a = Math.abs(v);
        String f = a >= 1000 ? "%,.0f" : a >= 100 ? "%.1f" : a >= 10 ? "%.2f" : a >= 1 ? "%.3f" : "%.4f";
        return String.format(Locale.ROOT, f, v);
    }

    /** A count with thousands separators. */
    static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    private static boolean isEmpty(Path d) {
        try (Stream<Path> s = Files.list(d)) {
            return s.findAny().isEmpty();
        } catch (IOException e) {
            throw new BenchInputException("cannot read --dir " + d + ": " + e.getMessage());
        }
    }
}
