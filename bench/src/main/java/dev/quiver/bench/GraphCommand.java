package dev.quiver.bench;

import dev.quiver.index.Ids;
import dev.quiver.query.Query;
import dev.quiver.query.UnknownQueryNameException;
import dev.quiver.snapshots.TsvLoader;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.World;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code quiver-bench graph}: loads real pair files (TSV, plain or gzip) into a new world, declares
 * relationships Transitive, and runs queries: load time, bytes on disk, and per query the median
 * time (parse plus iteration of every result) and the count, checked against the expected counts
 * of an answers file.
 */
@Command(name = "graph", header = "Load a real graph (TSV pair files) and time queries on it.",
        description = {"Loads FILE... (subject<TAB>relationship<TAB>target, plain or gzip; one transaction per file) "
                + "into a new world, declares the --transitive relationships Transitive, then runs each --query and "
                + "each line of --answers (query<TAB>expected_count, as ../shared/data/answers.tsv; lines naming "
                + "entities this graph lacks are skipped). Prints load time, bytes on disk and per query the median "
                + "(min-max) time and the count. A count that differs from its expected one exits 1."})
final class GraphCommand extends BenchCommand {
    @Parameters(arity = "1..*", paramLabel = "FILE", description = "TSV pair files (.tsv or .tsv.gz), loaded in order.")
    List<Path> files = new ArrayList<>();

    @Option(names = "--transitive", split = ",", paramLabel = "R",
            description = "Relationships to declare Transitive after the load, comma-separated.")
    List<String> transitive = new ArrayList<>();

    @Option(names = "--query", paramLabel = "Q", description = "A query to time (repeatable).")
    List<String> queries = new ArrayList<>();

