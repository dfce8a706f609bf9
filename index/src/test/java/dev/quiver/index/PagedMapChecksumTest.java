package dev.quiver.index;

import dev.quiver.error.CorruptionException;
import net.openhft.chronicle.map.ChronicleMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Page checksums: a page whose bytes, key or segments were changed behind the map's back is refused
 * by {@link PagedMap#get} and {@link PagedMap#forEach} with a {@link CorruptionException} naming the
 * file and the page. The damage is done through Chronicle directly (the same file, the raw entries).
 */
class PagedMapChecksumTest {
    @TempDir
    Path tmp;

    private static final long SMALL = 7, LARGE = -42;

    private static byte[] blob(int n, int seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static byte[] key(long page, int segment) {
        byte[] k = new byte[10];
        for (int i = 0; i < 8; i++) {
            k[i] = (byte) (page >>> (56 - 8 * i));
        }
        k[8] = (byte) (segment >>> 8);
        k[9] = (byte) segment;
        return k;
    }

    /** A map with a one-segment page SMALL and a multi-segment page LARGE, closed. */
    private Path written() {
        Path f = tmp.resolve("m.cm");
        try (PagedMap m = PagedMap.open(f, "m", 100, 2048, false)) {
            m.put(SMALL, blob(100, 1));
            m.put(LARGE, blob(3 * PagedMap.SEGMENT_BYTES + 5, 2));
        }
        return f;
    }

    /** Changes the raw Chronicle entries of the file, as damage would. */
    private static void damage(Path f, Consumer<ChronicleMap<byte[], byte[]>> change) throws IOException {
        try (ChronicleMap<byte[], byte[]> raw = ChronicleMap.of(byte[].class, byte[].class)
                .name("m").constantKeySizeBySample(new byte[10]).averageValueSize(2048).entries(100)
                .maxBloatFactor(1000).createPersistedTo(f.toFile())) {
            change.accept(raw);
        }
    }

    private static void assertRefused(Path f, long page, String fragment) {
        try (PagedMap m = PagedMap.open(f, "m", 100, 2048, false)) {
            CorruptionException byGet = assertThrows(CorruptionException.class, () -> m.get(page));
            assertTrue(byGet.getMessage().contains(f.toString()) && byGet.getMessage().contains("page " + page)
                    && byGet.getMessage().contains(fragment), byGet.getMessage());
            CorruptionException byForEach = assertThrows(CorruptionException.class, () -> m.forEach((k, v) -> { }));
            assertTrue(byForEach.getMessage().contains(f.toString()) && byForEach.getMessage().contains(fragment),
                    byForEach.getMessage());
        }
    }

    @Test
    void intactPagesReadBackWithoutTheirHeader() {
        Path f = written();
        try (PagedMap m = PagedMap.open(f, "m", 100, 2048, false)) {
            assertArrayEquals(blob(100, 1), m.get(SMALL));
            assertArrayEquals(blob(3 * PagedMap.SEGMENT_BYTES + 5, 2), m.get(LARGE));
            Map<Long, byte[]> all = new HashMap<>();
            m.forEach(all::put);
            assertEquals(2, all.size());
            assertArrayEquals(blob(100, 1), all.get(SMALL));
        }
    }

    @Test
    void aChangedByteOfAOneSegmentPageIsRefused() throws IOException {
        Path f = written();
        damage(f, raw -> {
            byte[] v = raw.get(key(SMALL, 0));
            v[PagedMap.HEADER_BYTES + 50] ^= 0x10;
            raw.put(key(SMALL, 0), v);
        });
        assertRefused(f, SMALL, "fails its checksum");
    }

    @Test
    void aChangedByteOfALaterSegmentIsRefused() throws IOException {
        Path f = written();
        damage(f, raw -> {
            byte[] v = raw.get(key(LARGE, 2));
            v[v.length - 1] ^= 1;
            raw.put(key(LARGE, 2), v);
        });
        assertRefused(f, LARGE, "fails its checksum");
    }

    @Test
    void aChangedChecksumIsRefused() throws IOException {
        Path f = written();
        damage(f, raw -> {
            byte[] v = raw.get(key(SMALL, 0));
            v[5] ^= (byte) 0x80;
            raw.put(key(SMALL, 0), v);
        });
        assertRefused(f, SMALL, "fails its checksum");
    }

    @Test
    void aPageUnderAnotherKeyIsRefused() throws IOException {
        Path f = written();
        damage(f, raw -> raw.put(key(SMALL + 1, 0), raw.get(key(SMALL, 0))));
        assertRefused(f, SMALL + 1, "fails its checksum");
    }

    @Test
    void segmentsSwappedBetweenPagesOrInOrderAreRefused() throws IOException {
        Path f = written();
        damage(f, raw -> {
            byte[] one = raw.get(key(LARGE, 1));
            raw.put(key(LARGE, 1), raw.get(key(LARGE, 2)));
            raw.put(key(LARGE, 2), one);
        });
        assertRefused(f, LARGE, "fails its checksum");
    }

    @Test
    void aMissingSegmentIsRefused() throws IOException {
        Path f = written();
        damage(f, raw -> raw.remove(key(LARGE, 1)));
        assertRefused(f, LARGE, "misses segment 1");
    }

    @Test
    void aSegmentCountOutOfRangeIsRefused() throws IOException {
        for (int count : new int[] {0, -1, 0x10000, Integer.MAX_VALUE}) {
            Path f = written();
            damage(f, raw -> {
                byte[] v = raw.get(key(SMALL, 0));
                v[0] = (byte) (count >>> 24);
                v[1] = (byte) (count >>> 16);
                v[2] = (byte) (count >>> 8);
                v[3] = (byte) count;
                raw.put(key(SMALL, 0), v);
            });
            assertRefused(f, SMALL, "segment count " + count + " out of range");
            Files.delete(f);
        }
    }

    @Test
    void aSegmentCountThatDisagreesWithTheSegmentsIsRefused() throws IOException {
        Path f = written();
        damage(f, raw -> {
            byte[] v = raw.get(key(LARGE, 0));
            v[3] = 3; // 4 segments were written
            raw.put(key(LARGE, 0), v);
        });
        // the count is under the checksum; the left-over fourth segment alone would be ignored
        assertRefused(f, LARGE, "fails its checksum");
    }

    @Test
    void aSegmentZeroShorterThanItsHeaderIsRefused() throws IOException {
        Path f = written();
        damage(f, raw -> raw.put(key(SMALL, 0), new byte[] {0, 0, 0, 1, 9}));
        assertRefused(f, SMALL, "less than its 8-byte header");
    }

    @Test
    void anOversizedEntryIsRefusedBeforeItIsRead() throws IOException {
        Path f = written();
        damage(f, raw -> raw.put(key(SMALL, 0), new byte[PagedMap.SEGMENT_BYTES + PagedMap.HEADER_BYTES + 1]));
        assertRefused(f, SMALL, "claims " + (PagedMap.SEGMENT_BYTES + PagedMap.HEADER_BYTES + 1) + " bytes");
    }

    @Test
    void aMissingFirstSegmentIsRefused() throws IOException {
        Path f = written();
        damage(f, raw -> raw.remove(key(LARGE, 0)));
        try (PagedMap m = PagedMap.open(f, "m", 100, 2048, false)) {
            CorruptionException e = assertThrows(CorruptionException.class, () -> m.forEach((k, v) -> { }));
            assertTrue(e.getMessage().contains("page " + LARGE + " misses segment 0"), e.getMessage());
            assertEquals(null, m.get(LARGE), "without segment 0 the page is absent to get");
        }
    }

    @Test
    void leftOverSegmentsOfAnInterruptedShrinkAreIgnoredAndRemovedByTheNextPut() throws IOException {
        Path f = written();
        byte[] small = blob(10, 3);
        byte[][] leftOver = new byte[1][];
        damage(f, raw -> leftOver[0] = raw.get(key(LARGE, 3)));
        try (PagedMap m = PagedMap.open(f, "m", 100, 2048, false)) {
            m.forEach((k, v) -> { });
            m.put(LARGE, small); // removes segments 1..3
        }
        damage(f, raw -> raw.put(key(LARGE, 3), leftOver[0]));
        try (PagedMap m = PagedMap.open(f, "m", 100, 2048, false)) {
            Map<Long, byte[]> all = new HashMap<>();
            m.forEach(all::put);
            assertArrayEquals(small, all.get(LARGE));
            assertArrayEquals(small, m.get(LARGE));
            m.put(LARGE, blob(20, 4));
            assertEquals(2, m.entryCount(), "the left-over segment is gone");
        }
    }

    @Test
    void exceptionsOfTheActionPassThroughUnchanged() {
        Path f = written();
        try (PagedMap m = PagedMap.open(f, "m", 100, 2048, false)) {
            IllegalStateException mine = new IllegalStateException("mine");
            assertEquals(mine, assertThrows(IllegalStateException.class, () -> m.forEach((k, v) -> {
                throw mine;
            })));
            AssertionError failed = new AssertionError("a test's assertion");
            assertEquals(failed, assertThrows(AssertionError.class, () -> m.forEach((k, v) -> {
                throw failed;
            })));
            CorruptionException decoded = new CorruptionException("decoded");
            assertEquals(decoded, assertThrows(CorruptionException.class, () -> m.forEach((k, v) -> {
                if (k == LARGE) {
                    throw decoded;
                }
            })));
        }
    }

    @Test
    void everySingleBitFlipOfAPageValueIsRefused() throws IOException {
        Path f = written();
        byte[][] original = new byte[1][];
        damage(f, raw -> original[0] = raw.get(key(SMALL, 0)));
        for (int bit = 0; bit < original[0].length * 8; bit += 7) {
            byte[] v = Arrays.copyOf(original[0], original[0].length);
            v[bit >>> 3] ^= (byte) (1 << (bit & 7));
            damage(f, raw -> raw.put(key(SMALL, 0), v));
            try (PagedMap m = PagedMap.open(f, "m", 100, 2048, false)) {
                assertThrows(CorruptionException.class, () -> m.get(SMALL), "bit " + bit);
            }
        }
    }
}
