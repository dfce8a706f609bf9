package dev.quiver.storage.format;

import dev.quiver.error.CorruptionException;
import dev.quiver.storage.FieldType;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bytes round trips, and Bytes.Reader on damaged pages: every bad count, length or varint is a CorruptionException. */
class BytesTest {
    private static byte[] page(int... i32s) {
        Bytes.Writer w = new Bytes.Writer(4);
        for (int v : i32s) {
            w.i32(v);
        }
        return w.toBytes();
    }

    @Test
    void roundTrip() {
        Bytes.Writer w = new Bytes.Writer(1);
        w.u8(200);
        w.i32(-5);
        w.i64(Long.MIN_VALUE + 3);
        w.str("wolf \u00e9");
        w.i32(2);
        w.i64(1);
        w.i64(2);
        Bytes.Reader r = new Bytes.Reader(w.toBytes());
        assertEquals(200, r.u8());
        assertEquals(-5, r.i32());
        assertEquals(Long.MIN_VALUE + 3, r.i64());
        assertEquals("wolf \u00e9", r.str());
        assertEquals(2, r.count(8));
        assertEquals(16, r.remaining());
        r.ensure(16);
        assertEquals(1, r.i64());
        assertEquals(2, r.i64());
        assertEquals(0, r.remaining());
    }

    @Test
    void aCountThatCannotFitIsRefusedBeforeAllocation() {
        // two 8-byte elements follow: 2 fits, 3 does not; a huge or negative count never allocates
        byte[] b = page(3, 0, 0, 0, 0);
        CorruptionException e = assertThrows(CorruptionException.class, () -> new Bytes.Reader(b).count(8));
        assertTrue(e.getMessage().contains("count 3") && e.getMessage().contains("16 bytes remain"), e.getMessage());
        assertEquals(2, new Bytes.Reader(page(2, 0, 0, 0, 0)).count(8));
        assertEquals(16, new Bytes.Reader(page(16, 0, 0, 0, 0)).count(1));
        assertThrows(CorruptionException.class, () -> new Bytes.Reader(page(Integer.MAX_VALUE, 0)).count(8));
        assertThrows(CorruptionException.class, () -> new Bytes.Reader(page(-1, 0)).count(4));
        assertThrows(CorruptionException.class, () -> new Bytes.Reader(page(Integer.MIN_VALUE)).count(0));
        assertEquals(0, new Bytes.Reader(page(0)).count(8));
    }

    @Test
    void aStringLengthPastTheEndIsRefusedEvenWhenTheSumOverflows() {
        for (int len : new int[] {Integer.MAX_VALUE, Integer.MAX_VALUE - 2, 5, -1, Integer.MIN_VALUE}) {
            Bytes.Reader r = new Bytes.Reader(page(len, 0x41414141));
            assertThrows(CorruptionException.class, r::str, "length " + len);
        }
    }

    @Test
    void ensureAndCodes() {
        Bytes.Reader r = new Bytes.Reader(new byte[] {3, 9});
        r.ensure(2);
        assertThrows(CorruptionException.class, () -> r.ensure(3));
        assertThrows(CorruptionException.class, () -> r.ensure(-1));
        assertEquals(3, r.u8Below(4));
        CorruptionException e = assertThrows(CorruptionException.class, () -> r.u8Below(FieldType.values().length));
        assertTrue(e.getMessage().contains("code 9"), e.getMessage());
        assertThrows(CorruptionException.class, r::u8);
        assertThrows(CorruptionException.class, r::i32);
        assertThrows(CorruptionException.class, r::i64);
    }

    @Test
    void varintsZigzagsAndIdsRoundTrip() {
        long seed = Long.getLong("quiver.seed", System.nanoTime());
        System.out.println("BytesTest varint seed " + seed + " (-Dquiver.seed=" + seed + ")");
        Random rnd = new Random(seed);
        long[] edge = {0, 1, 127, 128, 16383, 16384, -1, Long.MIN_VALUE, Long.MAX_VALUE, Integer.MAX_VALUE,
                0xFFFF_FFFFL, dev.quiver.index.Ids.pair(5, 7), dev.quiver.index.Ids.entity(3, 0xFFFF)};
        Bytes.Writer w = new Bytes.Writer(1);
        long[] values = new long[2000];
        for (int i = 0; i < values.length; i++) {
            values[i] = i < edge.length ? edge[i] : rnd.nextLong() >> rnd.nextInt(64);
            w.varint(values[i]);
            w.zigzag(values[i]);
            w.id(values[i]);
            w.vstr("s" + values[i]);
        }
        Bytes.Reader r = new Bytes.Reader(w.toBytes());
        for (long v : values) {
            assertEquals(v, r.varint());
            assertEquals(v, r.zigzag());
            assertEquals(v, r.id());
            assertEquals("s" + v, r.vstr());
        }
        assertEquals(0, r.remaining());
        // sizes: 1 byte below 128, 10 bytes for the top bit, zigzag keeps small negatives small
        Bytes.Writer one = new Bytes.Writer(1);
        one.varint(127);
        one.zigzag(-64);
        assertEquals(2, one.size());
        one.varint(Long.MIN_VALUE);
        assertEquals(12, one.size());
        assertEquals(1, Words.varintBytes(127));
        assertEquals(2, Words.varintBytes(128));
        assertEquals(10, Words.varintBytes(-1));
    }

