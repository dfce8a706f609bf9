package dev.quiver.storage.tx;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Changes#expectNameOps}: a cascade delete's name removals, announced before they are
 * logged, grow the name log once (16 bytes an operation) instead of by half again from a small
 * transaction's size (about three times that); the log nets to the same removals.
 */
class ChangesExpectNameOpsTest {
    private static final int N = 100_000;

    private static long allocated() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    /** Bytes allocated logging N removals over 64 buckets, announced first or not. */
    private static long logRemovals(Changes c, boolean announce) {
        long a0 = allocated();
        if (announce) {
            c.expectNameOps(N);
        }
        for (int i = 0; i < N; i++) {
            c.nameRemoved(i & 63, 1000 + i, 7);
        }
        return allocated() - a0;
    }

    @Test
    void announcedRemovalsGrowTheLogOnce() {
        Changes warm = new Changes(); // classes loaded, the allocation counter's own first use
        logRemovals(warm, true);
        logRemovals(warm, false);
        Changes c = new Changes();
        long announced = logRemovals(c, true);
        assertTrue(announced < 16L * N * 5 / 4, "one log of 16 B an operation, not grown by steps: " + announced + " B");
        assertEquals(N, c.nameOps());
        long[] removed = new long[1];
        c.forEachNameDelta((bucket, added, hashes, na, rem, nr) -> removed[0] += nr);
        assertEquals(N, removed[0], "every removal nets as before");
        Changes u = new Changes();
        long grown = logRemovals(u, false);
        assertTrue(grown > 2 * 16L * N, "the log grown by steps allocates about three times its size: " + grown + " B");
    }

    @Test
    void aNegativeCountIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Changes().expectNameOps(-1));
    }
}
