package dev.quiver.index;

import it.unimi.dsi.fastutil.longs.LongArrayList;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ReverseIndex#reserve}: room for a batch's entries changes no entry; a target's list is
 * not copied while the reserved entries are added; a target without entries stays without until
 * an add, which then uses the room reserved for it (the last target reserved only).
 */
class ReverseIndexReserveTest {
    @Test
    void reservingChangesNoEntryAndAddsDoNotCopyTheList() {
        ReverseIndex r = new ReverseIndex();
        r.add(5, 1L);
        r.reserve(5, 1000);
        LongArrayList l = r.mutableList(5);
        assertEquals(1, l.size());
        long[] room = l.elements();
        assertTrue(room.length >= 1001);
        for (int i = 0; i < 1000; i++) {
            r.add(5, 2L + i);
        }
        assertSame(room, r.mutableList(5).elements());
        assertEquals(1001, r.mutableList(5).size());
        assertEquals(1, r.targetCount());
    }

    @Test
    void aTargetWithoutEntriesStaysWithoutUntilAnAdd() {
        ReverseIndex r = new ReverseIndex();
        r.reserve(3000, 10); // past the initial array: the array grows, no list appears
        assertNull(r.mutableList(3000));
        assertFalse(r.contains(3000));
        assertEquals(0, r.targetCount());
        for (int i = 0; i < 10; i++) {
            r.add(3000, i);
        }
        assertEquals(10, r.mutableList(3000).size());
        assertTrue(r.mutableList(3000).elements().length >= 10);
        assertEquals(1, r.targetCount());
        r.reserve(7, 4);
        r.reserve(8, 4); // the room of 7 is dropped: only the last target reserved keeps it
        r.add(7, 70L);
        r.add(8, 80L);
        assertEquals(LongArrayList.of(70L), r.mutableList(7));
        assertEquals(LongArrayList.of(80L), r.mutableList(8));
        r.remove(8, 80L);
        assertNull(r.mutableList(8));
        r.add(8, 81L); // a list dropped when emptied comes back fresh
        assertEquals(LongArrayList.of(81L), r.mutableList(8));
        assertEquals(3, r.targetCount());
    }

    /**
     * Batch after batch (a prefab instantiated 1,000 at a time: each batch reserves room for its
     * entries, then adds one first through the rules and the rest), the list grows by half again
     * at least, so it is copied a few times in all, not once per batch (O(instances) each time).
     */
    @Test
    void batchAfterBatchTheListIsCopiedLogarithmicallyOften() {
        ReverseIndex r = new ReverseIndex();
        r.add(5, 0L);
        int copies = 0;
        long entry = 1;
        for (int batch = 0; batch < 200; batch++) {
            long[] before = r.mutableList(5).elements();
            r.reserve(5, 1000);
            for (int i = 0; i < 1000; i++) {
                r.add(5, entry++);
            }
            copies += r.mutableList(5).elements() == before ? 0 : 1;
        }
        assertEquals(200_001, r.mutableList(5).size());
        for (int i = 0; i < 200_001; i++) {
            if (r.mutableList(5).getLong(i) != i) {
                throw new AssertionError("entry " + i + " is " + r.mutableList(5).getLong(i));
            }
        }
        assertTrue(copies <= 20, copies + " copies of the list in 200 batches");
    }
}
