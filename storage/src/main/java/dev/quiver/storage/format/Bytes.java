package dev.quiver.storage.format;

import dev.quiver.error.CorruptionException;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Page encoding: big-endian fixed-width integers ({@code u8}, {@code i32}, {@code i64}), UTF-8
 * strings prefixed by their byte length ({@code i32}: {@code str}; varint: {@code vstr}), and
 * variable-length integers: {@code varint} is an unsigned LEB128 of up to 64 bits (7 bits a byte,
 * low groups first, the high bit of a byte set when another byte follows, at most 10 bytes), and
 * {@code zigzag} maps a signed value to an unsigned one ({@code 0, -1, 1, -2 ... -> 0, 1, 2, 3 ...})
 * so that small deltas of either sign take one byte. An {@code id} is a 64-bit id of
 * {@code dev.quiver.index.Ids} written as two varints: its high 32 bits with the pair flag moved
 * to bit 0 ({@code (hi & 0x7FFFFFFF) << 1 | flag}), then its low 32 bits.
 */
public final class Bytes {
    private Bytes() {}

    public static final class Writer {
        private byte[] buf;
        private int n;

        public Writer(int capacity) {
            buf = new byte[capacity];
        }

        /** Overwrites the 4 bytes at {@code offset} (a count written as a placeholder). */
        public Writer patchI32(int offset, int v) {
            buf[offset] = (byte) (v >>> 24);
            buf[offset + 1] = (byte) (v >>> 16);
            buf[offset + 2] = (byte) (v >>> 8);
            buf[offset + 3] = (byte) v;
            return this;
        }

        /** Empties the writer, keeping its buffer (one writer serves many pages). */
        public Writer reset() {
            n = 0;
            return this;
        }

