package dev.quiver.index;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The flat name index against a HashMap model: random puts (new keys and replacements), removes
 * (whose backward shifts must keep every probe chain whole, across the table's wrap-around),
 * bucket reads and bucket removals, with names repeated under several parents, through many
 * resizes; and with hashes forced to collide. Seed: {@code -Dquiver.seed=N} (printed).
 */
class NameIndexTest {
    record Key(int parent, String name) {}

    private static long seed() {
        long seed = Long.getLong("quiver.seed", System.nanoTime());
        System.out.println("NameIndexTest seed " + seed + " (-Dquiver.seed=" + seed + ")");
        return seed;
    }

    /** Names by entity index; the index reads them through {@link NameIndex.Keys}. */
    private static String[] names(Random rnd, int entities, int distinct) {
        String[] names = new String[entities];
        for (int i = 1; i < entities; i++) {
            names[i] = "n" + rnd.nextInt(distinct); // names repeat under different parents
        }
        return names;
    }

    @Test
    void randomOperationsAgreeWithAHashMap() {
        long seed = seed();
        run(seed, false);
    }

    @Test
    void collidingHashesAgreeWithAHashMap() {
        long seed = seed();
        run(seed, true);
    }

    /**
     * @param collide hashes drawn from 48 values, a third of them in the last bucket (their runs
     *                wrap around the table's end), so that probe chains are long and shared
     */
    private static void run(long seed, boolean collide) {
        Random rnd = new Random(seed);
        int entities = collide ? 4_000 : 60_000;
        String[] names = names(rnd, entities, collide ? 500 : 5_000);
        int[] fixed = new int[48];
        for (int k = 0; k < fixed.length; k++) {
            fixed[k] = k % 3 == 0 ? (0xFFF << 20) | rnd.nextInt(1 << 20) : rnd.nextInt();
        }
        int bucketBits = 1 + rnd.nextInt(12);
        NameIndex index = new NameIndex((i, name) -> name.equals(names[i]), bucketBits, 2);
        Map<Key, Long> model = new HashMap<>();
        Map<Key, Integer> hashes = new HashMap<>();
        java.util.function.ToIntFunction<Key> hashOf = k -> collide
                ? fixed[Math.floorMod(k.name().hashCode() * 7 + k.parent(), fixed.length)]
                : NameIndex.hash(k.parent(), k.name());
        int steps = collide ? 40_000 : 300_000;
        for (int step = 0; step < steps; step++) {
            int i = 1 + rnd.nextInt(entities - 1);
            int parent = rnd.nextInt(4);
            Key k = new Key(parent, names[i]);
            int h = hashOf.applyAsInt(k);
            int op = rnd.nextInt(100);
            if (op < 12) {
                // by entity: only the entry that entity i holds goes, never another's of the same name
                Long held = model.get(k);
                boolean own = held != null && Ids.index(held) == i;
                if (own) {
                    model.remove(k);
                }
                assertEquals(own ? held : 0L, index.removeEntity(parent, i, h), "seed " + seed + " step " + step);
            } else if (op < 30) {
                Long before = model.remove(k);
                assertEquals(before == null ? 0L : before, index.remove(parent, names[i], h), "seed " + seed + " step " + step);
            } else if (op < 99) {
                long e = Ids.entity(i, rnd.nextInt(3));
                Long before = model.put(k, e);
                hashes.put(k, h);
                assertEquals(before == null ? 0L : before, index.put(parent, names[i], h, e), "seed " + seed + " step " + step);
            } else {
                // drop a whole bucket, as a forgotten or rolled-back name bucket does
                int b = rnd.nextInt(1 << bucketBits);
                int expected = 0;
                for (var it = model.keySet().iterator(); it.hasNext(); ) {
                    Key key = it.next();
                    if (index.bucketOf(hashes.get(key)) == b) {
                        it.remove();
                        expected++;
                    }
                }
                assertEquals(expected, index.removeBucket(b), "seed " + seed + " step " + step + " bucket " + b);
                assertEquals(0, index.bucketSize(b));
            }
            if (step % 997 == 0) {
                Key probe = new Key(rnd.nextInt(4), "n" + rnd.nextInt(5_000));
                assertEquals(model.getOrDefault(probe, 0L), index.get(probe.parent(), probe.name(), hashOf.applyAsInt(probe)),
                        "seed " + seed + " step " + step + " " + probe);
                checkBuckets(index, model, hashes, seed);
            }
        }
        assertEquals(model.size(), index.size(), "seed " + seed);
        for (var en : model.entrySet()) {
            Key k = en.getKey();
            assertEquals(en.getValue(), index.get(k.parent(), k.name(), hashOf.applyAsInt(k)), "seed " + seed + " " + k);
        }
        int[] visited = {0};
        index.forEach((parent, e, hash) -> {
            Key k = new Key(parent, names[Ids.index(e)]);
            assertEquals(e, model.get(k), "seed " + seed);
            assertEquals(hashes.get(k), hash, "seed " + seed);
            visited[0]++;
        });
        assertEquals(model.size(), visited[0]);
        checkBuckets(index, model, hashes, seed);
    }

    /** Every bucket lists exactly the model's entries of its hashes, and counts them. */
    private static void checkBuckets(NameIndex index, Map<Key, Long> model, Map<Key, Integer> hashes, long seed) {
        int[] expected = new int[index.buckets()];
        for (Key k : model.keySet()) {
            expected[index.bucketOf(hashes.get(k))]++;
        }
        for (int b = 0; b < index.buckets(); b++) {
            List<Long> seen = new ArrayList<>();
            final int bucket = b;
            index.forEachInBucket(b, (parent, e, hash) -> {
                assertEquals(bucket, index.bucketOf(hash), "seed " + seed);
                seen.add(e);
            });
            assertEquals(expected[b], seen.size(), "seed " + seed + " bucket " + b);
            assertEquals(expected[b], index.bucketSize(b), "seed " + seed + " bucket " + b);
        }
    }

    @Test
    void restoredEntriesAreFoundWithoutReadingNamesAndGrowTheTable() {
        String[] names = new String[5_000];
        int[] nameReads = {0};
        NameIndex index = new NameIndex((i, name) -> {
            nameReads[0]++;
            return name.equals(names[i]);
        }, 12, 2);
        for (int i = 1; i < names.length; i++) {
            names[i] = "e" + i;
            index.restore(7, NameIndex.hash(7, names[i]), Ids.entity(i, i % 5));
        }
        assertEquals(0, nameReads[0], "restoring reads no name");
        assertEquals(names.length - 1, index.size());
        assertTrue(index.capacity() >= 4 * (names.length - 1) / 3, "at most three quarters full: " + index.capacity());
        for (int i = 1; i < names.length; i++) {
            assertEquals(Ids.entity(i, i % 5), index.get(7, names[i]));
        }
        assertEquals(names.length - 1, nameReads[0], "a hit compares the one candidate's name");
        assertEquals(0, index.get(8, "e1"), "another parent");
        assertEquals(0, index.get(7, "e0"));
    }

    @Test
    void anEntityWithoutAnIndexIsRefused() {
        NameIndex index = new NameIndex((i, name) -> false);
        assertThrows(IllegalArgumentException.class, () -> index.put(0, "x", 0L));
        assertThrows(IllegalArgumentException.class, () -> index.put(0, "x", Ids.pair(Ids.entity(3, 0), Ids.entity(4, 0))));
        assertThrows(IllegalArgumentException.class, () -> new NameIndex((i, name) -> false, 17, 8));
        assertEquals(0, index.size());
    }
}
