package dev.quiver.storage.format;

import dev.quiver.error.CorruptionException;
import dev.quiver.storage.FieldType;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bytes.Reader on damaged pages: every bad count or length is a CorruptionException. */
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
                    switch (rnd.nextInt(6)) {
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
                        default -> r.u8Below(7);
                    }
                }
            } catch (CorruptionException expected) {
                // every page ends in one
            }
        }
    }
}
