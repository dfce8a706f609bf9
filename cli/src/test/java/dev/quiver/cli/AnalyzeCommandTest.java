package dev.quiver.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quiver.storage.World;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static dev.quiver.cli.CliRunner.fingerprint;
import static dev.quiver.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code quiver analyze}: every algorithm's output on a small package graph with a cycle, the four
 * formats, --summary, --limit, --write, and bad input (exit 2, world unchanged).
 */
class AnalyzeCommandTest {
    @TempDir
    Path tmp;

    private String w;

    // app -> lib -> libc <-> gcc (a 2-cycle), app -> tool -> libc; tool Recommends doc; island alone
    private static final String PAIRS = "subject\trelationship\ttarget\n"
            + "app\tDependsOn\tlib\napp\tDependsOn\ttool\nlib\tDependsOn\tlibc\ntool\tDependsOn\tlibc\n"
            + "libc\tDependsOn\tgcc\ngcc\tDependsOn\tlibc\ntool\tRecommends\tdoc\nx\tDependsOn\ty\n";

    @BeforeEach
    void load() throws IOException {
        Path f = Files.writeString(tmp.resolve("pkgs.tsv"), PAIRS);
        w = tmp.resolve("w").toString();
        run("load", w, f.toString()).ok();
        run("add", w, "Unused", "Transitive").ok();
    }

    private static List<String> lines(String out) {
        return List.of(out.split("\n"));
    }

    @Test
    void closurePrintsOneRowPerEntity() {
        String out = run("analyze", w, "closure", "--relationship", "DependsOn", "--format", "csv").ok().out();
        assertEquals(List.of("entity,forward,reverse", "app,4,0", "lib,2,1", "tool,2,1", "libc,2,5", "gcc,2,5",
                "x,1,0", "y,0,1"), lines(out));
        // both relationships: doc joins the graph, tool reaches it
        out = run("analyze", w, "closure", "-r", "DependsOn,Recommends", "--format", "csv").ok().out();
        assertTrue(out.contains("tool,3,1\n"), out);
        assertTrue(out.contains("doc,0,2\n"), out);
        out = run("analyze", w, "closure", "-r", "DependsOn", "--summary").ok().out();
        assertTrue(out.contains("reverse_max:        5"), out);
        assertTrue(out.contains("reverse_max_entity: libc"), out);
    }

    @Test
    void everyPerEntityAlgorithm() {
        assertEquals(List.of("entity,out,in", "app,2,0", "lib,1,1", "tool,1,1", "libc,1,3", "gcc,1,1", "x,1,0", "y,0,1"),
                lines(run("analyze", w, "degree", "-r", "DependsOn", "--format", "csv").ok().out()));
        String deg = run("analyze", w, "degree", "-r", "DependsOn,Recommends", "--format", "csv").ok().out();
        assertTrue(deg.startsWith("entity,out,in,out_DependsOn,in_DependsOn,out_Recommends,in_Recommends\n"), deg);
        assertTrue(deg.contains("tool,2,1,1,1,1,0\n"), deg);
        assertEquals(List.of("entity,component,size", "app,0,5", "lib,0,5", "tool,0,5", "libc,0,5", "gcc,0,5",
                "x,1,2", "y,1,2"), lines(run("analyze", w, "wcc", "-r", "DependsOn", "--format", "csv").ok().out()));
        List<String> scc = lines(run("analyze", w, "scc", "-r", "DependsOn", "--format", "csv").ok().out());
        assertEquals(8, scc.size());
        assertEquals(scc.get(4).substring(scc.get(4).indexOf(',')), scc.get(5).substring(scc.get(5).indexOf(',')),
                "libc and gcc share a component");
        assertTrue(scc.get(4).endsWith(",2"), scc.toString());
        String sccSummary = run("analyze", w, "scc", "-r", "DependsOn", "--summary", "--cycles").ok().out();
        assertTrue(sccSummary.contains("components:         6"), sccSummary);
        assertTrue(sccSummary.contains("nontrivial:         1"), sccSummary);
        assertTrue(sccSummary.contains("largest:            2"), sccSummary);
        assertTrue(sccSummary.contains("libc gcc"), sccSummary);
        String topo = run("analyze", w, "topo", "-r", "DependsOn", "--format", "csv").ok().out();
        assertEquals(List.of("entity,order,generation", "app,2,0", "lib,4,1", "tool,3,1", "libc,5,2", "gcc,5,2", "x,0,0",
                "y,1,1"), lines(topo));
        String depth = run("analyze", w, "depth", "-r", "DependsOn", "--format", "csv").ok().out();
        assertTrue(depth.contains("x,1,1,0,1\n") && depth.contains("y,0,0,1,0\n") && depth.contains("app,-1,-1,0,1\n"), depth);
        JsonNode pr = json(run("analyze", w, "pagerank", "-r", "DependsOn", "--format", "json").ok().out());
        double sum = 0;
        for (JsonNode r : pr.get("entities")) {
            sum += r.get("rank").asDouble();
        }
        assertEquals(1.0, sum, 1e-6);
        assertEquals(7, pr.get("entities_count").asInt());
        String com = run("analyze", w, "communities", "-r", "DependsOn", "--summary", "--format", "jsonl").ok().out();
        assertEquals(2, json(com).get("communities").asInt(), com);
    }

