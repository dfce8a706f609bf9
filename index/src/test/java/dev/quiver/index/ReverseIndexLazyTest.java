package dev.quiver.index;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The reverse index read block by block: each method keeps its meaning, blocks are read when touched. */
class ReverseIndexLazyTest {
    /** Stored lists: target to entries, blocks of 4 targets (shift 2). */
    private final Map<Integer, long[]> stored = new TreeMap<>(Map.of(
            1, new long[] {(5L << 32) | 100}, 2, new long[] {(5L << 32) | 101, (6L << 32) | 102},
            9, new long[] {(5L << 32) | 103}, 13, new long[] {(7L << 32) | 104}));

    private ReverseIndex lazy(int[] reads) {
        var r = new ReverseIndex();
        Runnable[] all = new Runnable[1];
        r.lazy(2, b -> {
            reads[0]++;
            stored.forEach((t, l) -> {
                if (t >>> 2 == b) {
                    r.put(t, new LongArrayList(l));
                }
            });
        }, () -> all[0].run());
        all[0] = () -> {
            for (int b = 0; b <= 13 >>> 2; b++) {
                if (!r.blocks().isLoaded(b)) {
                    r.blocks().markLoaded(b);
                    final int block = b;
                    stored.forEach((t, l) -> {
                        if (t >>> 2 == block) {
                            r.put(t, new LongArrayList(l));
                        }
                    });
                }
            }
            r.blocks().eager();
        };
        return r;
    }

    @Test
    void aBlockIsReadWhenOneOfItsTargetsIsTouched() {
        int[] reads = {0};
        ReverseIndex r = lazy(reads);
        assertEquals(0, reads[0]);
        assertEquals(2, r.get(2).size());
        assertEquals(1, reads[0]);
        assertEquals(1, r.get(1).size()); // same block
        assertEquals(1, reads[0]);
        assertNull(r.get(5)); // block 1: no list for 5
        assertEquals(2, reads[0]);
        var seen = new IntArrayList();
        r.forEachSource(9, 5, seen::add);
        assertEquals(IntArrayList.of(103), seen);
        // a change to an unread block reads it first, so the stored entries stay
        r.add(13, (8L << 32) | 105);
        assertEquals(2, r.get(13).size());
        // unload forgets the change: the next touch reads the stored block again
        assertTrue(r.unload(13 >>> 2));
        assertEquals(1, r.get(13).size());
        // the whole-index methods read every block
        assertEquals(IntArrayList.of(1, 2, 9, 13), r.targets());
        assertEquals(4, r.targetCount());
    }

    @Test
    void aBudgetKeepsTheNewestBlocks() {
        int[] reads = {0};
        ReverseIndex r = lazy(reads);
        r.budget(1);
        assertEquals(2, r.get(2).size());
        assertEquals(1, r.get(9).size());
        assertEquals(1, r.blocksLoaded());
        assertEquals(2, r.get(2).size()); // forgotten, read again
        assertEquals(3, reads[0]);
        assertEquals(3, r.blocksRead());
        assertEquals(1, r.blocksLoaded());
    }
}
