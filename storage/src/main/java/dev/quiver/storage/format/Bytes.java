package dev.quiver.storage.format;

import dev.quiver.error.CorruptionException;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Big-endian page encoding: fixed-width integers ({@code u8}, {@code i32}, {@code i64}) and UTF-8
 * strings prefixed by their byte length ({@code i32}).
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
            this.b = b;
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