    @Test
    void badVarintsAreCorruption() {
        // eleven continuation bytes, a tenth byte past bit 63, a cut varint
        byte[] tooLong = new byte[11];
        java.util.Arrays.fill(tooLong, (byte) 0x80);
        assertThrows(CorruptionException.class, () -> new Bytes.Reader(tooLong).varint());
        byte[] past64 = {-1, -1, -1, -1, -1, -1, -1, -1, -1, 2};
        assertThrows(CorruptionException.class, () -> new Bytes.Reader(past64).varint());
        byte[] top = {-128, -128, -128, -128, -128, -128, -128, -128, -128, 1};
        assertEquals(Long.MIN_VALUE, new Bytes.Reader(top).varint());
        assertThrows(CorruptionException.class, () -> new Bytes.Reader(new byte[] {-128}).varint());
        // the one- and two-byte paths at a page's last bytes, and a two-byte varint cut after its first
        assertEquals(5, new Bytes.Reader(new byte[] {5}).varint());
        assertEquals(129, new Bytes.Reader(new byte[] {(byte) 0x81, 1}).varint());
        Bytes.Reader pair = new Bytes.Reader(new byte[] {(byte) 0xFF, 0x7F, 3});
        assertEquals(16383, pair.varint());
        assertEquals(3, pair.varint());
        assertEquals(0, pair.remaining());
        assertThrows(CorruptionException.class, () -> new Bytes.Reader(new byte[] {7, (byte) 0x81}, 1).varint());
        // bounded values, counts and lengths
        Bytes.Writer w = new Bytes.Writer(1);
        w.varint(65);
        w.varint(-1);
        Bytes.Reader r = new Bytes.Reader(w.toBytes());
        CorruptionException e = assertThrows(CorruptionException.class, () -> r.varint(64));
        assertTrue(e.getMessage().contains("65") && e.getMessage().contains("[0, 64]"), e.getMessage());
        assertThrows(CorruptionException.class, () -> r.vcount(1));
        Bytes.Writer big = new Bytes.Writer(1);
        big.varint(3);
        big.u8(0);
        big.u8(0);
        assertThrows(CorruptionException.class, () -> new Bytes.Reader(big.toBytes()).vcount(1));
        assertThrows(CorruptionException.class, () -> new Bytes.Reader(big.toBytes()).vstr());
        assertEquals(2, new Bytes.Reader(new byte[] {2, 0, 0}).vcount(1));
        // an id whose word runs past 32 bits
        Bytes.Writer id = new Bytes.Writer(1);
        id.varint(1L << 33);
        id.varint(0);
        assertThrows(CorruptionException.class, () -> new Bytes.Reader(id.toBytes()).id());
    }

    @Test
    void randomBytesGiveValuesOrCorruptionNothingElse() {
        long seed = Long.getLong("quiver.seed", System.nanoTime());
        System.out.println("BytesTest seed " + seed + " (-Dquiver.seed=" + seed + ")");
        Random rnd = new Random(seed);
        for (int trial = 0; trial < 20_000; trial++) {
            byte[] b = new byte[rnd.nextInt(40)];
            rnd.nextBytes(b);
            Bytes.Reader r = new Bytes.Reader(b);
            try {
                while (true) {
                    switch (rnd.nextInt(11)) {
                        case 0 -> r.u8();
                        case 1 -> r.i32();
                        case 2 -> r.i64();
                        case 3 -> r.str();
                        case 4 -> {
                            int n = r.count(8);
                            long[] a = new long[n];
                            for (int i = 0; i < n; i++) {
                                a[i] = r.i64();
                            }
                        }
                        case 5 -> r.varint();
                        case 6 -> r.zigzag();
                        case 7 -> r.id();
                        case 8 -> r.vstr();
                        case 9 -> {
                            int n = r.vcount(2);
                            long[] a = new long[n];
                            for (int i = 0; i < n; i++) {
                                a[i] = r.varint(1 << 20);
                            }
                        }
                        default -> r.u8Below(7);
                    }
                }
            } catch (CorruptionException expected) {
                // every page ends in one
            }
        }
    }
}
