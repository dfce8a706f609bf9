package dev.quiver.index;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import org.junit.jupiter.api.Test;

import java.util.Collections;
import java.util.IdentityHashMap;
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
}
