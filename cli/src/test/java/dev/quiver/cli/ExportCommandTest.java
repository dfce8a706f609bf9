package dev.quiver.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static dev.quiver.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExportCommandTest {
    @TempDir
    Path tmp;

    private String w;

    @BeforeEach
    void world() {
        w = tmp.resolve("w").toString();
        run("init", w).ok();
        run("add", w, "DependsOn", "Transitive").ok();
        run("add", w, "app", "(DependsOn, lib)").ok();
        run("add", w, "lib", "(DependsOn, libc)").ok();
        run("add", w, "app", "(Recommends, doc)").ok();
        run("component", w, "Size", "kb:i64").ok();
        run("set", w, "lib", "Size", "{\"kb\": 120}").ok();
    }

    private static Set<String> lines(Path file) throws IOException {
        List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
        return new TreeSet<>(all.subList(1, all.size()));
    }

    private static String header(Path file) throws IOException {
        return Files.readAllLines(file, StandardCharsets.UTF_8).get(0);
    }

    @Test
    void csvExportHoldsEveryEntityAndPair() throws IOException {
        Path out = tmp.resolve("out");
        String printed = run("export", w, out.toString(), "--format", "csv").ok().out();
        assertTrue(printed.startsWith("exported " + w + " to " + out + " (csv): 7 vertices, 3 edges, "), printed);
        assertEquals("id,name,path,Size.kb", header(out.resolve("vertices.csv")));
        Set<String> names = lines(out.resolve("vertices.csv")).stream().map(l -> l.split(",")[2]).collect(Collectors.toSet());
        assertEquals(Set.of("DependsOn", "Recommends", "Size", "app", "lib", "libc", "doc"), names);
        assertTrue(lines(out.resolve("vertices.csv")).stream().anyMatch(l -> l.endsWith(",lib,lib,120")));
        assertEquals("src,dst,relationship", header(out.resolve("edges.csv")));
        Set<String> rels = lines(out.resolve("edges.csv")).stream().map(l -> l.split(",")[2]).collect(Collectors.toSet());
        assertEquals(Set.of("DependsOn", "Recommends"), rels);
    }

    @Test
    void parquetIsTheDefault() throws IOException {
        Path out = tmp.resolve("out");
        run("export", w, out.toString()).ok();
        try (Stream<Path> s = Files.list(out)) {
            assertEquals(Set.of("edges.parquet", "vertices.parquet"),
                    s.map(p -> p.getFileName().toString()).collect(Collectors.toSet()));
        }
        byte[] magic = "PAR1".getBytes(StandardCharsets.US_ASCII);
        byte[] file = Files.readAllBytes(out.resolve("vertices.parquet"));
        assertArrayEquals(magic, Arrays.copyOf(file, 4));
        assertArrayEquals(magic, Arrays.copyOfRange(file, file.length - 4, file.length));
    }

    @Test
    void relationshipAndQueryLimitTheTables() throws IOException {
        Path out = tmp.resolve("out");
        // the transitive query returns app and lib; only the DependsOn edge between them remains
        String printed = run("export", w, out.toString(), "--format", "csv", "--relationship", "DependsOn,Recommends",
                "--query", "(DependsOn, libc)").ok().out();
        assertTrue(printed.contains(": 2 vertices, 1 edges, "), printed);
        Set<String> edges = lines(out.resolve("edges.csv"));
        assertEquals(1, edges.size());
        assertTrue(edges.iterator().next().endsWith(",DependsOn"), edges.toString());

        Path out2 = tmp.resolve("out2");
        printed = run("export", w, out2.toString(), "--format", "csv", "--relationship", "Recommends").ok().out();
        assertTrue(printed.contains(": 7 vertices, 1 edges, "), printed);
    }

    @Test
    void badInputsExitTwoAndWriteNothing() throws IOException {
        Path out = tmp.resolve("out");
        run("export", w, out.toString(), "--relationship", "Hates").badInput("unknown relationship 'Hates'");
        run("export", w, out.toString(), "--query", "(DependsOn, ").badInput("column");
        run("export", w, out.toString(), "--query", "(DependsOn, nothing)").badInput("nothing");
        run("export", w, out.toString(), "--query", "DependsOn(app, $x)").badInput("$this");
        run("export", w, out.toString(), "--format", "xml").badInput("unknown export format 'xml'");
        run("export", tmp.resolve("nope").toString(), out.toString()).badInput("does not exist");
        assertFalse(Files.exists(out));
        Files.createDirectory(out);
        Files.writeString(out.resolve("x"), "x");
        run("export", w, out.toString()).badInput("not empty");
        try (Stream<Path> s = Files.list(tmp)) {
            assertEquals(Set.of("out", "w"), s.map(p -> p.getFileName().toString()).collect(Collectors.toSet()));
        }
    }

    @Test
    void anEmptyWorldExportsHeaders() throws IOException {
        String empty = tmp.resolve("empty").toString();
        run("init", empty).ok();
        Path out = tmp.resolve("out");
        assertTrue(run("export", empty, out.toString(), "--format", "CSV").ok().out().contains(": 0 vertices, 0 edges"));
        assertEquals(List.of("id,name,path"), Files.readAllLines(out.resolve("vertices.csv")));
        assertEquals(List.of("src,dst,relationship"), Files.readAllLines(out.resolve("edges.csv")));
    }
}