    @Option(names = "--answers", paramLabel = "FILE",
            description = "A file of query<TAB>expected_count lines (header optional) to time and check.")
    Path answers;

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "5",
            description = "Runs of each query (default ${DEFAULT-VALUE}).")
    int repeat;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "3",
            description = "Untimed rounds over every query before any is timed, so that the times are "
                    + "those of a warm JVM (default ${DEFAULT-VALUE}).")
    int warmup;

    /** One query to run: its text and its expected count (-1 when none). */
    private record Job(String text, long expected) {}

    @Override
    public Integer call() {
        for (Path f : files) {
            requireFile(f);
        }
        if (answers != null) {
            requireFile(answers);
        }
        if (repeat < 1) {
            throw new BenchInputException("--repeat must be at least 1, got " + repeat);
        }
        if (warmup < 0) {
            throw new BenchInputException("--warmup must be at least 0, got " + warmup);
        }
        checkCommonOptions();
        List<Job> jobs = new ArrayList<>();
        for (String q : queries) {
            jobs.add(new Job(q, -1));
        }
        List<Job> answerJobs = answers == null ? List.of() : readAnswers(answers);
        String loadAtStart = Machine.loadAverage();
        Path work = workDirectory("quiver-bench-graph-");
        Path worldDir = work.resolve("world");
        try (World w = World.create(worldDir)) {
            long t0 = System.nanoTime();
            long lines = 0;
            for (Path f : files) {
                lines += new TsvLoader(w).load(f).lines();
            }
            double loadS = (System.nanoTime() - t0) / 1e9;
            declareTransitive(w);
            long disk = Machine.directoryBytes(worldDir);
            long allocated = Machine.allocatedBytes(worldDir);
            out().println("graph " + files + ": " + count(lines) + " pairs, " + count(w.entityCount()) + " entities"
                    + (transitive.isEmpty() ? "" : "; Transitive: " + String.join(", ", transitive)));
            out().println(String.format(Locale.ROOT, "%-9s %s, %s pairs/s; on disk %s (%s bytes), allocated %s",
                    "load", num(loadS) + " s", num(lines / loadS), Machine.bytes(disk), count(disk),
                    Machine.bytes(allocated)));
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("files", files.toString());
            m.put("transitive", String.join(",", transitive));
            m.put("pairs", lines);
            m.put("entities", w.entityCount());
            m.put("load_s", loadS);
            m.put("disk_bytes", disk);
            m.put("disk_allocated_bytes", allocated);
            m.put("warmup_rounds", warmup);
            List<Map<String, Object>> results = new ArrayList<>();
            List<Job> runnable = new ArrayList<>(jobs);
            for (Job j : jobs) {
                Query.parse(w, j.text); // an unknown name in --query is bad input
            }
            int skipped = 0;
            for (Job j : answerJobs) {
                try {
                    Query.parse(w, j.text);
                    runnable.add(j);
                } catch (UnknownQueryNameException e) {
                    skipped++;
                }
            }
            for (int round = 0; round < warmup; round++) {
                for (Job j : runnable) {
                    Query.parse(w, j.text).forEach(r -> { });
                }
            }
            out().println(String.format(Locale.ROOT, "query times: median (min-max) of %d runs after %d warm-up "
                    + "rounds, parse + iterate every result", repeat, warmup));
            int mismatches = 0;
            for (Job j : runnable) {
                mismatches += run(w, Query.parse(w, j.text), j, results) ? 0 : 1;
            }
            if (answers != null) {
                out().println(answers + ": " + (answerJobs.size() - skipped) + " queries run, " + skipped
                        + " skipped (they name entities this graph does not have)");
            }
            m.put("queries", results);
            printEnvironment(loadAtStart);
            m.putAll(environment(loadAtStart));
            writeJson(m);
            if (mismatches > 0) {
                throw new CheckFailedException(mismatches + " quer" + (mismatches == 1 ? "y" : "ies")
                        + " returned another count than expected");
            }
            out().println("every count as expected");
            return QuiverBench.OK;
        } finally {
            cleanUp(work, worldDir);
        }
    }

    /** Declares each --transitive relationship Transitive; it must be a relationship of the loaded pairs. */
    private void declareTransitive(World w) {
        for (String r : transitive) {
            long e = r.isBlank() ? 0 : w.lookup(r.trim());
            if (e == 0 || w.tableAccess().tables(Ids.pair(e, Ids.WILDCARD)).isEmpty()) {
                throw new BenchInputException("unknown relationship '" + r + "': no pair of " + files + " uses it");
            }
            w.add(e, Builtin.TRANSITIVE);
        }
    }

    /** Times one query; prints its line; returns false when its count differs from the expected one. */
    private boolean run(World w, Query first, Job j, List<Map<String, Object>> results) {
        Samples ms = new Samples();
        Samples cpu = new Samples();
        long rows = -1;
        for (int i = 0; i < repeat; i++) {
            long c0 = Machine.threadCpuNanos();
            long t0 = System.nanoTime();
            Query q = i == 0 ? first : Query.parse(w, j.text);
            long[] n = {0};
            q.forEach(r -> n[0]++);
            ms.add((System.nanoTime() - t0) / 1e6);
            cpu.add((Machine.threadCpuNanos() - c0) / 1e6);
            if (rows >= 0 && n[0] != rows) {
                throw new CheckFailedException("query " + j.text + " gave " + rows + " then " + n[0] + " results");
            }
            rows = n[0];
        }
        CheckFailedException.check("count() of " + j.text, first.count(), rows);
        boolean ok = j.expected < 0 || rows == j.expected;
        String check = j.expected < 0 ? "" : ok ? "= expected" : "MISMATCH: expected " + count(j.expected);
        out().println(String.format(Locale.ROOT, "  %-28s %12s  %-24s %s (thread CPU %s)", figure(ms, "ms"), count(rows), check,
            j.text, figure(cpu, "ms")));
        out().flush();
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("query", j.text);
        r.put("count", rows);
        if (j.expected >= 0) {
            r.put("expected", j.expected);
        }
        r.put("median_ms", ms.median());
        r.put("min_ms", ms.min());
        r.put("max_ms", ms.max());
        r.put("median_cpu_ms", cpu.median());
        results.add(r);
        return ok;
    }

    private static List<Job> readAnswers(Path file) {
        List<Job> out = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int no = 0;
            while ((line = in.readLine()) != null) {
                no++;
                if (line.isBlank() || line.startsWith("#") || (no == 1 && line.startsWith("query\t"))) {
                    continue;
                }
                String[] f = line.split("\t");
                long expected;
                try {
                    expected = f.length == 2 ? Long.parseLong(f[1].trim()) : -1;
                } catch (NumberFormatException e) {
                    expected = -1;
                }
                if (expected < 0) {
                    throw new BenchInputException(file + ":" + no + ": expected query<TAB>expected_count");
                }
                out.add(new Job(f[0], expected));
            }
        } catch (IOException e) {
            throw new BenchInputException("cannot read " + file + ": " + e.getMessage());
        }
        return out;
    }

    private static void requireFile(Path f) {
        if (!Files.isRegularFile(f)) {
            throw new BenchInputException("file " + f + (Files.exists(f) ? " is not a regular file" : " does not exist"));
        }
    }
}
