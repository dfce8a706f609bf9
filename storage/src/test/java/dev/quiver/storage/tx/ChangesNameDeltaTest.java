package dev.quiver.storage.tx;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Changes#forEachNameDelta} nets a transaction's flat name log per bucket as a plain model
 * does: an entry filed last is added, an entry the committed bucket held and the end state lacks
 * is removed, an entry added then removed is in neither; buckets ascending, entries ascending;
 * an added entry carries the hash its last filing gave (a key filed again under a changed name
 * has a new hash). Seeded ({@code -Dquiver.seed=N}); buckets with many operations take the merge sort path.
 */
class ChangesNameDeltaTest {
    private record Key(int bucket, long entry) {}

    @Test
    void netChangesEqualTheModel() {
        long seed = Long.getLong("quiver.seed", System.nanoTime());
        System.out.println("ChangesNameDeltaTest seed " + seed + " (-Dquiver.seed=" + seed + ")");
        Random rnd = new Random(seed);
        Changes c = new Changes();
        for (int round = 0; round < 200; round++) {
            int buckets = 1 + rnd.nextInt(round % 2 == 0 ? 4 : 4096); // few buckets: long groups (merge sort)
            int keys = 1 + rnd.nextInt(300);
            var committed = new HashMap<Key, Boolean>();
            var present = new HashMap<Key, Boolean>();
            var lastAdded = new HashMap<Key, Boolean>();
            var lastHash = new HashMap<Key, Integer>();
            List<Key> all = new ArrayList<>();
            for (int k = 0; k < keys; k++) {
                Key key = new Key(rnd.nextInt(buckets), ((long) (1 + rnd.nextInt(1 << 20)) << 32) | rnd.nextInt(1000));
                if (committed.containsKey(key)) {
                    continue;
                }
                boolean p = rnd.nextBoolean();
                committed.put(key, p);
                present.put(key, p);
                all.add(key);
            }
            int ops = rnd.nextInt(2000);
            for (int i = 0; i < ops; i++) {
                Key key = all.get(rnd.nextInt(all.size()));
                int index = (int) (key.entry >>> 32), parent = (int) key.entry;
                if (present.get(key)) {
                    c.nameRemoved(key.bucket, index, parent);
                    present.put(key, false);
                    lastAdded.put(key, false);
                } else {
                    int hash = rnd.nextInt();
                    c.nameAdded(key.bucket, index, parent, hash);
                    present.put(key, true);
                    lastAdded.put(key, true);
                    lastHash.put(key, hash);
                }
            }
            var expectAdded = new TreeMap<Integer, TreeSet<Long>>();
            var expectHashes = new TreeMap<Integer, Map<Long, Integer>>();
            var expectRemoved = new TreeMap<Integer, TreeSet<Long>>();
            for (Key key : all) {
                Boolean last = lastAdded.get(key);
                if (last == null) {
                    continue; // untouched
                }
                if (last) {
                    expectAdded.computeIfAbsent(key.bucket, b -> new TreeSet<>()).add(key.entry);
                    expectHashes.computeIfAbsent(key.bucket, b -> new HashMap<>()).put(key.entry, lastHash.get(key));
                } else if (committed.get(key)) {
                    expectRemoved.computeIfAbsent(key.bucket, b -> new TreeSet<>()).add(key.entry);
                }
            }
            var gotAdded = new TreeMap<Integer, List<Long>>();
            var gotRemoved = new TreeMap<Integer, List<Long>>();
            var gotHashes = new TreeMap<Integer, Map<Long, Integer>>();
            int[] prevBucket = {-1};
            c.forEachNameDelta((b, added, hashes, na, removed, nr) -> {
                assertTrue(b > prevBucket[0], "buckets ascending");
                prevBucket[0] = b;
                assertTrue(na + nr > 0, "a bucket without a net change is not visited");
                var a = new ArrayList<Long>();
                for (int i = 0; i < na; i++) {
                    assertTrue(i == 0 || added[i - 1] < added[i], "added entries ascending, each once");
                    a.add(added[i]);
                    gotHashes.computeIfAbsent(b, x -> new HashMap<>()).put(added[i], hashes[i]);
                }
                var r = new ArrayList<Long>();
                for (int i = 0; i < nr; i++) {
                    assertTrue(i == 0 || removed[i - 1] < removed[i], "removed entries ascending, each once");
                    r.add(removed[i]);
                }
                if (!a.isEmpty()) {
                    gotAdded.put(b, a);
                }
                if (!r.isEmpty()) {
                    gotRemoved.put(b, r);
                }
            });
            assertEquals(asLists(expectAdded), gotAdded, "added, round " + round + ", seed " + seed);
            assertEquals(asLists(expectRemoved), gotRemoved, "removed, round " + round + ", seed " + seed);
            assertEquals(expectHashes, gotHashes, "added entries' hashes, round " + round + ", seed " + seed);
            assertEquals(ops, c.nameOps());
            c.clear();
            assertEquals(0, c.nameOps());
            assertTrue(c.nameBlocks().isEmpty());
            c.forEachNameDelta((b, added, hashes, na, removed, nr) -> {
                throw new AssertionError("a cleared transaction has no name delta");
            });
        }
    }

    /** A bulk transaction touches a bucket once in {@link Changes#nameBlocks}, however many entries it files there. */
    @Test
    void bucketsAreCountedOnce() {
        Changes c = new Changes();
        for (int i = 1; i <= 50_000; i++) {
            c.nameAdded(i % 4096, i, 0, i);
        }
        assertEquals(4096, c.nameBlocks().size());
        int[] visited = {0, 0};
        c.forEachNameDelta((b, added, hashes, na, removed, nr) -> {
            visited[0]++;
            visited[1] += na;
            assertEquals(0, nr);
            for (int i = 0; i < na; i++) {
                assertEquals((int) (added[i] >>> 32), hashes[i], "entity i filed with hash i");
            }
        });
        assertEquals(4096, visited[0]);
        assertEquals(50_000, visited[1]);
    }

    private static Map<Integer, List<Long>> asLists(TreeMap<Integer, TreeSet<Long>> m) {
        var out = new TreeMap<Integer, List<Long>>();
        m.forEach((b, s) -> out.put(b, new ArrayList<>(s)));
        return out;
    }
    /**
     * A batch's commit after another of the same size allocates no sort arrays: the log is sorted
     * by bucket into arrays kept from one commit to the next (a prefab batch of 1,000 instances
     * files 10,000 names a commit). Allocation measured by the JVM for this thread, never timings.
     */
    @Test
    void aSecondBatchOfNamesSortsIntoKeptArrays() {
        var threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        org.junit.jupiter.api.Assumptions.assumeTrue(threads.isThreadAllocatedMemorySupported());
        Changes c = new Changes();
        int n = 10_000;
        long[] sum = {0};
        Changes.NameDeltaVisitor visitor = (b, added, hashes, na, removed, nr) -> {
            for (int i = 0; i < na; i++) {
                sum[0] += added[i] + hashes[i];
            }
        };
        long allocated = Long.MAX_VALUE;
        for (int round = 0; round < 5; round++) {
            for (int i = 1; i <= n; i++) {
                c.nameAdded((int) (i * 2_654_435_761L >>> 20 & 4095), i, round, i); // scattered buckets, a few names each
            }
            long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
            c.forEachNameDelta(visitor);
            allocated = Math.min(allocated, threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before);
            c.clear();
        }
        assertTrue(sum[0] != 0);
        // sorting into new arrays allocates two longs per name (160 KB here)
        assertTrue(allocated < 16 * 1024, allocated + " bytes allocated by the netting of " + n + " names");
    }
}
