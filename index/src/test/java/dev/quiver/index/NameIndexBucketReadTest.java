package dev.quiver.index;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reading stored name buckets one after another, as a snapshot's or the checker's full read and a
 * lazy reader's bucket loads do, costs work linear in the names read whatever the order: the
 * index's probe counter ({@link NameIndex#probes}) is checked after every bucket, so a layout
 * where the buckets read so far crowd one part of a shared table (issue 8: RG-1 depth 6's
 * snapshot took 43.7 s instead of 1.7 s) fails at the first buckets, without timing anything.
 * Then every name is looked up against the model, in bucket order, reverse order and a random
 * order (seed printed; {@code -Dquiver.seed=N}), with and without the page's size reserved first.
 */
class NameIndexBucketReadTest {
    private static final int BUCKET_BITS = 12;
    private static final int BUCKETS = 1 << BUCKET_BITS;
    /** Slots examined per name filed, at most: inserting at most three quarters full averages
     * under 3, and growing a table re-inserts what it holds (at most as many again over all
     * doublings). */
    private static final int PROBES_PER_NAME = 8;

    private static long seed() {
        long seed = Long.getLong("quiver.seed", System.nanoTime());
        System.out.println("NameIndexBucketReadTest seed " + seed + " (-Dquiver.seed=" + seed + ")");
        return seed;
    }

    /** A world's names: entity i is named {@code "e" + i} under parent {@code parents[i]}. */
    private record World(String[] names, int[] parents, int[] hashes, int[] generations, List<List<Integer>> buckets) {
        static World make(Random rnd, int entities) {
            String[] names = new String[entities];
            int[] parents = new int[entities];
            int[] hashes = new int[entities];
            int[] generations = new int[entities];
            List<List<Integer>> buckets = new ArrayList<>();
            for (int b = 0; b < BUCKETS; b++) {
                buckets.add(new ArrayList<>());
            }
            for (int i = 1; i < entities; i++) {
                names[i] = "e" + i;
                parents[i] = rnd.nextInt(1 + i / 10); // a tree-ish spread of parents, some shared
                hashes[i] = NameIndex.hash(parents[i], names[i]);
                generations[i] = rnd.nextInt(4);
                buckets.get(hashes[i] >>> (32 - BUCKET_BITS)).add(i);
            }
            return new World(names, parents, hashes, generations, buckets);
        }
    }

    @Test
    void bucketsReadInAnyOrderCostLinearWorkAndAnswerAsTheModel() {
        long seed = seed();
        Random rnd = new Random(seed);
        World w = World.make(rnd, 200_000);
        List<Integer> inOrder = new ArrayList<>();
        for (int b = 0; b < BUCKETS; b++) {
            inOrder.add(b);
        }
        List<Integer> reverse = new ArrayList<>(inOrder);
        Collections.reverse(reverse);
        List<Integer> shuffled = new ArrayList<>(inOrder);
        Collections.shuffle(shuffled, new Random(seed));
        for (boolean reserve : new boolean[]{false, true}) {
            readAndCheck(w, inOrder, reserve, "in order, reserve " + reserve + ", seed " + seed);
            readAndCheck(w, reverse, reserve, "reverse, reserve " + reserve + ", seed " + seed);
            readAndCheck(w, shuffled, reserve, "random order, reserve " + reserve + ", seed " + seed);
        }
    }

    private static void readAndCheck(World w, List<Integer> order, boolean reserve, String what) {
        NameIndex index = new NameIndex((i, name) -> name.equals(w.names[i]), BUCKET_BITS, 16);
        long filed = 0;
        for (int b : order) {
            List<Integer> page = w.buckets.get(b);
            if (reserve) {
                index.reserve(b, page.size());
            }
            for (int i : page) {
                index.restore(w.parents[i], w.hashes[i], Ids.entity(i, w.generations[i]));
            }
            filed += page.size();
            assertTrue(index.probes() <= PROBES_PER_NAME * filed,
                    what + ": " + index.probes() + " slots probed for " + filed + " names after bucket " + b);
            assertEquals(filed, index.size(), what);
        }
        long before = index.probes();
        for (int i = 1; i < w.names.length; i++) {
            assertEquals(Ids.entity(i, w.generations[i]), index.get(w.parents[i], w.names[i]), what + ": e" + i);
            assertEquals(0, index.get(w.parents[i] + 1, w.names[i]), what + ": e" + i + " under another parent");
        }
        long lookups = 2L * (w.names.length - 1);
        assertTrue(index.probes() - before <= 4 * lookups, what + ": " + (index.probes() - before) + " slots for " + lookups + " lookups");
        for (int b = 0; b < BUCKETS; b++) {
            List<Integer> seen = new ArrayList<>();
            int bucket = b;
            index.forEachInBucket(b, (parent, e, hash) -> {
                assertEquals(bucket, index.bucketOf(hash), what);
                assertEquals(w.parents[Ids.index(e)], parent, what);
                assertEquals(w.hashes[Ids.index(e)], hash, what);
                seen.add(Ids.index(e));
            });
            Collections.sort(seen);
            assertEquals(w.buckets.get(b), seen, what + ": bucket " + b);
            assertTrue(index.bucketCapacity(b) * 3L >= w.buckets.get(b).size() * 4L, what + ": at most three quarters full");
        }
    }

    @Test
    void oneBucketReadCostsOnlyItsOwnSlots() {
        long seed = seed();
        World w = World.make(new Random(seed), 200_000);
        NameIndex index = new NameIndex((i, name) -> name.equals(w.names[i]), BUCKET_BITS, 16);
        int b = new Random(seed).nextInt(BUCKETS);
        List<Integer> page = w.buckets.get(b);
        index.reserve(b, page.size());
        for (int i : page) {
            index.restore(w.parents[i], w.hashes[i], Ids.entity(i, w.generations[i]));
        }
        // the smallest power of two at most three quarters full, whatever the world's size
        long smallest = 16;
        while (page.size() * 4L > smallest * 3) {
            smallest *= 2;
        }
        assertEquals(smallest, index.capacity(), "seed " + seed + ": bucket " + b + " of " + page.size() + " names");
        assertEquals(index.capacity(), index.bucketCapacity(b));
        for (int i : page) {
            assertEquals(Ids.entity(i, w.generations[i]), index.get(w.parents[i], w.names[i]), "seed " + seed);
        }
        assertEquals(page.size(), index.removeBucket(b));
        assertEquals(0, index.capacity(), "a dropped bucket keeps no table");
        assertEquals(0, index.size());
        assertEquals(0, index.get(w.parents[page.get(0)], w.names[page.get(0)]));
    }
}
