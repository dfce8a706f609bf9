package dev.quiver.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs every conformance case of the repository's test data through the CLI entry point
 * in-process, the way {@code testdata/conformance/run} runs a built jar: {@code quiver load} the
 * world's {@code .flecs} file into a fresh world, then {@code quiver query --queries-file
 * --format canonical}, and compares each query's block with the {@code .expected} block at the
 * runner's "answers" level (the same set of distinct {@code <this> | <vars>} rows, and
 * {@code error} exactly where the expected file has it). The "rows" and "strict" levels are
 * counted and printed for information.
 *
 * <p>Cases: {@code testdata/conformance/worlds} (the public cases, answers produced by real Flecs
 * v4.1.6) and {@code testdata/conformance/quiver-cases} (Quiver's own cases with hand-checked
 * answers, for the Flecs bugs E1-E3 of NOTES.md, where Flecs has no usable answer).
 *
 * <p>{@code testdata/conformance/known-failures.txt} lists the queries expected to fail today,
 * one per line ({@code world<TAB>query<TAB>reason}). The test fails when a query not on the list
 * fails, when a query on the list passes (remove it: the list only shrinks) and when a line names
 * no query of the corpus.
 */
class ConformanceTest {
    @TempDir
    Path tmp;

    /** The repository's conformance directory (system property {@code quiver.testdata}, else ../testdata). */
    static Path conformance() {
        String p = System.getProperty("quiver.testdata");
        List<Path> tries = new ArrayList<>();
        if (p != null) {
            tries.add(Path.of(p, "conformance"));
        }
        tries.add(Path.of("..", "testdata", "conformance"));
        for (Path path : tries) {
            if (Files.isRegularFile(path.resolve("known-failures.txt"))) {
                return path;
            }
        }
        throw new IllegalStateException("no conformance test data in " + tries
                + " (set -Dquiver.testdata to the repository's testdata directory)");
    }

    @Test
    void everyCaseAnswersLikeFlecsOrIsAKnownFailure() throws IOException {
        Path root = conformance();
        Map<String, String> known = knownFailures(root.resolve("known-failures.txt"));
        Set<String> failing = new LinkedHashSet<>();
        Set<String> all = new LinkedHashSet<>();
        Map<String, String> details = new HashMap<>();
        int total = 0, strict = 0, rows = 0, answers = 0;
        StringBuilder report = new StringBuilder("conformance (answers level; rows and strict for information)\n");
        for (String dirName : List.of("worlds", "quiver-cases")) {
            for (Path flecs : flecsFiles(root.resolve(dirName))) {
                String world = flecs.getFileName().toString().replaceFirst("\\.flecs$", "");
                Path base = flecs.getParent();
                List<String> queries = QueryCommand.readCanonicalQueries(base.resolve(world + ".queries"));
                Map<String, List<String>> expected = blocks(Files.readString(base.resolve(world + ".expected"), StandardCharsets.UTF_8));
                Map<String, List<String>> actual = run(world, flecs, base.resolve(world + ".queries"));
                int worldFailed = 0;
                for (String q : queries) {
                    total++;
                    String key = world + "\t" + q;
                    all.add(key);
                    List<String> exp = expected.get(q);
                    assertTrue(exp != null, () -> world + ".expected has no block for: " + q);
                    boolean[] lv = levels(exp, actual.get(q));
                    strict += lv[0] ? 1 : 0;
                    rows += lv[1] ? 1 : 0;
                    answers += lv[2] ? 1 : 0;
                    if (!lv[2]) {
                        worldFailed++;
                        failing.add(key);
                        details.put(key, "expected: " + String.join(" / ", exp) + "\n      actual:   "
                                + (actual.containsKey(q) ? String.join(" / ", actual.get(q)) : "(no block)"));
                    }
                }
                report.append(String.format("  %-32s %3d queries, %3d passed, %3d failed%n", world, queries.size(),
                        queries.size() - worldFailed, worldFailed));
            }
        }
        report.append(String.format("levels: strict %d/%d, rows %d/%d, answers %d/%d%n", strict, total, rows, total, answers, total));
        report.append(String.format("conformance: %d passed, %d failed (%d known failures listed)%n", total - failing.size(),
                failing.size(), known.size()));
        System.out.print(report);

        List<String> problems = new ArrayList<>();
        for (String key : failing) {
            if (!known.containsKey(key)) {
                problems.add("fails and is not in known-failures.txt: " + key.replace("\t", ": ") + "\n      " + details.get(key));
            }
        }
        for (String key : known.keySet()) {
            if (!all.contains(key)) {
                problems.add("known-failures.txt names no query of the corpus: " + key.replace("\t", ": "));
            } else if (!failing.contains(key)) {
                problems.add("passes now: remove it from known-failures.txt: " + key.replace("\t", ": "));
            }
        }
        if (!problems.isEmpty()) {
            fail(problems.size() + " conformance problem(s):\n  " + String.join("\n  ", problems));
        }
    }

