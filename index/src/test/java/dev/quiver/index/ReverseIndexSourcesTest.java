package dev.quiver.index;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import org.junit.jupiter.api.Test;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ReverseIndex#sources}: a target's sources of one relationship (or of any) appended to a
 * caller's list, as a breadth-first walk feeds its queue; the list grows geometrically, so feeding
 * a queue target by target costs linear time, not quadratic.
 */
class ReverseIndexSourcesTest {
    private static long entry(int relationship, int source) {
        return ((long) relationship << 32) | source;
    }

    @Test
    void appendsTheSourcesOfOneRelationshipOrOfAny() {
        ReverseIndex r = new ReverseIndex();
        r.add(7, entry(3, 100));
        r.add(7, entry(4, 101));
        r.add(7, entry(3, 102));
        IntArrayList out = IntArrayList.of(1, 2);
        assertEquals(2, r.sources(7, 3, out));
        assertEquals(IntArrayList.of(1, 2, 100, 102), out);
        assertEquals(3, r.sources(7, -1, out));
        assertEquals(IntArrayList.of(1, 2, 100, 102, 100, 101, 102), out);
        assertEquals(0, r.sources(8, 3, out));
        assertEquals(7, out.size());
    }

    @Test
    void aQueueFedTargetByTargetGrowsGeometrically() {
        ReverseIndex r = new ReverseIndex();
        int targets = 20_000;
        for (int t = 0; t < targets; t++) {
            for (int s = 0; s < 10; s++) {
                r.add(t, entry(3, t * 10 + s));
            }
        }
        IntArrayList queue = new IntArrayList();
        Set<int[]> arrays = Collections.newSetFromMap(new IdentityHashMap<>());
        for (int t = 0; t < targets; t++) {
            r.sources(t, 3, queue);
            arrays.add(queue.elements());
        }
        assertEquals(targets * 10, queue.size());
        for (int i = 0; i < queue.size(); i++) {
            assertEquals(i, queue.getInt(i));
        }
        assertTrue(arrays.size() < 40, arrays.size() + " arrays for " + targets + " appends: the queue was copied on every call");
    }

    /**
     * The many-target form appends exactly what one call per target in turn appends, for one
     * relationship or any, from a separate array or from a slice of the output list itself (a
     * breadth-first queue), across the list's growth.
     */
    @Test
    void manyTargetsAtOnceAppendWhatOneAtATimeAppends() {
        long seed = Long.getLong("quiver.seed", System.nanoTime() % 100000);
        System.out.println("ReverseIndexSourcesTest seed " + seed + " (-Dquiver.seed=" + seed + ")");
        Random rnd = new Random(seed);
        ReverseIndex r = new ReverseIndex();
        int targets = 300;
        for (int t = 0; t < targets; t++) {
            for (int k = rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(12); k > 0; k--) {
                r.add(t, entry(1 + rnd.nextInt(3), rnd.nextInt(targets)));
            }
        }
        for (int round = 0; round < 50; round++) {
            int rel = rnd.nextInt(4) - 1; // -1: any
            int[] ts = new int[1 + rnd.nextInt(80)];
            for (int i = 0; i < ts.length; i++) {
                ts[i] = rnd.nextInt(targets + 20); // some past every target
            }
            IntArrayList prefix = new IntArrayList();
            for (int i = rnd.nextInt(5); i > 0; i--) {
                prefix.add(rnd.nextInt(1000));
            }
            IntArrayList want = new IntArrayList(prefix);
            int wantN = 0;
            for (int t : ts) {
                wantN += r.sources(t, rel, want);
            }
            IntArrayList got = new IntArrayList(prefix);
            int from = rnd.nextInt(3);
            int[] padded = new int[from + ts.length];
            System.arraycopy(ts, 0, padded, from, ts.length);
            assertEquals(wantN, r.sources(padded, from, ts.length, rel, got), "seed " + seed);
            assertEquals(want, got, "seed " + seed);
            // the targets as a slice of the output list itself, below its size
            IntArrayList queue = new IntArrayList(prefix);
            queue.addElements(queue.size(), ts);
            IntArrayList wantQueue = new IntArrayList(queue);
            for (int t : ts) {
                r.sources(t, rel, wantQueue);
            }
            queue.trim(); // no spare room: the appends must grow the list while reading the slice
            r.sources(queue.elements(), prefix.size(), ts.length, rel, queue);
            assertEquals(wantQueue, queue, "seed " + seed);
            // the plain-array form: room for entryCount, written from `at` on only, the slice of the
            // targets inside the same array below `at`
            int at = prefix.size() + ts.length;
            int room = r.entryCount(ts, 0, ts.length);
            int[] arr = new int[at + room + 3];
            java.util.Arrays.fill(arr, -7);
            System.arraycopy(prefix.elements(), 0, arr, 0, prefix.size());
            System.arraycopy(ts, 0, arr, prefix.size(), ts.length);
            int end = r.sources(arr, prefix.size(), ts.length, rel, arr, at);
            assertEquals(wantQueue.size(), end, "seed " + seed);
            assertEquals(wantQueue, IntArrayList.wrap(arr, end), "seed " + seed);
            for (int i = end; i < arr.length; i++) {
                assertEquals(-7, arr[i], "seed " + seed + ": nothing written past the end");
            }
        }
    }
}
