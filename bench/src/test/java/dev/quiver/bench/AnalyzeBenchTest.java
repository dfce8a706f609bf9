package dev.quiver.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code analyze} times the analytics on pair files and on RG-1; figures only, plus its bad input. */
class AnalyzeBenchTest {
    @TempDir
    Path tmp;

    @Test
    void timesEveryAlgorithmOnPairFilesAndRg1() throws IOException {
        Path tsv = Files.writeString(tmp.resolve("p.tsv"), "a\tDependsOn\tb\nb\tDependsOn\tc\nc\tDependsOn\tb\n");
        Path json = tmp.resolve("a.json");
        BenchRunner.Run run = BenchRunner.run("analyze", tsv.toString(), "--relationship", "DependsOn", "--repeat", "1",
                "--warmup", "0", "--json", json.toString()).ok();
        assertTrue(run.out().contains("graph of DependsOn: 3 nodes, 3 edges"), run.out());
        assertTrue(run.out().contains("all (build, scc, wcc, topo, closure, pagerank)"), run.out());
        JsonNode j = new ObjectMapper().readTree(json.toFile());
        assertEquals(3, j.get("edges").asInt());
        assertTrue(j.has("closure_median_ms"));
        assertTrue(BenchRunner.run("analyze", "--rg1", "2", "--repeat", "1", "--warmup", "0").ok().out()
                .contains("graph of LocatedIn: 111 nodes, 110 edges"));
    }

    @Test
    void badInput() throws IOException {
        BenchRunner.run("analyze", "--relationship", "R").fails(2, "give pair FILEs or --rg1 DEPTH");
        Path tsv = Files.writeString(tmp.resolve("p.tsv"), "a\tDependsOn\tb\n");
        BenchRunner.run("analyze", tsv.toString()).fails(2, "--relationship is required");
        BenchRunner.run("analyze", tsv.toString(), "--relationship", "Nope", "--repeat", "1").fails(2, "Nope");
    }
}
