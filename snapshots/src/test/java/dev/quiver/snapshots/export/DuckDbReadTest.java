package dev.quiver.snapshots.export;

import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;
import dev.quiver.storage.World;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** DuckDB (its JDBC driver, in memory) reads the exported Parquet and CSV files as they are. */
class DuckDbReadTest {
    @TempDir
    Path tmp;

    private static final String TEXT = "comma, \"quote\"\nnewline";

    /** Rows of a query as column-to-value maps, SQL NULLs left out. */
    private static Set<Map<String, Object>> rows(Connection c, String sql) throws SQLException {
        Set<Map<String, Object>> out = new HashSet<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            while (rs.next()) {
                Map<String, Object> m = new HashMap<>();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    Object v = rs.getObject(i);
                    if (v != null) {
                        m.put(md.getColumnLabel(i), v);
                    }
                }
                out.add(m);
            }
        }
        return out;
    }

    @Test
    void duckDbReadsParquetAndCsv() throws Exception {
        long a, b, anon;
        try (World w = World.create(tmp.resolve("w"))) {
            long[] ids = w.transactionResult(tx -> {
                long pos = tx.component("Position", Schema.of("x", FieldType.F64, "y", FieldType.F32));
                long info = tx.component("Info", Schema.of("text", FieldType.STRING, "n", FieldType.I32, "ok", FieldType.BOOL,
                        "big", FieldType.I64));
                long x = tx.entity("a.b");
                long y = tx.entity("c");
                long z = tx.entity();
                tx.set(x, pos, Map.of("x", 1.25, "y", 2.5f));
                tx.set(y, info, Map.of("text", TEXT, "n", -3, "ok", true, "big", 1L << 50));
                tx.add(y, tx.pair(tx.entity("Likes"), x));
                tx.add(z, tx.pair(tx.resolve("Likes"), y));
                return new long[] {x, y, z};
            });
            a = ids[0];
            b = ids[1];
            anon = ids[2];
            Exporter.export(w, tmp.resolve("p"), ExportOptions.all(ExportFormat.PARQUET));
            Exporter.export(w, tmp.resolve("c"), ExportOptions.all(ExportFormat.CSV));
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
            String v = "read_parquet('" + tmp.resolve("p/vertices.parquet") + "')";
            String e = "read_parquet('" + tmp.resolve("p/edges.parquet") + "')";
            assertEquals(Set.of(Map.of("n", 7L)), rows(c, "select count(*) as n from " + v));
            assertEquals(Set.of(
                    Map.of("path", "a.b", "name", "b", "x", 1.25, "y", 2.5f),
                    Map.of("path", "c", "name", "c", "text", TEXT, "n", -3, "ok", true, "big", 1L << 50)),
                    rows(c, "select path, name, \"Position.x\" as x, \"Position.y\" as y, \"Info.text\" as text, "
                            + "\"Info.n\" as n, \"Info.ok\" as ok, \"Info.big\" as big from " + v
                            + " where path in ('a.b', 'c')"));
            assertEquals(Set.of(Map.of("id", anon)), rows(c, "select id from " + v + " where name is null"));
            assertEquals(Set.of(Map.of("s", "c", "r", "Likes", "t", "a.b"), Map.of("s", "#" + (int) anon, "r", "Likes", "t", "c"),
                    Map.of("s", "a.b", "r", "ChildOf", "t", "a")),
                    rows(c, "select s.path as s, e.relationship as r, t.path as t from " + e + " e join " + v
                            + " s on s.id = e.src join " + v + " t on t.id = e.dst"));
            assertEquals(Set.of(Map.of("src", b, "dst", a)), rows(c, "select src, dst from " + e + " where dst = " + a));

            String cv = "read_csv('" + tmp.resolve("c/vertices.csv") + "', header = true)";
            // the CSV holds the same values (DuckDB infers wider types from text, so compare as text)
            String asText = "select columns(*)::varchar from ";
            assertEquals(rows(c, asText + v), rows(c, asText + cv));
            String ce = "read_csv('" + tmp.resolve("c/edges.csv") + "', header = true)";
            assertEquals(rows(c, asText + e), rows(c, asText + ce));
            assertEquals(List.of("id", "name", "path", "Info.text", "Info.n", "Info.ok", "Info.big", "Position.x", "Position.y"),
                    List.copyOf(columns(c, "select * from " + cv)));
        }
    }

    private static List<String> columns(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            String[] names = new String[md.getColumnCount()];
            for (int i = 0; i < names.length; i++) {
                names[i] = md.getColumnLabel(i + 1);
            }
            return List.of(names);
        }
    }
}
