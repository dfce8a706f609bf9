package dev.quiver.index;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The bulk lookups of a lazy reverse index ({@link ReverseIndex#entryCount(int[], int, int, int)},
 * {@link ReverseIndex#sources(int[], int, int, int, int[], int)}) ask the block filter once per run
 * of targets in one block, not once per target, and answer as the lookups one target at a time do.
 */
class ReverseIndexFilterRunsTest {
    private static final int SHIFT = 3; // blocks of 8 targets
    private static final int TARGETS = 96;
    private static final int REL = 5;

    /** Stored lists by target: {@code lists[t]} entries, relationship in the high half. */
    private static long[][] stored(Random rnd) {
        long[][] lists = new long[TARGETS][];
        for (int t = 0; t < TARGETS; t++) {
            int block = t >>> SHIFT;
            boolean holds = block % 3 != 1; // every third block holds no entry of REL (its filter says so)
            boolean first = holds && (t & ((1 << SHIFT) - 1)) == 0; // the others' first target holds one
            int n = first ? 1 + rnd.nextInt(3) : rnd.nextInt(4);
            lists[t] = new long[n];
            for (int j = 0; j < n; j++) {
                int rel = first && j == 0 ? REL : holds ? 5 + rnd.nextInt(3) : 6 + rnd.nextInt(2);
                lists[t][j] = ((long) rel << 32) | (1000 + t * 10 + j);
            }
        }
        return lists;
    }

    /** A lazy index over {@code lists} whose filter counts its calls in {@code asked[0]}. */
    private static ReverseIndex lazy(long[][] lists, long[] asked) {
        var r = new ReverseIndex();
        r.lazy(SHIFT, b -> {
            for (int t = b << SHIFT; t < Math.min(TARGETS, (b + 1) << SHIFT); t++) {
                if (lists[t].length > 0) {
                    r.put(t, new LongArrayList(lists[t]));
                }
            }
        }, () -> {
            throw new AssertionError("no whole-index read expected");
        }, (block, rel) -> {
            asked[0]++;
            for (int t = block << SHIFT; t < Math.min(TARGETS, (block + 1) << SHIFT); t++) {
                for (long e : lists[t]) {
                    if ((int) (e >>> 32) == rel) {
                        return true;
                    }
                }
            }
            return false;
        });
        return r;
    }

    @Test
    void theFilterIsAskedOncePerRunOfTargetsInOneBlock() {
        long[][] lists = stored(new Random(7));
        long[] asked = {0};
        ReverseIndex r = lazy(lists, asked);
        // blocks 0, 1 (no REL: skipped, not read), 0 again, 2: the filter is asked about a block
        // not in memory, once for each of the runs of blocks 0, 1 and 2 (one at a time: 10 times)
        int[] q = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 3, 4, 16, 17, 18};
        int room = r.entryCount(q, 0, q.length, REL);
        assertEquals(3, asked[0]);
        int[] out = new int[room];
        int end = r.sources(q, 0, q.length, REL, out, 0);
        assertEquals(3 + 1, asked[0]); // block 1 is still not in memory (one at a time: 8 more)
        assertEquals(2 * 8, r.lookupsSkipped()); // block 1's eight targets, in each call
        assertArrayEquals(oneByOne(lists, q), Arrays.copyOf(out, end));
    }

    @Test
    void bulkLookupsAnswerAsOneTargetAtATime() {
        long seed = Long.getLong("quiver.seed", System.nanoTime() % 100000);
        System.out.println("ReverseIndexFilterRunsTest seed " + seed + " (-Dquiver.seed=" + seed + ")");
        Random rnd = new Random(seed);
        for (int round = 0; round < 200; round++) {
            long[][] lists = stored(rnd);
            long[] asked = {0};
            ReverseIndex r = lazy(lists, asked);
            if (rnd.nextBoolean()) {
                r.budget(1 + rnd.nextInt(3)); // blocks forgotten between and within lookups
            }
            long[] askedOne = {0};
            ReverseIndex single = lazy(lists, askedOne);
            for (int walk = 0; walk < 5; walk++) {
                int[] q = queue(rnd);
                int from = rnd.nextInt(3);
                int n = q.length - from - rnd.nextInt(3);
                int[] slice = Arrays.copyOfRange(q, from, from + n);
                int room = r.entryCount(q, from, n, REL);
                int[] out = new int[room + 2];
                int end = r.sources(q, from, n, REL, out, 2);
                var expect = new IntArrayList();
                int bound = 0;
                for (int t : slice) {
                    bound += single.entryCount(new int[] {t}, 0, 1, REL);
                    single.sources(t, REL, expect);
                }
                assertEquals(bound, room, "seed " + seed);
                assertArrayEquals(expect.toIntArray(), Arrays.copyOfRange(out, 2, end), "seed " + seed);
                assertArrayEquals(oneByOne(lists, slice), Arrays.copyOfRange(out, 2, end), "seed " + seed);
            }
            assertEquals(single.lookupsSkipped(), r.lookupsSkipped(), "seed " + seed);
        }
    }

    /** Runs of consecutive targets, as a breadth-first queue of siblings has them. */
    private static int[] queue(Random rnd) {
        var q = new IntArrayList();
        for (int k = rnd.nextInt(6); k >= 0; k--) {
            int start = rnd.nextInt(TARGETS);
            for (int t = start, len = 1 + rnd.nextInt(12); t < Math.min(TARGETS, start + len); t++) {
                q.add(t);
            }
        }
        while (q.size() < 5) {
            q.add(rnd.nextInt(TARGETS));
        }
        return q.toIntArray();
    }

    /** The sources of relationship {@link #REL} of each target in turn, read from the stored lists. */
    private static int[] oneByOne(long[][] lists, int[] targets) {
        var out = new IntArrayList();
        for (int t : targets) {
            for (long e : lists[t]) {
                if ((int) (e >>> 32) == REL) {
                    out.add((int) e);
                }
            }
        }
        return out.toIntArray();
    }
}
