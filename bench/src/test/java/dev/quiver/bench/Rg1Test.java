package dev.quiver.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code rg1 --depth 4} runs every RG-1 operation and its counts and sums are RG1.md's. Asserts
 * counts and sums only, never timings.
 */
class Rg1Test {
    /** The JSON keys the issue asks for. */
    static final List<String> KEYS = List.of("depth", "load_s", "iter_ns_per_result", "trans_ms", "transvar_s",
            "join_ms", "lookup_ns", "delete_s", "reopen_open_s", "reopen_first_query_ms", "snapshot_s",
            "snapshot_bytes", "disk_bytes", "peak_rss_bytes", "iter_first_ns_per_result", "join_first_ms",
            "lookup_first_ns", "reopen_first_query_cpu_ms", "reopen_first_query_gc_ms");

    @TempDir
    Path tmp;

    @Test
    void depthFourPassesEveryCheck() throws IOException {
        Path json = tmp.resolve("rg1.json");
        Path dir = tmp.resolve("worlds");
        BenchRunner.Run run = BenchRunner.run("rg1", "--depth", "4", "--repeat", "1", "--dir", dir.toString(),
                "--json", json.toString()).ok();
        for (String op : List.of("load", "iter", "trans", "transvar", "join", "lookup", "delete", "reopen",
                "snapshot", "peak RSS", "JVM", "machine")) {
            assertTrue(run.out().lines().anyMatch(l -> l.startsWith(op + " ")), () -> op + " line missing:\n" + run.out());
        }
        JsonNode j = new ObjectMapper().readTree(json.toFile());
        for (String k : KEYS) {
            assertTrue(j.has(k) && j.get(k).isNumber(), () -> "key " + k + " missing in " + j);
        }
        // N = 11,111 for D = 4 (RG1.md); the figures below follow from it
        assertEquals(4, j.get("depth").asInt());
        assertEquals(11_111 + 3, j.get("load_entities").asLong());
        assertEquals(11_110, j.get("iter_count").asLong());
        assertEquals(11_110L * 11_111 / 2, j.get("iter_sum").asLong());
        assertEquals(1_110, j.get("trans_count").asLong());
        assertEquals(10 + 2 * 100 + 3 * 1_000 + 4 * 10_000, j.get("transvar_count").asLong());
        assertEquals(100, j.get("join_count").asLong());
        assertEquals(609_400, j.get("join_sum").asLong());
        assertEquals(1_000_000, j.get("lookup_hits").asLong());
        assertEquals(10_000, j.get("delete_nodes_left").asLong());
        assertEquals(9_999, j.get("delete_located_in_left").asLong());
        assertEquals(81, j.get("delete_likes_left").asLong());
        assertEquals(1_110, j.get("reopen_first_query_count").asLong());
        // every run of join and lookup, in order: RUNS per repeat
        for (String k : List.of("join_ms_runs", "lookup_ns_runs")) {
            assertTrue(j.get(k).isArray() && j.get(k).size() == Rg1Round.RUNS, () -> k + " in " + j);
            j.get(k).forEach(v -> assertTrue(v.isNumber() && v.asDouble() > 0, () -> k + " in " + j));
        }
        assertTrue(j.get("snapshot_bytes").asLong() > 0 && j.get("disk_bytes").asLong() > 0);
        // nothing kept without --keep; the directory given stays, empty
        try (var s = Files.list(dir)) {
            assertFalse(s.findAny().isPresent());
        }
    }

    @Test
    void depthSixExpectationsAreRg1Md() {
        Rg1Spec s = new Rg1Spec(6);
        assertEquals(1_111_111, s.nodes());
        assertEquals(111_111, s.firstLeaf());
        assertEquals(1_000_000, s.numLeaves());
        assertEquals(1_111_110, s.iterCount());
        assertEquals(617_283_271_605L, s.iterSum());
        assertEquals(111_110, s.transCount());
        assertEquals(6_543_210, s.transvarCount());
        assertEquals(10_000, s.likesCount());
        assertEquals(6_110_940_000L, s.joinSum());
        assertEquals(111_111, s.subtreeSize());
        assertEquals(1_000_000, s.nodesAfterDelete());
        assertEquals(8_100, s.likesAfterDelete());
        assertEquals(11_111, new Rg1Spec(4).nodes());
    }

    @Test
    void aMismatchIsACheckFailure() {
        Figures f = new Figures();
        f.count("iter_count", 5, 5);
        CheckFailedException e = assertThrows(CheckFailedException.class, () -> f.count("iter_sum", 4, 5));
        assertEquals("iter_sum is 4, expected 5", e.getMessage());
        assertEquals(QuiverBench.FAILURE, new QuiverBench.Errors().getExitCode(e));
    }

    @Test
    void samplesGiveMedianAndRange() {
        Samples s = new Samples();
        for (double v : new double[] {5, 1, 3, 9}) {
            s.add(v);
        }
        assertEquals(4, s.median());
        assertEquals(1, s.min());
        assertEquals(9, s.max());
    }
}