    /** Loads one world and runs its queries file through the CLI; the query blocks by query text. */
    private Map<String, List<String>> run(String world, Path flecs, Path queries) {
        Path dir = tmp.resolve(world);
        CliRunner.Run load = CliRunner.run("load", dir.toString(), flecs.toString());
        if (load.exit() != 0) {
            fail(world + ": load exited " + load.exit() + ": " + load.err());
        }
        CliRunner.Run q = CliRunner.run("query", dir.toString(), "--queries-file", queries.toString(), "--format", "canonical");
        if (q.exit() != 0) {
            fail(world + ": query exited " + q.exit() + ": " + q.err());
        }
        return blocks(q.out());
    }

    private static List<Path> flecsFiles(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".flecs")).sorted().collect(Collectors.toList());
        }
    }

    /**
     * Splits canonical output into its blocks by query text (the first block of a repeated query
     * wins), without empty lines: as the conformance runner's parse_blocks.
     */
    static Map<String, List<String>> blocks(String text) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        List<String> cur = null;
        for (String line : text.split("\n", -1)) {
            if (line.startsWith("query: ")) {
                String q = line.substring("query: ".length());
                cur = out.containsKey(q) ? null : new ArrayList<>();
                if (cur != null) {
                    out.put(q, cur);
                }
            } else if (cur != null && !line.isEmpty()) {
                cur.add(line);
            }
        }
        return out;
    }

    /** {strict, rows, answers} for one query's block lines, as the conformance runner's levels(). */
    static boolean[] levels(List<String> expected, List<String> actual) {
        if (actual == null) {
            return new boolean[3];
        }
        boolean strict = expected.equals(actual);
        boolean expErr = expected.equals(List.of("error")), actErr = actual.equals(List.of("error"));
        if (expErr || actErr) {
            return new boolean[] {strict, expErr == actErr, expErr == actErr};
        }
        Set<String> expRows = rowSet(expected), actRows = rowSet(actual);
        boolean rows = expRows.equals(actRows);
        boolean answers = answerSet(expRows).equals(answerSet(actRows));
        return new boolean[] {strict, rows, answers};
    }

    private static Set<String> rowSet(List<String> lines) {
        Set<String> s = new TreeSet<>();
        for (String l : lines) {
            if (!l.startsWith("count: ")) {
                s.add(l);
            }
        }
        return s;
    }

    /** The '<this> | <vars>' part of each row. */
    private static Set<String> answerSet(Set<String> rows) {
        Set<String> s = new TreeSet<>();
        for (String r : rows) {
            String[] parts = r.split(" \\| ", -1);
            s.add(parts.length >= 2 ? parts[0] + " | " + parts[1] : parts[0]);
        }
        return s;
    }

    /** {@code world<TAB>query} to reason; blank lines and lines starting with # are comments. */
    static Map<String, String> knownFailures(Path file) throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] parts = line.split("\t", -1);
            if (parts.length != 3 || parts[0].isBlank() || parts[1].isBlank() || parts[2].isBlank()) {
                fail(file + ":" + (i + 1) + ": expected world<TAB>query<TAB>reason, got: " + line);
            }
            if (out.put(parts[0] + "\t" + parts[1], parts[2]) != null) {
                fail(file + ":" + (i + 1) + ": listed twice: " + parts[0] + ": " + parts[1]);
            }
        }
        return out;
    }
}
