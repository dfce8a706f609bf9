package dev.quiver.storage.file;

import dev.quiver.storage.Builtin;
import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;
import dev.quiver.storage.World;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Prefab instances made in batches ({@code World.instantiate}) keep their children's names through
 * the WAL's name deltas (each batch files names in nearly every bucket), a reader applying them,
 * the checkpoint sealing whole bucket pages, and a reopen; with instances deleted and children
 * renamed between batches, so that deltas remove entries as well as add them and recycled indices
 * are filed again.
 */
class PrefabBatchNamesTest {
    @TempDir
    Path tmp;

    private static final int PARTS = 10;

    /** The prefab of the issue 9 benchmark: 10 f64 components and 10 named prefab children. */
    private static long prefab(World w) {
        return w.transactionResult(t -> {
            Schema value = Schema.of("v", FieldType.F64);
            long ship = t.entity("Ship");
            t.add(ship, Builtin.PREFAB);
            for (int i = 0; i < PARTS; i++) {
                long c = t.component("C" + i, value);
                t.set(ship, c, new Object[] {(double) i});
                long part = t.entity("Ship.part" + i);
                t.add(part, Builtin.PREFAB);
            }
            return ship;
        });
    }

    /** Per alive instance, its children by name (what {@code lookup(instance, name)} must give). */
    private static Map<Long, Map<String, Long>> batches(World w, long ship, Random rnd, int batches, int size,
                                                       Map<Long, Map<String, Long>> expected) {
        var alive = new ArrayList<>(expected.keySet());
        for (int b = 0; b < batches; b++) {
            for (long e : w.instantiate(ship, size)) {
                var parts = new LinkedHashMap<String, Long>();
                for (int i = 0; i < PARTS; i++) {
                    long part = w.lookup(e, "part" + i);
                    assertTrue(part != 0, "instance " + e + " has part" + i);
                    parts.put("part" + i, part);
                }
                expected.put(e, parts);
                alive.add(e);
            }
            w.transaction(t -> { // some instances go, some children are renamed
                for (int k = 0; k < size / 10 && !alive.isEmpty(); k++) {
                    long gone = alive.remove(rnd.nextInt(alive.size()));
                    t.delete(gone);
                    expected.remove(gone);
                }
                for (int k = 0; k < size / 10; k++) {
                    long e = alive.get(rnd.nextInt(alive.size()));
                    Map<String, Long> parts = expected.get(e);
                    String old = "part" + rnd.nextInt(PARTS);
                    Long part = parts.remove(old);
                    if (part != null) {
                        String now = "renamed" + k;
                        if (!parts.containsKey(now)) {
                            t.rename(part, now);
                            parts.put(now, part);
                        } else {
                            parts.put(old, part);
                        }
                    }
                }
            });
        }
        return expected;
    }

    private static void assertNames(World w, Map<Long, Map<String, Long>> expected, String who) {
        for (var inst : expected.entrySet()) {
            for (var part : inst.getValue().entrySet()) {
                assertEquals(part.getValue(), w.lookup(inst.getKey(), part.getKey()), who + ": " + inst.getKey() + "." + part.getKey());
            }
            for (int i = 0; i < PARTS; i++) {
                if (!inst.getValue().containsKey("part" + i)) {
                    assertEquals(0, w.lookup(inst.getKey(), "part" + i), who + ": renamed away " + inst.getKey() + ".part" + i);
                }
            }
        }
        assertEquals(List.of(), w.check(), who);
    }

    @Test
    void batchInstancesKeepTheirNamesThroughDeltasCheckpointsAndReopens() {
        long seed = Long.getLong("quiver.seed", System.nanoTime());
        System.out.println("PrefabBatchNamesTest seed " + seed + " (-Dquiver.seed=" + seed + ")");
        Random rnd = new Random(seed);
        Path dir = tmp.resolve("w");
        Map<Long, Map<String, Long>> expected = new LinkedHashMap<>();
        long ship;
        try (World w = World.create(dir)) {
            ship = prefab(w);
            batches(w, ship, rnd, 12, 300, expected);
            try (World r = World.openReadOnly(dir)) { // the buckets with the WAL's deltas applied
                assertNames(r, expected, "reader beside the writer, seed " + seed);
            }
            assertNames(w, expected, "writer, seed " + seed);
        } // the checkpoint seals every bucket's deltas into its page
        try (World r = World.openReadOnly(dir)) {
            assertNames(r, expected, "reader after the checkpoint, seed " + seed);
        }
        try (World w = World.open(dir)) { // deltas on top of sealed pages, then sealed again
            batches(w, ship, rnd, 6, 300, expected);
            assertNames(w, expected, "writer reopened, seed " + seed);
        }
        try (World r = World.openReadOnly(dir)) {
            assertNames(r, expected, "reader after the second checkpoint, seed " + seed);
        }
    }
}