    @Test
    void walks() {
        assertEquals(List.of("step,entity", "0,app", "1,lib", "2,libc"), lines(run("analyze", w, "path", "-r", "DependsOn",
                "--entity", "app", "--entity", "libc", "--format", "csv").ok().out()));
        assertEquals(List.of("step,entity"), lines(run("analyze", w, "path", "-r", "DependsOn",
                "-e", "libc", "-e", "app", "--format", "csv").ok().out()), "no path against the edges");
        assertEquals(3, lines(run("analyze", w, "path", "-r", "DependsOn", "-e", "libc", "-e", "app",
                "--direction", "in", "--format", "csv").ok().out()).size() - 1);
        assertEquals(List.of("entity,distance", "lib,1", "tool,1", "libc,2"), lines(run("analyze", w, "khop",
                "-r", "DependsOn", "-e", "app", "--hops", "2", "--format", "csv").ok().out()));
        // libc and gcc form one cycle group: both are lowest
        assertEquals(List.of("entity,distance_a,distance_b", "libc,1,1", "gcc,2,2"), lines(run("analyze", w, "lca",
                "-r", "DependsOn", "-e", "lib", "-e", "tool", "--format", "csv").ok().out()));
    }

    @Test
    void formatsAndLimit() {
        String table = run("analyze", w, "closure", "-r", "DependsOn", "--limit", "2").ok().out();
        assertTrue(table.startsWith("entity  forward  reverse\napp     4        0\nlib     2        1\n7 rows (first 2 shown)\n"), table);
        assertTrue(table.contains("closure over DependsOn in "), table);
        List<String> jsonl = lines(run("analyze", w, "closure", "-r", "DependsOn", "--format", "jsonl", "--limit", "3").ok().out());
        assertEquals(3, jsonl.size());
        assertEquals("{\"entity\":\"app\",\"forward\":4,\"reverse\":0}", jsonl.get(0));
        JsonNode j = json(run("analyze", w, "scc", "-r", "DependsOn", "--format", "json", "--summary").ok().out());
        assertEquals("scc", j.get("algorithm").asText());
        assertEquals(1, j.get("summary").get("nontrivial").asInt());
        assertEquals(0, lines(run("analyze", w, "closure", "-r", "DependsOn", "--format", "csv", "--limit", "0")
                .ok().out()).size() - 1);
    }

    @Test
    void writeStoresAComponentInOneTransactionAndReadsDoNotChangeTheWorld() {
        Map<String, String> before = fingerprint(Path.of(w));
        run("analyze", w, "closure", "-r", "DependsOn").ok();
        run("analyze", w, "pagerank", "-r", "DependsOn", "--summary").ok();
        assertEquals(before, fingerprint(Path.of(w)), "analysis without --write changes nothing");
        run("analyze", w, "closure", "-r", "DependsOn", "--write", "Impact", "--summary").ok();
        try (World world = World.openReadOnly(Path.of(w))) {
            long impact = world.resolve("Impact");
            assertEquals(Map.of("forward", 2L, "reverse", 5L), world.get(world.resolve("libc"), impact));
            assertEquals(Map.of("forward", 4L, "reverse", 0L), world.get(world.resolve("app"), impact));
        }
        run("check", w).ok();
        // the rule engine sees it
        assertEquals("7", run("query", w, "Impact", "--format", "count").ok().out().trim());
        run("analyze", w, "pagerank", "-r", "DependsOn", "--write", "Rank", "--summary").ok();
        // the same name with another schema is refused, and nothing changes
        Map<String, String> written = fingerprint(Path.of(w));
        run("analyze", w, "depth", "-r", "DependsOn", "--write", "Impact").badInput("Impact");
        assertEquals(written, fingerprint(Path.of(w)));
    }

    @Test
    void badInput() throws IOException {
        Map<String, String> before = fingerprint(Path.of(w));
        run("analyze", w, "closure", "-r", "Nope").badInput("unknown entity 'Nope'");
        run("analyze", w, "closure").badInput("--relationship");
        run("analyze", w, "nosuch", "-r", "DependsOn").badInput("nosuch");
        run("analyze", w, "path", "-r", "DependsOn", "-e", "app").badInput("path needs 2 --entity options, got 1");
        run("analyze", w, "closure", "-r", "DependsOn", "-e", "app").badInput("closure takes no --entity");
        run("analyze", w, "path", "-r", "DependsOn", "-e", "app", "-e", "ghost").badInput("unknown entity 'ghost'");
        run("analyze", w, "path", "-r", "DependsOn", "-e", "app", "-e", "doc").badInput("doc has no pair of DependsOn");
        run("analyze", w, "khop", "-r", "DependsOn", "-e", "app", "--hops", "-1").badInput("hop count");
        run("analyze", w, "khop", "-r", "DependsOn", "-e", "app", "--direction", "up").badInput("--direction");
        run("analyze", w, "pagerank", "-r", "DependsOn", "--damping", "1.5").badInput("damping");
        run("analyze", w, "lca", "-r", "DependsOn", "-e", "a", "-e", "b", "--write", "X").badInput("--write");
        run("analyze", w, "closure", "-r", "DependsOn", "--limit", "-1").badInput("--limit");
        run("analyze", w, "closure", "-r", "DependsOn", "--cycles").badInput("--cycles");
        run("analyze", tmp.resolve("none").toString(), "closure", "-r", "DependsOn").badInput("does not exist");
        assertEquals(before, fingerprint(Path.of(w)));
        // a relationship with no pairs: an empty result
        assertEquals("entity,forward,reverse\n", run("analyze", w, "closure", "-r", "Unused", "--format", "csv").ok().out());
        assertTrue(run("analyze", w, "scc", "-r", "Unused", "--summary").ok().out().contains("components:         0"));
        // an empty world knows no relationship
        String empty = tmp.resolve("empty").toString();
        run("init", empty).ok();
        run("analyze", empty, "wcc", "-r", "DependsOn").badInput("unknown entity 'DependsOn'");
    }

    private static JsonNode json(String text) {
        try {
            return new ObjectMapper().readTree(text);
        } catch (IOException e) {
            throw new AssertionError(text, e);
        }
    }
}
