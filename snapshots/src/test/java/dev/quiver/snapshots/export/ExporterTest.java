package dev.quiver.snapshots.export;

import dev.quiver.error.BadInputException;
import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;
import dev.quiver.storage.World;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExporterTest {
    @TempDir
    Path tmp;

    private World w;
    private long anon;
    private static final String TEXT = "a, \"quoted\"\nline";

    /**
     * A small world with every field type, a string that needs CSV quoting, a hierarchy, a tag, an
     * anonymous entity, a pair carrying data and a trait pair on a builtin target.
     */
    @BeforeEach
    void makeWorld() {
        w = World.create(tmp.resolve("w"));
        w.transaction(tx -> {
            long pos = tx.component("Position", Schema.of("x", FieldType.F64, "y", FieldType.F64));
            long info = tx.component("Info", Schema.of("text", FieldType.STRING, "n", FieldType.I32, "ok", FieldType.BOOL,
                    "w", FieldType.F32, "big", FieldType.I64, "ref", FieldType.ENTITY));
            long distance = tx.component("Distance", Schema.of("km", FieldType.F64));
            long likes = tx.entity("Likes");
            tx.add(tx.entity("KindOf"), tx.id("Transitive"));
            long bob = tx.entity("bob");
            long alice = tx.entity("alice");
            tx.add(bob, tx.pair(likes, alice));
            tx.add(tx.entity("house.kitchen"), tx.ensureId("(KindOf, room)"));
            tx.set(alice, pos, Map.of("x", 1.5, "y", -2.0));
            long carol = tx.entity("carol");
            tx.set(carol, info, Map.of("text", TEXT, "n", 7, "ok", true, "w", 0.5f, "big", 1L << 40, "ref", alice));
            tx.set(bob, tx.pair(distance, tx.resolve("house")), Map.of("km", 3.5));
            anon = tx.entity();
            tx.add(anon, tx.entity("Red"));
            tx.add(anon, tx.pair(likes, bob));
        });
    }

    @AfterEach
    void close() {
        w.close();
    }

    private Map<String, Object> row(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    private long id(String path) {
        return w.resolve(path);
    }

    /** The vertex rows the world must export: every user entity, named or not, with its component fields. */
    private Set<Map<String, Object>> expectedVertices() {
        Set<Map<String, Object>> out = new HashSet<>();
        for (String p : List.of("Position", "Info", "Distance", "Likes", "KindOf", "bob", "house", "house.kitchen", "room", "Red")) {
            out.add(row("id", id(p), "name", p.substring(p.lastIndexOf('.') + 1), "path", p));
        }
        out.add(row("id", id("alice"), "name", "alice", "path", "alice", "Position.x", 1.5, "Position.y", -2.0));
        out.add(row("id", id("carol"), "name", "carol", "path", "carol", "Info.big", 1L << 40, "Info.n", 7, "Info.ok", true,
                "Info.ref", id("alice"), "Info.text", TEXT, "Info.w", 0.5f));
        out.add(row("id", anon, "path", w.path(anon)));
        return out;
    }

    private Set<Map<String, Object>> expectedEdges() {
        return new HashSet<>(List.of(
                row("src", id("bob"), "dst", id("alice"), "relationship", "Likes"),
                row("src", anon, "dst", id("bob"), "relationship", "Likes"),
                row("src", id("house.kitchen"), "dst", id("house"), "relationship", "ChildOf"),
                row("src", id("house.kitchen"), "dst", id("room"), "relationship", "KindOf"),
                row("src", id("bob"), "dst", id("house"), "relationship", "Distance", "Distance.km", 3.5)));
    }

    /** Rows compared without regard to column order inside a row. */
    private static Set<Map<String, Object>> unordered(List<Map<String, Object>> rows) {
        Set<Map<String, Object>> out = new HashSet<>();
        for (Map<String, Object> r : rows) {
            out.add(new HashMap<>(r));
        }
        return out;
    }

    private static Set<Map<String, Object>> plain(Set<Map<String, Object>> rows) {
        return rows.stream().map(HashMap::new).collect(Collectors.toSet());
    }

    @Test
    void parquetRoundTripGivesTheWorldsRows() throws IOException {
        Path out = tmp.resolve("out");
        ExportResult r = Exporter.export(w, out, ExportOptions.all(ExportFormat.PARQUET));
        assertEquals(13, r.vertices());
        assertEquals(5, r.edges());
        ParquetRows vertices = new ParquetRows(out.resolve("vertices.parquet"));
        ParquetRows edges = new ParquetRows(out.resolve("edges.parquet"));
        assertEquals(List.of("id", "name", "path", "Info.text", "Info.n", "Info.ok", "Info.w", "Info.big",
                "Info.ref", "Position.x", "Position.y"), vertices.columnNames());
        assertEquals(List.of("src", "dst", "relationship", "Distance.km"), edges.columnNames());
        assertEquals(plain(expectedVertices()), unordered(vertices.rows));
        assertEquals(plain(expectedEdges()), unordered(edges.rows));
        assertEquals(Set.of("vertices.parquet", "edges.parquet"), list(out));
        assertEquals(Set.of("out", "w"), list(tmp), "no temporary directory is left");
    }

    @Test
    void csvRoundTripGivesTheWorldsRows() throws IOException {
        Path out = tmp.resolve("out");
        Exporter.export(w, out, ExportOptions.all(ExportFormat.CSV));
        List<List<String>> vertices = Csv.read(out.resolve("vertices.csv"));
        assertEquals(List.of("id", "name", "path", "Info.text", "Info.n", "Info.ok", "Info.w", "Info.big",
                "Info.ref", "Position.x", "Position.y"), vertices.get(0));
        assertEquals(asText(expectedVertices()), Csv.rows(vertices));
        List<List<String>> edges = Csv.read(out.resolve("edges.csv"));
        assertEquals(List.of("src", "dst", "relationship", "Distance.km"), edges.get(0));
        assertEquals(asText(expectedEdges()), Csv.rows(edges));
    }

    /** Expected rows as CSV renders them: every value by toString, an empty column left out. */
    private static Set<Map<String, String>> asText(Set<Map<String, Object>> rows) {
        Set<Map<String, String>> out = new HashSet<>();
        for (Map<String, Object> r : rows) {
            Map<String, String> m = new HashMap<>();
            r.forEach((k, v) -> m.put(k, v.toString()));
            out.add(m);
        }
        return out;
    }

    @Test
    void relationshipsLimitTheEdges() throws IOException {
        Path out = tmp.resolve("out");
        ExportResult r = Exporter.export(w, out, new ExportOptions(ExportFormat.PARQUET, List.of("Likes", "ChildOf"), null));
        assertEquals(13, r.vertices());
        Set<Map<String, Object>> expected = plain(expectedEdges());
        expected.removeIf(e -> !Set.of("Likes", "ChildOf").contains(e.get("relationship")));
        assertEquals(3, expected.size());
        ParquetRows edges = new ParquetRows(out.resolve("edges.parquet"));
        assertEquals(expected, unordered(edges.rows));
        assertEquals(List.of("src", "dst", "relationship"), edges.columnNames(), "no pair data column for Distance");
    }

    @Test
    void keptEntitiesLimitVerticesAndEdges() throws IOException {
        Path out = tmp.resolve("out");
        Set<Long> kept = Set.of(id("bob"), id("alice"), anon, id("house"));
        Exporter.export(w, out, new ExportOptions(ExportFormat.PARQUET, List.of(), kept::contains));
        Set<Map<String, Object>> vertices = plain(expectedVertices());
        vertices.removeIf(v -> !kept.contains((Long) v.get("id")));
        assertEquals(vertices, unordered(new ParquetRows(out.resolve("vertices.parquet")).rows));
        Set<Map<String, Object>> edges = plain(expectedEdges());
        edges.removeIf(e -> !kept.contains((Long) e.get("src")) || !kept.contains((Long) e.get("dst")));
        assertEquals(3, edges.size());
        assertEquals(edges, unordered(new ParquetRows(out.resolve("edges.parquet")).rows));
    }

    @Test
    void anEmptyWorldExportsHeadersOnly() throws IOException {
        try (World empty = World.create(tmp.resolve("empty"))) {
            ExportResult r = Exporter.export(empty, tmp.resolve("p"), ExportOptions.all(ExportFormat.PARQUET));
            assertEquals(0, r.vertices());
            assertEquals(0, r.edges());
            ParquetRows v = new ParquetRows(tmp.resolve("p/vertices.parquet"));
            assertEquals(List.of("id", "name", "path"), v.columnNames());
            assertEquals(List.of(), v.rows);
            assertEquals(List.of(), new ParquetRows(tmp.resolve("p/edges.parquet")).rows);
            Exporter.export(empty, tmp.resolve("c"), ExportOptions.all(ExportFormat.CSV));
            assertEquals("id,name,path\n", Files.readString(tmp.resolve("c/vertices.csv")));
            assertEquals("src,dst,relationship\n", Files.readString(tmp.resolve("c/edges.csv")));
        }
    }

    @Test
    void anEmptyExistingDirectoryIsFilled() throws IOException {
        Path out = Files.createDirectory(tmp.resolve("out"));
        Exporter.export(w, out, ExportOptions.all(ExportFormat.CSV));
        assertEquals(Set.of("vertices.csv", "edges.csv"), list(out));
    }

    @Test
    void badInputsWriteNothing() throws IOException {
        Path out = tmp.resolve("out");
        ExportException e = assertThrows(ExportException.class,
                () -> Exporter.export(w, out, new ExportOptions(ExportFormat.PARQUET, List.of("Likes", "Hates"), null)));
        assertEquals("unknown relationship 'Hates'", e.getMessage());
        assertInstanceOf(BadInputException.class, e);
        assertFalse(Files.exists(out));

        Files.createDirectory(out);
        Files.writeString(out.resolve("keep.txt"), "mine");
        e = assertThrows(ExportException.class, () -> Exporter.export(w, out, ExportOptions.all(ExportFormat.PARQUET)));
        assertTrue(e.getMessage().contains("not empty"), e.getMessage());
        assertEquals(Set.of("keep.txt"), list(out));

        e = assertThrows(ExportException.class,
                () -> Exporter.export(w, out.resolve("keep.txt"), ExportOptions.all(ExportFormat.CSV)));
        assertTrue(e.getMessage().contains("is a file"), e.getMessage());
        e = assertThrows(ExportException.class,
                () -> Exporter.export(w, tmp.resolve("missing/out"), ExportOptions.all(ExportFormat.CSV)));
        assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
        assertEquals("unknown export format 'xml' (expected parquet or csv)",
                assertThrows(ExportException.class, () -> ExportFormat.parse("xml")).getMessage());
        assertEquals(Set.of("out", "w"), list(tmp), "no temporary directory is left");
    }

    @Test
    void aFailedWriteLeavesNothing() throws IOException {
        // a relationship path that names a component is fine; the failure comes from the keep filter
        Path out = tmp.resolve("out");
        RuntimeException boom = new IllegalStateException("boom");
        assertThrows(IllegalStateException.class, () -> Exporter.export(w, out,
                new ExportOptions(ExportFormat.PARQUET, List.of(), e -> {
                    throw boom;
                })));
        assertFalse(Files.exists(out));
        assertEquals(Set.of("w"), list(tmp), "the temporary directory is removed");
    }

    private static Set<String> list(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
        }
    }

    /** A small RFC 4180 reader for the tests. */
    static final class Csv {
        static List<List<String>> read(Path file) throws IOException {
            String s = Files.readString(file, StandardCharsets.UTF_8);
            List<List<String>> rows = new ArrayList<>();
            List<String> row = new ArrayList<>();
            StringBuilder field = new StringBuilder();
            boolean quoted = false;
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (quoted) {
                    if (c == '"' && i + 1 < s.length() && s.charAt(i + 1) == '"') {
                        field.append('"');
                        i++;
                    } else if (c == '"') {
                        quoted = false;
                    } else {
                        field.append(c);
                    }
                } else if (c == '"') {
                    quoted = true;
                } else if (c == ',') {
                    row.add(field.toString());
                    field.setLength(0);
                } else if (c == '\n') {
                    row.add(field.toString());
                    field.setLength(0);
                    rows.add(row);
                    row = new ArrayList<>();
                } else {
                    field.append(c);
                }
            }
            assertEquals(0, field.length() + row.size(), "the file ends with a line end");
            return rows;
        }

        /** The data rows as column-to-text maps, empty fields left out. */
        static Set<Map<String, String>> rows(List<List<String>> table) {
            List<String> header = table.get(0);
            Set<Map<String, String>> out = new HashSet<>();
            for (List<String> r : table.subList(1, table.size())) {
                assertEquals(header.size(), r.size());
                Map<String, String> m = new HashMap<>();
                for (int i = 0; i < r.size(); i++) {
                    if (!r.get(i).isEmpty()) {
                        m.put(header.get(i), r.get(i));
                    }
                }
                out.add(m);
            }
            return out;
        }
    }
}
