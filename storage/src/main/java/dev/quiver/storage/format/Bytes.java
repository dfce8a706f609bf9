package dev.quiver.storage.format;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Big-endian page encoding: fixed-width integers and length-prefixed UTF-8 strings. */
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

    public static final class Reader {
        private final byte[] b;
        private int p;

        public Reader(byte[] b) {
            this.b = b;
        }

        private void need(int k) {
            if (p + k > b.length) {
                throw new dev.quiver.error.CorruptionException("truncated page: need " + k + " bytes at " + p + " of " + b.length);
            }
        }

        public int u8() {
            need(1);
            return b[p++] & 0xFF;
        }

        public int i32() {
            need(4);
            int v = ((b[p] & 0xFF) << 24) | ((b[p + 1] & 0xFF) << 16) | ((b[p + 2] & 0xFF) << 8) | (b[p + 3] & 0xFF);
            p += 4;
            return v;
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

        public String str() {
            int len = i32();
            if (len < 0) {
                throw new dev.quiver.error.CorruptionException("corrupt page: negative string length");
            }
            need(len);
            String s = new String(b, p, len, StandardCharsets.UTF_8);
            p += len;
            return s;
        }
    }
}
