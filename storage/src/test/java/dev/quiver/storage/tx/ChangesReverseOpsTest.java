package dev.quiver.storage.tx;

import it.unimi.dsi.fastutil.longs.LongArrayList;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Changes#reverseOps}: a block's operations in order, per transaction. The operation
 * lists of one transaction are kept for the next ones (emptied at {@link Changes#clear}); a
 * later transaction sees only its own operations, and a block written whole logs none.
 */
class ChangesReverseOpsTest {
    private static final int BLOCK = 1 << Changes.TARGET_BLOCK_SHIFT;

    @Test
    void eachTransactionLogsOnlyItsOwnOperations() {
        Changes c = new Changes();
        for (int i = 0; i < 5000; i++) {
            c.reverseAdded(3, i); // block 0, a prefab's list
            c.reverseAdded(BLOCK + (i % 7), 100 + i); // block 1
        }
        assertEquals(10000, c.reverseOps().get(0).size());
        c.clear();
        assertTrue(c.reverseOps().isEmpty());
        c.reverseAdded(2 * BLOCK + 5, 42L);
        c.reverseRemoved(2 * BLOCK + 5, 42L);
        c.reverseAdded(4, 7L);
        assertEquals(LongArrayList.of(5L << 1, 42L, (5L << 1) | 1, 42L), c.reverseOps().get(2));
        assertEquals(LongArrayList.of(4L << 1, 7L), c.reverseOps().get(0));
        assertNull(c.reverseOps().get(1));
        c.target(2 * BLOCK); // written whole: its operations are dropped, and later ones not logged
        c.reverseAdded(2 * BLOCK + 6, 43L);
        assertFalse(c.reverseOps().containsKey(2));
        assertTrue(c.wholeTargetBlocks().contains(2));
        assertTrue(c.targetBlocks().contains(2));
        c.clear();
        c.reverseAdded(2 * BLOCK + 6, 44L); // a new transaction logs the block's operations again
        assertEquals(LongArrayList.of(6L << 1, 44L), c.reverseOps().get(2));
        assertEquals(1, c.reverseOps().size());
    }
}