        private void need(int k) {
            if (n + k > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, n + k));
            }
        }

        public void u8(int v) {
            need(1);
            buf[n++] = (byte) v;
        }

        public void i32(int v) {
            need(4);
            buf[n++] = (byte) (v >>> 24);
            buf[n++] = (byte) (v >>> 16);
            buf[n++] = (byte) (v >>> 8);
            buf[n++] = (byte) v;
        }

        public void i64(long v) {
            need(8);
            for (int s = 56; s >= 0; s -= 8) {
                buf[n++] = (byte) (v >>> s);
            }
        }

        /** An unsigned LEB128 varint of the 64 bits of {@code v} (1 to 10 bytes). */
        public void varint(long v) {
            need(10);
            while ((v & ~0x7FL) != 0) {
                buf[n++] = (byte) ((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            buf[n++] = (byte) v;
        }

        /** A signed value as the varint of its zig-zag form. */
        public void zigzag(long v) {
            varint((v << 1) ^ (v >> 63));
        }

        /** An id (see the class comment): the high word with the pair flag at bit 0, then the low word. */
        public void id(long id) {
            varint((((id >>> 32) & 0x7FFF_FFFFL) << 1) | (id >>> 63));
            varint(id & 0xFFFF_FFFFL);
        }

        /** A string as its UTF-8 byte length (varint) and the bytes. */
        public void vstr(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            varint(b.length);
            raw(b, 0, b.length);
        }

        /** Bytes as they are. */
        public void raw(byte[] b, int off, int len) {
            need(len);
            System.arraycopy(b, off, buf, n, len);
            n += len;
        }

        /** Bytes written so far. */
        public int size() {
            return n;
        }

        /** The buffer (valid up to {@link #size()}; replaced when the writer grows). */
        byte[] buffer() {
            return buf;
        }

        public void str(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            i32(b.length);
            need(b.length);
            System.arraycopy(b, 0, buf, n, b.length);
            n += b.length;
        }

        public byte[] toBytes() {
            return Arrays.copyOf(buf, n);
        }
    }

    /**
     * Reads a page written by {@link Writer}. Every read is checked against the bytes that remain,
     * and every count or length is checked before anything is allocated from it, so a damaged page
     * gives a {@link CorruptionException}, never an OutOfMemoryError, a NegativeArraySizeException
     * or an index out of bounds.
     */
    public static final class Reader {
        private final byte[] b;
        private int p;

        public Reader(byte[] b) {
            this(b, 0);
        }

        /** Reads {@code b} from offset {@code from}. */
        public Reader(byte[] b, int from) {
            this.b = b;
            this.p = from;
        }

        /** The read position. */
        public int position() {
            return p;
        }

        /** Bytes not read yet. */
        public int remaining() {
            return b.length - p;
        }

        /**
         * Checks that at least {@code n} more bytes remain.
         *
         * @throws CorruptionException when {@code n} is negative or fewer bytes remain
         */
        public void ensure(long n) {
            if (n < 0 || n > b.length - p) {
                throw new CorruptionException("truncated page: need " + n + " bytes at " + p + " of " + b.length);
            }
        }

        private void need(int k) {
            ensure(k);
        }

        public int u8() {
            need(1);
            return b[p++] & 0xFF;
        }

        /**
         * An unsigned byte that must be below {@code bound} (an enum ordinal, a state code).
         *
         * @throws CorruptionException when it is not
         */
        public int u8Below(int bound) {
            int v = u8();
            if (v >= bound) {
                throw new CorruptionException("corrupt page: code " + v + " at " + (p - 1) + " is not below " + bound);
            }
            return v;
        }

        public int i32() {
            need(4);
            int v = ((b[p] & 0xFF) << 24) | ((b[p + 1] & 0xFF) << 16) | ((b[p + 2] & 0xFF) << 8) | (b[p + 3] & 0xFF);
            p += 4;
            return v;
        }

        /**
         * A count of elements that follow, each taking at least {@code bytesPerElement} bytes of
         * this page: checked to be non-negative and to fit in the bytes that remain, so it is safe
         * to allocate an array or a list of that size.
         *
         * @param bytesPerElement the fewest bytes one element takes (at least 1)
         * @throws CorruptionException when the count is negative or the elements cannot fit
         */
        public int count(int bytesPerElement) {
            int at = p;
            int n = i32();
            if (n < 0 || (long) n * Math.max(1, bytesPerElement) > remaining()) {
                throw new CorruptionException("corrupt page: count " + n + " at " + at + " of elements of at least "
                        + bytesPerElement + " bytes, but " + remaining() + " bytes remain");
            }
            return n;
        }

        public long i64() {
            need(8);
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v = (v << 8) | (b[p + i] & 0xFF);
            }
            p += 8;
            return v;
        }

        /**
         * An unsigned LEB128 varint of at most 64 bits.
         *
         * @throws CorruptionException when the page ends inside it or it runs past 10 bytes or 64 bits
         */
        public long varint() {
            // one or two bytes (most varints of a page: states, deltas, lengths) without the loop;
            // past the end or longer, the checked loop below
            int q = p;
            if (q + 1 < b.length) {
                int x = b[q];
                if (x >= 0) {
                    p = q + 1;
                    return x;
                }
                int y = b[q + 1];
                if (y >= 0) {
                    p = q + 2;
                    return (x & 0x7F) | ((long) y << 7);
                }
            }
            return varintLoop();
        }

        private long varintLoop() {
            int at = p;
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                need(1);
                int x = b[p++] & 0xFF;
                if (shift == 63 && x > 1) {
                    break;
                }
                v |= (long) (x & 0x7F) << shift;
                if ((x & 0x80) == 0) {
                    return v;
                }
            }
            throw new CorruptionException("corrupt page: varint at " + at + " exceeds 64 bits");
        }

        /**
         * A varint that must lie in {@code [0, max]} (an index, a length, a small count).
         *
         * @throws CorruptionException when it does not
         */
        public int varint(int max) {
            int at = p;
            long v = varint();
            if (v < 0 || v > max) {
                throw new CorruptionException("corrupt page: value " + Long.toUnsignedString(v) + " at " + at
                        + " is not in [0, " + max + "]");
            }
            return (int) v;
        }

        /** A signed value written by {@link Writer#zigzag}. */
        public long zigzag() {
            long v = varint();
            return (v >>> 1) ^ -(v & 1);
        }

        /**
         * A count of elements that follow written as a varint, each taking at least
         * {@code bytesPerElement} bytes: checked like {@link #count(int)}.
         */
        public int vcount(int bytesPerElement) {
            int at = p;
            long n = varint();
            if (n < 0 || n > Integer.MAX_VALUE || n * Math.max(1, bytesPerElement) > remaining()) {
                throw new CorruptionException("corrupt page: count " + Long.toUnsignedString(n) + " at " + at
                        + " of elements of at least " + bytesPerElement + " bytes, but " + remaining() + " bytes remain");
            }
            return (int) n;
        }

        /** An id written by {@link Writer#id}: each of its two words is checked to fit 32 bits. */
        public long id() {
            int at = p;
            long hi = varint(), lo = varint();
            if (hi < 0 || hi > 0xFFFF_FFFFL || lo < 0 || lo > 0xFFFF_FFFFL) {
                throw new CorruptionException("corrupt page: id at " + at + " has a word past 32 bits");
            }
            return ((hi & 1) << 63) | ((hi >>> 1) << 32) | lo;
        }

        /** A string written by {@link Writer#vstr}: its length is checked against the bytes that remain. */
        public String vstr() {
            int len = vcount(1);
            String s = new String(b, p, len, StandardCharsets.UTF_8);
            p += len;
            return s;
        }

        /** {@code len} raw bytes into {@code dst} at {@code off}, checked against the bytes that remain. */
        public void raw(byte[] dst, int off, int len) {
            need(len);
            System.arraycopy(b, p, dst, off, len);
            p += len;
        }

        /** A string written by {@link Writer#str}: its length is checked against the bytes that remain. */
        public String str() {
            int at = p;
            int len = i32();
            if (len < 0) {
                throw new CorruptionException("corrupt page: negative string length " + len + " at " + at);
            }
            need(len);
            String s = new String(b, p, len, StandardCharsets.UTF_8);
            p += len;
            return s;
        }
    }
}
