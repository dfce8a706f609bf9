package dev.quiver.storage;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A large cascade finds the component-index records that name a doomed entity by scanning the
 * index's keys ({@code Cleanup.KEY_SCAN_AT}); a small one looks up three keys per doomed entity.
 * Both must leave the same world: the same seeded random world (a cascading relationship, doomed
 * entities used as tags, relationships and targets of pairs, fragmenting and sparse) is deleted
 * from with the scan always on and always off, and every entity's type, the alive count and the
 * checker agree, before and after a reopen.
 */
class CleanupKeyScanTest {
    private static final int ENTITIES = 3000;

    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"never", "always"})
    void scanningTheRecordKeysLeavesTheWorldThatLookupsLeave(String sparse) {
        long seed = Long.getLong("quiver.seed", System.nanoTime());
        System.out.println("CleanupKeyScanTest " + sparse + " seed " + seed + " (-Dquiver.seed=" + seed + ")");
        List<long[]> byLookups = run(tmp.resolve("lookups"), sparse, seed, Integer.MAX_VALUE);
        List<long[]> byScan = run(tmp.resolve("scan"), sparse, seed, 1);
        assertEquals(byLookups.size(), byScan.size(), "seed " + seed);
        for (int i = 0; i < byLookups.size(); i++) {
            assertArrayEquals(byLookups.get(i), byScan.get(i), "seed " + seed + ", entity or type " + i);
        }
    }

    /** Builds, deletes, and returns the alive count and each entity's type (empty for a dead one), then the same after a reopen. */
    private static List<long[]> run(Path dir, String sparse, long seed, int keyScanAt) {
        Random rnd = new Random(seed);
        var out = new ArrayList<long[]>();
        long[] all = new long[ENTITIES];
        withKeyScan(keyScanAt, () -> SparseChildOfTest.inMode(sparse, "4", () -> {
            try (World w = World.create(dir)) {
                long in = w.entity("In"), likes = w.entity("Likes"), tag = w.entity("Mark");
                w.add(in, w.pair(Builtin.ON_DELETE_TARGET, Builtin.DELETE));
                w.transaction(x -> {
                    for (int i = 0; i < ENTITIES; i++) {
                        all[i] = x.entity("e" + i);
                        if (i > 0) { // a forest under e0 mostly, a few roots of their own
                            int parent = rnd.nextInt(10) == 0 ? -1 : rnd.nextInt(i);
                            if (parent >= 0) {
                                x.add(all[i], x.pair(in, all[parent]));
                            }
                        }
                    }
                    for (int k = 0; k < ENTITIES / 3; k++) {
                        long e = all[rnd.nextInt(ENTITIES)], other = all[rnd.nextInt(ENTITIES)];
                        switch (rnd.nextInt(4)) {
                            case 0 -> x.add(e, x.pair(likes, other));  // a target that may be doomed
                            case 1 -> x.add(e, other);                 // an entity as a tag
                            case 2 -> x.add(e, x.pair(other, tag));    // an entity as a relationship
                            default -> x.add(e, tag);
                        }
                    }
                });
                w.delete(all[0]);
                snapshot(w, all, out);
            }
            try (World w = World.open(dir)) {
                snapshot(w, all, out);
            }
            return null;
        }));
        return out;
    }

    private static void snapshot(World w, long[] all, List<long[]> out) {
        assertEquals(List.of(), w.check());
        out.add(new long[] {w.entityCount()});
        for (long e : all) {
            out.add(w.isAlive(e) ? w.type(e) : new long[0]);
        }
    }

    private static <T> T withKeyScan(int at, Supplier<T> body) {
        String old = System.getProperty("quiver.cleanup.keyScanAt");
        System.setProperty("quiver.cleanup.keyScanAt", Integer.toString(at));
        try {
            return body.get();
        } finally {
            if (old == null) {
                System.clearProperty("quiver.cleanup.keyScanAt");
            } else {
                System.setProperty("quiver.cleanup.keyScanAt", old);
            }
        }
    }
}
