package dev.quiver.index;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class PagedMapTest {
    @TempDir
    Path tmp;

    private static byte[] blob(int n, int seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static Map<Long, byte[]> all(PagedMap m) {
        var out = new HashMap<Long, byte[]>();
        m.forEach(out::put);
        return out;
    }

    @Test
    void pagesOfEverySizeRoundTripAcrossReopen() {
        Path f = tmp.resolve("m.cm");
        int[] sizes = {0, 1, 100, PagedMap.SEGMENT_BYTES - 1, PagedMap.SEGMENT_BYTES, PagedMap.SEGMENT_BYTES + 1, 200_000};
        try (PagedMap m = PagedMap.open(f, "m", 100, 2048, false)) {
            for (int i = 0; i < sizes.length; i++) {
                m.put(-i * 7919L, blob(sizes[i], i));
            }
            assertArrayEquals(blob(200_000, 6), m.get(-6 * 7919L));
        }
        try (PagedMap m = PagedMap.open(f, "m", 100, 2048, false)) {
            Map<Long, byte[]> got = all(m);
            assertEquals(sizes.length, got.size());
            for (int i = 0; i < sizes.length; i++) {
                assertArrayEquals(blob(sizes[i], i), got.get(-i * 7919L), "page " + i);
            }
            // shrink a multi-segment page to one segment, grow a small one, remove one
            m.put(-6 * 7919L, blob(10, 60));
            m.put(-1 * 7919L, blob(100_000, 10));
            m.remove(-5 * 7919L);
            assertNull(m.get(-5 * 7919L));
        }
        for (boolean recover : new boolean[] {false, true}) {
            try (PagedMap m = PagedMap.open(f, "m", 100, 2048, recover)) {
                Map<Long, byte[]> got = all(m);
                assertEquals(sizes.length - 1, got.size());
                assertArrayEquals(blob(10, 60), got.get(-6 * 7919L));
                assertArrayEquals(blob(100_000, 10), got.get(-1 * 7919L));
                assertEquals(1 + 4 + 1 + 1 + 1 + 1, m.entryCount(), "no stale segments left");
            }
        }
    }

    @Test
    void getReadsEveryPageSizeBackAfterReopen() {
        Path f = tmp.resolve("g.cm");
        int s = PagedMap.SEGMENT_BYTES;
        int[] sizes = {0, 1, 7, 8, 9, 177, s - 1, s, s + 1, 2 * s, 3 * s + 5};
        try (PagedMap m = PagedMap.open(f, "g", 100, 2048, false)) {
            for (int i = 0; i < sizes.length; i++) {
                m.put(1000L * i - 3, blob(sizes[i], i));
            }
        }
        try (PagedMap m = PagedMap.open(f, "g", 100, 2048, false)) {
            for (int i = 0; i < sizes.length; i++) {
                byte[] got = m.get(1000L * i - 3);
                assertArrayEquals(blob(sizes[i], i), got, "page of " + sizes[i] + " bytes");
                assertNotSame(got, m.get(1000L * i - 3), "each get returns its own array");
            }
            assertNull(m.get(42));
        }
    }

    /**
     * A one-segment page is read straight into the array returned (no copy of the whole Chronicle
     * entry, then of the blob after its header): a get allocates the blob and a small constant,
     * well under twice the blob.
     */
    @Test
    void getOfAOneSegmentPageAllocatesTheBlobOnce() {
        var mx = java.lang.management.ManagementFactory.getThreadMXBean();
        assumeTrue(mx instanceof com.sun.management.ThreadMXBean tm && tm.isThreadAllocatedMemorySupported()
                && tm.isThreadAllocatedMemoryEnabled(), "needs per-thread allocation counters");
        var tm = (com.sun.management.ThreadMXBean) mx;
        int n = 4096;
        try (PagedMap m = PagedMap.open(tmp.resolve("a.cm"), "a", 100, n, false)) {
            for (int p = 0; p < 16; p++) {
                m.put(p, blob(n, p));
            }
            long sum = 0;
            for (int i = 0; i < 2000; i++) { // warm-up
                sum += m.get(i & 15).length;
            }
            int gets = 2000;
            long before = tm.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < gets; i++) {
                sum += m.get(i & 15).length;
            }
            long perGet = (tm.getCurrentThreadAllocatedBytes() - before) / gets;
            assertEquals(4000L * n, sum);
            assertTrue(perGet < n + n / 2, "a get of a " + n + "-byte page allocated " + perGet + " bytes");
        }
    }

    @Test
    void smallAverageMapsStillHoldLargePages() {
        try (PagedMap m = PagedMap.open(tmp.resolve("s.cm"), "s", 100, 64, false)) {
            m.put(1, blob(300_000, 3));
            assertArrayEquals(blob(300_000, 3), m.get(1));
        }
    }

    @Test
    void notAChronicleFileIsACorruptionException() throws Exception {
        Path f = tmp.resolve("bad.cm");
        java.nio.file.Files.write(f, blob(4096, 1));
        assertThrows(dev.quiver.error.CorruptionException.class, () -> PagedMap.open(f, "bad", 100, 64, false));
    }

    @Test
    void idLayout() {
        long e = Ids.entity(300, 5);
        assertEquals(300, Ids.index(e));
        assertEquals(5, Ids.generation(e));
        long p = Ids.pair(e, Ids.entity(42, 9));
        assertTrue(Ids.isPair(p));
        assertEquals(300, Ids.first(p));
        assertEquals(42, Ids.second(p));
        assertTrue(Ids.isWildcard(Ids.pair(e, Ids.WILDCARD)));
        assertFalse(Ids.isWildcard(p));
        assertThrows(IllegalArgumentException.class, () -> Ids.pair(p, e));
    }
}
