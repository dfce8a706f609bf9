package dev.quiver.spark;

import dev.quiver.index.Ids;
import dev.quiver.snapshots.TsvLoader;
import dev.quiver.snapshots.export.ExportFormat;
import dev.quiver.snapshots.export.ExportOptions;
import dev.quiver.snapshots.export.Exporter;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.table.Table;
import dev.quiver.storage.World;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs the Spark job in local mode on the export of the Debian dependency graph (DependsOn) and
 * checks every answer against {@link ReferenceAnalytics}: components and degrees exactly, closure
 * sizes exactly for the job's sample of 100 vertices, PageRank within 1e-9 of each rank.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GraphAnalyticsJobTest {
    @TempDir
    static Path tmp;

    private SparkSession spark;
    private ReferenceAnalytics reference;
    /** What {@code quiver analyze} (the analytics module) says, per entity id. */
    private Map<Long, long[]> analyze;
    private final Long2IntOpenHashMap vertexOf = new Long2IntOpenHashMap();

    @BeforeAll
    void exportDebian() {
        long start = System.nanoTime();
        Path tsv = Path.of(System.getProperty("quiver.testdata", "../testdata"), "debian_deps.tsv.gz");
        try (World w = World.create(tmp.resolve("world"))) {
            new TsvLoader(w).load(tsv);
            analyze = quiverAnalyze(w);
            long loaded = System.nanoTime();
            Exporter.export(w, tmp.resolve("export"), ExportOptions.all(ExportFormat.PARQUET));
            System.out.printf("debian: loaded in %d ms, exported in %d ms%n", (loaded - start) / 1_000_000,
                    (System.nanoTime() - loaded) / 1_000_000);
            reference = referenceGraph(w, w.resolve("DependsOn"));
        }
        long sparkStart = System.nanoTime();
        spark = SparkSession.builder().master("local[2]").appName("quiver-spark-test")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "2")
                .getOrCreate();
        System.out.printf("spark session in %d ms%n", (System.nanoTime() - sparkStart) / 1_000_000);
    }

    @AfterAll
    void stop() {
        if (spark != null) {
            spark.stop();
        }
    }

    /**
     * The graph read straight from the world: vertices are the user entities, edges the DependsOn
     * pairs found through the component index's (DependsOn, *) record.
     */
    private ReferenceAnalytics referenceGraph(World w, long relationship) {
        LongArrayList ids = new LongArrayList();
        for (Table t : w.tableAccess().allTables()) {
            for (int r = 0; r < t.count(); r++) {
                long e = t.entity(r);
                if (!Builtin.isBuiltin(e)) {
                    vertexOf.put(e, ids.size());
                    ids.add(e);
                }
            }
        }
        LongOpenHashSet seen = new LongOpenHashSet();
        LongArrayList edges = new LongArrayList();
        // the pairs through World.targets, which reads both storage kinds (a relationship with many
        // targets is stored sparse: its tables hold the marker (R, *), FEATURES TRT-16)
        for (Table t : w.tableAccess().tables(w.pair(relationship, Ids.WILDCARD))) {
            for (int r = 0; r < t.count(); r++) {
                int source = vertexOf.get(t.entity(r));
                for (long tgt : w.targets(t.entity(r), relationship)) {
                    int target = vertexOf.get(tgt);
                    if (seen.add(((long) source << 32) | target)) {
                        edges.add(((long) source << 32) | target);
                    }
                }
            }
        }
        int[] src = new int[edges.size()], dst = new int[edges.size()];
        for (int i = 0; i < edges.size(); i++) {
            src[i] = (int) (edges.getLong(i) >>> 32);
            dst[i] = (int) edges.getLong(i);
        }
        System.out.printf("debian: %d vertices, %d DependsOn edges%n", ids.size(), edges.size());
        return new ReferenceAnalytics(ids.toLongArray(), src, dst);
    }

    /**
     * The analytics module's answers over DependsOn, per entity id: {smallest id of its strong
     * component, smallest id of its weak component, in-degree, out-degree, forward closure,
     * reverse closure}, the same library that {@code quiver analyze} prints.
     */
    private static Map<Long, long[]> quiverAnalyze(World w) {
        dev.quiver.analytics.Graph g = dev.quiver.analytics.Analytics.of(w).graph("DependsOn");
        int n = g.nodeCount();
        int[] scc = g.strongComponents().componentArray();
        int[] wcc = g.weakComponents().componentArray();
        long[] sccMin = new long[n], wccMin = new long[n];
        java.util.Arrays.fill(sccMin, Long.MAX_VALUE);
        java.util.Arrays.fill(wccMin, Long.MAX_VALUE);
        for (int v = 0; v < n; v++) {
            sccMin[scc[v]] = Math.min(sccMin[scc[v]], g.entity(v));
            wccMin[wcc[v]] = Math.min(wccMin[wcc[v]], g.entity(v));
        }
        var degrees = g.degrees();
        var closure = g.closureSizes();
        Map<Long, long[]> out = new HashMap<>();
        for (int v = 0; v < n; v++) {
            out.put(g.entity(v), new long[] {sccMin[scc[v]], wccMin[wcc[v]], degrees.inArray()[v], degrees.outArray()[v],
                closure.forwardArray()[v], closure.reverseArray()[v], g.strongComponents().isCyclic(scc[v]) ? 1 : 0});
        }
        return out;
    }

    /**
     * The job's answers equal {@code quiver analyze}'s (the analytics module) for every package of
     * the Debian graph: strong and weak components (as partitions), degrees, and the sampled closure
     * sizes. The analytics module counts an entity in its own closure only when it lies on a cycle;
     * the job counts other vertices, hence the correction. Entities without DependsOn pairs are
     * outside the analytics graph and must be alone in the job's answers.
     */
    @Test
    void debianAnswersEqualQuiverAnalyze() {
        Path out = tmp.resolve("results-analyze");
        assertEquals(0, GraphAnalyticsJob.run(System.out, System.err, "--input", tmp.resolve("export").toString(),
                "--output", out.toString(), "--relationship", "DependsOn", "--analyses", "wcc,scc,degree,closure",
                "--closure-sample", "200", "--scc-local-finish", "20000", "--master", "local[2]"));
        Map<Long, Row> scc = rows(out.resolve("scc.parquet"));
        Map<Long, Row> wcc = rows(out.resolve("wcc.parquet"));
        Map<Long, Row> degree = rows(out.resolve("degree.parquet"));
        Map<Long, Row> closure = rows(out.resolve("closure.parquet"));
        int compared = 0;
        for (var en : scc.entrySet()) {
            long id = en.getKey();
            long[] a = analyze.get(id);
            long sparkScc = en.getValue().getLong(en.getValue().fieldIndex("component"));
            long sparkWcc = wcc.get(id).getLong(wcc.get(id).fieldIndex("component"));
            Row d = degree.get(id);
            if (a == null) {
                assertEquals(id, sparkScc, "an entity without DependsOn is its own strong component");
                assertEquals(id, sparkWcc, "an entity without DependsOn is its own weak component");
                assertEquals(0, d.getLong(d.fieldIndex("degree")));
                continue;
            }
            assertEquals(a[0], sparkScc, "scc of " + id);
            assertEquals(a[1], sparkWcc, "wcc of " + id);
            assertEquals(a[2], d.getLong(d.fieldIndex("in_degree")), "in-degree of " + id);
            assertEquals(a[3], d.getLong(d.fieldIndex("out_degree")), "out-degree of " + id);
            compared++;
        }
        assertEquals(analyze.size(), compared, "every analytics node is a vertex of the export");
        for (var en : closure.entrySet()) {
            long[] a = analyze.get(en.getKey());
            Row c = en.getValue();
            long self = a == null ? 0 : a[6];
            assertEquals(a == null ? 0 : a[4] - self, c.getLong(c.fieldIndex("descendants")), "forward closure of " + en.getKey());
            assertEquals(a == null ? 0 : a[5] - self, c.getLong(c.fieldIndex("ancestors")), "reverse closure of " + en.getKey());
        }
        System.out.printf("spark = quiver analyze for %d packages, closure sizes on a sample of %d%n", compared, closure.size());
    }

    private Map<Long, Row> rows(Path dir) {
        Map<Long, Row> m = new HashMap<>();
        for (Row r : spark.read().parquet(dir.toString()).collectAsList()) {
            m.put(r.getLong(r.fieldIndex("id")), r);
        }
        return m;
    }

    @Test
    void debianAnswersMatchThePlainJavaOnes() {
        Path out = tmp.resolve("results");
        long start = System.nanoTime();
        int code = GraphAnalyticsJob.run(System.out, System.err, "--input", tmp.resolve("export").toString(), "--output", out.toString(),
                "--relationship", "DependsOn", "--closure-sample", "100", "--scc-local-finish", "20000", "--master", "local[2]");
        System.out.printf("job in %d ms%n", (System.nanoTime() - start) / 1_000_000);
        assertEquals(0, code);
        check(reference, out, 100, true);
    }

    /**
     * Checks the results of a job run against the reference: scc and closure ({@code sampled}
     * rows expected), and with {@code all} also wcc, degree and pagerank.
     */
    private void check(ReferenceAnalytics reference, Path out, int sampled, boolean all) {
        int n = reference.ids.length;
        Map<Long, Integer> vertexOf = new HashMap<>();
        for (int v = 0; v < n; v++) {
            vertexOf.put(reference.ids[v], v);
        }
        long[] strong = reference.strong();
        Map<Long, Row> scc = rows(out.resolve("scc.parquet"));
        assertEquals(n, scc.size());
        for (int v = 0; v < n; v++) {
            long id = reference.ids[v];
            assertEquals(strong[v], scc.get(id).getLong(scc.get(id).fieldIndex("component")), "scc of " + id);
        }
        assertTrue(java.util.Arrays.stream(strong).distinct().count() < n, "some SCC has more than one vertex");
        if (all) {
            checkWccDegreePageRank(reference, out);
        }
        Map<Long, Row> closure = rows(out.resolve("closure.parquet"));
        assertEquals(sampled, closure.size());
        for (Row c : closure.values()) {
            int v = vertexOf.get(c.getLong(c.fieldIndex("id")));
            assertEquals(reference.descendants(v), c.getLong(c.fieldIndex("descendants")), "descendants of " + reference.ids[v]);
            assertEquals(reference.ancestors(v), c.getLong(c.fieldIndex("ancestors")), "ancestors of " + reference.ids[v]);
        }
    }

    private void checkWccDegreePageRank(ReferenceAnalytics reference, Path out) {
        int n = reference.ids.length;
        long[] weak = reference.weak();
        Map<Long, Row> wcc = rows(out.resolve("wcc.parquet"));
        Map<Long, Row> degree = rows(out.resolve("degree.parquet"));
        Map<Long, Row> pagerank = rows(out.resolve("pagerank.parquet"));
        assertEquals(n, wcc.size());
        assertEquals(n, degree.size());
        assertEquals(n, pagerank.size());
        double[] rank = reference.pageRank(20, 0.85);
        double sum = 0;
        for (int v = 0; v < n; v++) {
            long id = reference.ids[v];
            assertEquals(weak[v], wcc.get(id).getLong(wcc.get(id).fieldIndex("component")), "wcc of " + id);
            Row d = degree.get(id);
            assertEquals(reference.in[v].length, d.getLong(d.fieldIndex("in_degree")), "in-degree of " + id);
            assertEquals(reference.out[v].length, d.getLong(d.fieldIndex("out_degree")), "out-degree of " + id);
            double r = pagerank.get(id).getDouble(pagerank.get(id).fieldIndex("rank"));
            assertEquals(rank[v], r, 1e-9 * Math.max(1.0, rank[v] * n), "pagerank of " + id);
            sum += r;
        }
        assertEquals(1.0, sum, 1e-9);
    }

    /**
     * A small CSV export with cycles inside cycles, a self-loop, chains, an isolated vertex and
     * edges of another relationship; every SCC step runs in Spark (no driver finish), and closure
     * sizes are computed for every vertex.
     */
    @Test
    void everyStepInSparkOnASmallCsvExport() throws Exception {
        long[] ids = new long[26];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = (1L << 32) * (i % 3) + 1000 + 7L * ((i * 11) % 26); // scattered ids, generations included
        }
        int[][] edges = {{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 3}, {2, 3}, {5, 6}, {6, 7}, {8, 9}, {9, 10}, {10, 8}, {10, 11},
            {11, 8}, {12, 12}, {13, 14}, {14, 15}, {15, 16}, {16, 17}, {17, 18}, {18, 19}, {19, 13}, {16, 13}, {21, 0},
            {19, 21}, {22, 23}, {23, 22}, {23, 24}, {24, 25}, {25, 24}, {7, 5}};
        Path export = Files.createDirectory(tmp.resolve("small"));
        StringBuilder v = new StringBuilder("id,name,path\n");
        for (int i = 0; i < ids.length; i++) {
            v.append(ids[i]).append(",v").append(i).append(",v").append(i).append('\n');
        }
        Files.writeString(export.resolve("vertices.csv"), v);
        StringBuilder e = new StringBuilder("src,dst,relationship\n");
        int[] src = new int[edges.length], dst = new int[edges.length];
        for (int i = 0; i < edges.length; i++) {
            src[i] = edges[i][0];
            dst[i] = edges[i][1];
            e.append(ids[src[i]]).append(',').append(ids[dst[i]]).append(",R\n");
            e.append(ids[dst[i]]).append(',').append(ids[20]).append(",Other\n");
        }
        Files.writeString(export.resolve("edges.csv"), e);
        Path out = tmp.resolve("small-results");
        assertEquals(0, GraphAnalyticsJob.run(System.out, System.err, "--input", export.toString(), "--output", out.toString(),
                "--relationship", "R", "--analyses", "scc,closure", "--closure-sample", "all", "--scc-local-finish", "0",
                "--master", "local[2]"));
        check(new ReferenceAnalytics(ids, src, dst), out, ids.length, false);
    }

    @Test
    void badArgumentsExitTwoWithOneLineAndTheUsage() throws Exception {
        for (List<String> args : List.of(List.of("--input", "x"), List.of("--input", "x", "--output", "y", "--analyses", "wcc,bfs"),
                List.of("--input", "x", "--output", "y", "--closure-sample", "0"), List.of("--input", "x", "--output"))) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            assertEquals(2, GraphAnalyticsJob.run(System.out, new PrintStream(err, true, StandardCharsets.UTF_8), args.toArray(String[]::new)), args.toString());
            String[] lines = err.toString(StandardCharsets.UTF_8).split("\n");
            assertEquals(2, lines.length, err.toString(StandardCharsets.UTF_8));
            assertTrue(lines[0].startsWith("quiver-spark: "), lines[0]);
            assertTrue(lines[1].startsWith("usage: "), lines[1]);
        }
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Path empty = Files.createDirectory(tmp.resolve("empty"));
        assertEquals(2, GraphAnalyticsJob.run(System.out, new PrintStream(err, true, StandardCharsets.UTF_8), "--input", empty.toString(),
                "--output", tmp.resolve("o").toString(), "--master", "local[2]"));
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("quiver-spark: no Quiver export in "), err.toString());
    }
}
