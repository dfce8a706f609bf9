package dev.quiver.storage.format;

import dev.quiver.error.CorruptionException;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

import java.util.Arrays;

/**
 * The envelope of every page but {@code meta}: a flag byte, then the page body as it is
 * ({@link #PLAIN}) or LZ4-compressed ({@link #LZ4}: varint body length, then one LZ4 block). A body
 * of more than {@link #MIN_COMPRESS} bytes is compressed, and kept compressed only when that is
 * smaller.
 *
 * <p>Pages are sealed with aircompressor's LZ4 block compressor, one per thread: it keeps its hash
 * table between pages and clears only the part a body needs, where lz4-java's allocates a 16 KiB
 * table for every page (a checkpoint seals thousands of small pages). On a machine aircompressor
 * refuses (it needs a little-endian platform and {@code sun.misc.Unsafe}), lz4-java's pure-Java
 * compressor seals them instead. Either writes one standard LZ4 block, so which one sealed a page
 * does not matter to a reader, and the invariant check compares page bodies, not envelopes
 * ({@link #sameBody}). Pages are opened with lz4-java's pure-Java safe decompressor: a damaged
 * block is refused by bounds checks, never read past. A stored body length is bounded
 * (by {@link #MAX_BODY} and by the LZ4 block's best possible ratio) before anything is allocated,
 * so a damaged page gives a {@link CorruptionException} naming its family and key, never an
 * OutOfMemoryError.
 */
final class PageCompression {
    /** Flag: the body follows as it is. */
    static final int PLAIN = 0;
    /** Flag: varint body length, then the body as one LZ4 block. */
    static final int LZ4 = 1;
    /** Bodies of at most this many bytes are stored plain. */
    static final int MIN_COMPRESS = 256;
    /** Largest body a page may have, in bytes. */
    static final int MAX_BODY = 1 << 28;
    /** LZ4's best compression ratio: a block of n bytes never decodes to more than about 255 n bytes. */
    private static final int MAX_RATIO = 255;

    private static final LZ4Factory LZ4_FACTORY = LZ4Factory.safeInstance();
    private static final LZ4SafeDecompressor DECOMPRESSOR = LZ4_FACTORY.safeDecompressor();
    /**
     * Sealing buffers up to this many bytes are kept for the thread's next page (a larger page
     * gets a buffer of its own): at most this and the compressor's 16 KiB table stay per thread.
     */
    private static final int KEEP_BUFFER = 1 << 18;

    /** A thread's compressor and sealing buffer (neither is thread-safe). */
    private static final class Sealer {
        final Block block = newBlock();
        byte[] buffer = new byte[0];
    }

    /**
     * One LZ4 block compressor: {@code compress} as both libraries spell it. Both bound a block by
     * the standard LZ4 bound ({@code len + len / 255 + 16}), so {@link #FALLBACK} gives the room.
     */
    @FunctionalInterface
    private interface Block {
        int compress(byte[] src, int from, int len, byte[] dst, int at, int max);
    }

    /** lz4-java's pure-Java compressor: the LZ4 bound, and the sealer where aircompressor refuses. */
    private static final LZ4Compressor FALLBACK = LZ4_FACTORY.fastCompressor();

    private static final ThreadLocal<Sealer> SEALERS = ThreadLocal.withInitial(Sealer::new);

    /** aircompressor's compressor, else (a platform it refuses) lz4-java's pure-Java one. */
    private static Block newBlock() {
        try {
            return new io.airlift.compress.lz4.Lz4Compressor()::compress;
        } catch (LinkageError | RuntimeException e) { // IncompatibleJvmException: big-endian, or no Unsafe
            return FALLBACK::compress;
        }
    }

    private PageCompression() {}

    /** The blob of a page whose body is the first {@code len} bytes of {@code body}. */
    static byte[] seal(byte[] body, int len) {
        if (len > MIN_COMPRESS) {
            Sealer s = SEALERS.get();
            int size = 1 + 5 + FALLBACK.maxCompressedLength(len);
            byte[] out = s.buffer.length >= size ? s.buffer : new byte[size];
            if (out != s.buffer && size <= KEEP_BUFFER) {
                s.buffer = out;
            }
            out[0] = LZ4;
            int p = 1;
            for (long v = len; ; v >>>= 7) {
                if ((v & ~0x7FL) == 0) {
                    out[p++] = (byte) v;
                    break;
                }
                out[p++] = (byte) ((v & 0x7F) | 0x80);
            }
            int c = s.block.compress(body, 0, len, out, p, size - p);
            if (p + c < 1 + len) {
                return Arrays.copyOf(out, p + c);
            }
        }
        byte[] out = new byte[1 + len];
        out[0] = PLAIN;
        System.arraycopy(body, 0, out, 1, len);
        return out;
    }

    /**
     * True when two stored blobs of page {@code key} hold the same body: the same bytes, or
     * envelopes that open to the same body (two LZ4 compressors may seal a body differently).
     * A blob that does not open counts as different.
     */
    static boolean sameBody(String family, long key, byte[] a, byte[] b) {
        if (Arrays.equals(a, b)) {
            return true;
        }
        if (a == null || b == null) {
            return false;
        }
        try {
            return Arrays.equals(open(family, key, a), open(family, key, b));
        } catch (CorruptionException e) {
            return false;
        }
    }

    /**
     * The body of a stored page.
     *
     * @param family the page family's name, for messages
     * @throws CorruptionException when the flag is unknown, the body length is out of bounds, or the
     *                             LZ4 block is damaged or decodes to another length; the message
     *                             names the page
     */
    static byte[] open(String family, long key, byte[] blob) {
        if (blob.length == 0) {
            throw new CorruptionException(family + " page " + key + " is empty (no envelope flag)");
        }
        if (blob[0] == PLAIN) {
            return Arrays.copyOfRange(blob, 1, blob.length);
        }
        if (blob[0] != LZ4) {
            throw new CorruptionException(family + " page " + key + " has unknown envelope flag " + (blob[0] & 0xFF));
        }
        Bytes.Reader r = new Bytes.Reader(blob, 1);
        int len;
        try {
            len = r.varint(MAX_BODY);
        } catch (CorruptionException e) {
            throw new CorruptionException(family + " page " + key + ": " + e.getMessage(), e);
        }
        int at = r.position();
        long compressed = blob.length - at;
        if (len <= MIN_COMPRESS || len > compressed * MAX_RATIO + 16) {
            throw new CorruptionException(family + " page " + key + " claims a body of " + len
                    + " bytes from " + compressed + " compressed bytes");
        }
        byte[] body = new byte[len];
        int n;
        try {
            n = DECOMPRESSOR.decompress(blob, at, (int) compressed, body, 0, len);
        } catch (LZ4Exception | IndexOutOfBoundsException e) {
            throw new CorruptionException(family + " page " + key + " holds a damaged LZ4 block: " + e.getMessage(), e);
        }
        if (n != len) {
            throw new CorruptionException(family + " page " + key + " decompresses to " + n + " bytes, not " + len);
        }
        return body;
    }
}
