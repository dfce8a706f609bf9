package dev.quiver.storage.format;

import dev.quiver.error.CorruptionException;
import dev.quiver.storage.FieldType;
import dev.quiver.storage.table.Column;

/**
 * Codec of the raw 64-bit words of one number field over a range of rows: a mode byte, then the
 * words in that mode, the writer choosing the mode that takes the fewest bytes.
 * <ul>
 *   <li>{@link #RAW}: each word as an i64;</li>
 *   <li>{@link #DELTA}: each word as the zigzag of its difference from the previous word (the
 *       first from 0): integers, booleans, entities;</li>
 *   <li>{@link #REVERSED}: each word with its bytes reversed, as a varint: doubles whose mantissa
 *       ends in zero bytes (short binary fractions);</li>
 *   <li>{@link #WHOLE}: for an {@code f32} or {@code f64} field whose values are all whole numbers
 *       of magnitude below 2^24 ({@code f32}) or 2^53 ({@code f64}), and not -0: each value as
 *       the zigzag of its difference from the previous value (the first from 0).</li>
 * </ul>
 */
final class Words {
    static final int RAW = 0, DELTA = 1, REVERSED = 2, WHOLE = 3;
    private static final long F64_WHOLE = 1L << 53, F32_WHOLE = 1L << 24;

    private Words() {}

    /** Writes field {@code f} of {@code c} over rows {@code [from, to)}. */
    static void write(Bytes.Writer w, Column c, int f, int from, int to) {
        FieldType type = c.schema().field(f).type();
        boolean floating = type == FieldType.F64 || type == FieldType.F32;
        long delta = 0, reversed = 0, whole = floating ? 0 : Long.MAX_VALUE, prev = 0, prevWhole = 0;
        for (int r = from; r < to; r++) {
            long x = c.word(f, r);
            delta += varintBytes(zigzag(x - prev));
            reversed += varintBytes(Long.reverseBytes(x));
            prev = x;
            if (whole != Long.MAX_VALUE) {
                long v = wholeValue(type, x);
                if (v == Long.MIN_VALUE) {
                    whole = Long.MAX_VALUE;
                } else {
                    whole += varintBytes(zigzag(v - prevWhole));
                    prevWhole = v;
                }
            }
        }
        long raw = 8L * (to - from);
        long best = Math.min(Math.min(raw, delta), Math.min(reversed, whole));
        int mode = best == whole ? WHOLE : best == delta ? DELTA : best == reversed ? REVERSED : RAW;
        w.u8(mode);
        prev = 0;
        for (int r = from; r < to; r++) {
            long x = c.word(f, r);
            switch (mode) {
                case DELTA -> w.zigzag(x - prev);
                case REVERSED -> w.varint(Long.reverseBytes(x));
                case WHOLE -> {
                    long v = wholeValue(type, x);
                    w.zigzag(v - prev);
                    x = v;
                }
                default -> w.i64(x);
            }
            prev = x;
        }
    }

    /** Reads {@code n} words of field {@code f} into rows {@code [base, base + n)} of {@code c}. */
    static void read(Bytes.Reader r, Column c, int f, int base, int n) {
        FieldType type = c.schema().field(f).type();
        int mode = r.u8Below(4);
        if (mode == WHOLE && type != FieldType.F64 && type != FieldType.F32) {
            throw new CorruptionException("corrupt page: whole-number mode for a field of type " + type.spelling());
        }
        r.ensure(mode == RAW ? 8L * n : n);
        long prev = 0;
        for (int i = 0; i < n; i++) {
            long x = switch (mode) {
                case DELTA -> prev + r.zigzag();
                case REVERSED -> Long.reverseBytes(r.varint());
                case WHOLE -> prev + r.zigzag();
                default -> r.i64();
            };
            prev = x;
            if (mode == WHOLE) {
                long limit = type == FieldType.F64 ? F64_WHOLE : F32_WHOLE;
                if (x <= -limit || x >= limit) {
                    throw new CorruptionException("corrupt page: whole number " + x + " out of range for " + type.spelling());
                }
                x = type == FieldType.F64 ? Double.doubleToRawLongBits(x) : Float.floatToRawIntBits(x);
            }
            c.setWord(f, base + i, x);
        }
    }

    /**
     * The whole number an {@code f32} or {@code f64} word holds, or {@link Long#MIN_VALUE} when it
     * holds none that {@link #WHOLE} gives back bit for bit.
     */
    private static long wholeValue(FieldType type, long x) {
        if (type == FieldType.F64) {
            double d = Double.longBitsToDouble(x);
            if (d > -F64_WHOLE && d < F64_WHOLE && d == Math.rint(d)) {
                long v = (long) d;
                return Double.doubleToRawLongBits(v) == x ? v : Long.MIN_VALUE;
            }
        } else {
            float fl = Float.intBitsToFloat((int) x);
            if (fl > -F32_WHOLE && fl < F32_WHOLE && fl == Math.rint(fl)) {
                long v = (long) fl;
                return (long) Float.floatToRawIntBits(v) == x ? v : Long.MIN_VALUE;
            }
        }
        return Long.MIN_VALUE;
    }

    private static long zigzag(long v) {
        return (v << 1) ^ (v >> 63);
    }

    /** Bytes of the varint of {@code v} (1 to 10). */
    static int varintBytes(long v) {
        return v == 0 ? 1 : (64 - Long.numberOfLeadingZeros(v) + 6) / 7;
    }
}
