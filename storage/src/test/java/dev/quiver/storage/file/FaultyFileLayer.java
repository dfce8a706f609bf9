package dev.quiver.storage.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Test support: a {@link FileLayer} over the real files that injects faults on demand (STYLE.md
 * habit 12): the next write stores only some bytes and then fails with ENOSPC, the next fsync
 * fails, truncation or a read fails, or at the next fsync the process "crashes" (halts) after the unsynced
 * bytes were partly lost or garbled, as a power cut would leave them.
 */
class FaultyFileLayer implements FileLayer {
    /** Bytes the next write stores before it fails with ENOSPC; -1: no fault armed. */
    volatile int shortWrite = -1;
    /** The next force fails. */
    volatile boolean failForce;
    /** Run when an injected force failure happens, before it is reported (what a reader sees then). */
    volatile Runnable onFailedForce;
    /** Every truncate fails (so a failed append cannot be cut back). */
    volatile boolean failTruncate;
    /**
     * At the next force, keep this many of the unsynced bytes (garbling the last kept one when
     * {@link #garble}), then halt the JVM with exit code 77; -1: no crash armed.
     */
    volatile long crashKeeping = -1;
    volatile boolean garble;
    /** Every positional read fails. */
    volatile boolean failRead;

    @Override
    public Handle open(Path path) throws IOException {
        Handle real = FileLayer.OS.open(path);
        return new Handle() {
            long synced = real.size();

            @Override
            public long size() throws IOException {
                return real.size();
            }

            @Override
            public int write(ByteBuffer src, long position) throws IOException {
                int n = shortWrite;
                if (n >= 0) {
                    shortWrite = -1;
                    ByteBuffer part = src.duplicate();
                    part.limit(part.position() + Math.min(n, part.remaining()));
                    real.write(part, position);
                    throw new IOException("No space left on device");
                }
                return real.write(src, position);
            }

            @Override
            public void force(boolean metadata) throws IOException {
                if (failForce) {
                    failForce = false;
                    Runnable r = onFailedForce;
                    if (r != null) {
                        r.run();
                    }
                    throw new IOException("Input/output error (injected fsync failure)");
                }
                long keep = crashKeeping;
                if (keep >= 0) {
                    long size = real.size();
                    long cut = Math.min(size, synced + keep);
                    real.truncate(cut);
                    if (garble && cut > synced) {
                        ByteBuffer one = ByteBuffer.allocate(1);
                        byte[] all = real.readAll();
                        one.put(0, (byte) (all[(int) cut - 1] ^ 0x5A));
                        real.write(one, cut - 1);
                    }
                    real.force(true);
                    Runtime.getRuntime().halt(77);
                }
                real.force(metadata);
                synced = real.size();
            }

            @Override
            public void truncate(long size) throws IOException {
                if (failTruncate) {
                    throw new IOException("Input/output error (injected truncate failure)");
                }
                real.truncate(size);
            }

            @Override
            public byte[] readAll() throws IOException {
                return real.readAll();
            }

            @Override
            public void read(byte[] dst, int off, int len, long position) throws IOException {
                if (failRead) {
                    throw new IOException("Input/output error (injected read failure)");
                }
                real.read(dst, off, len, position);
            }

            @Override
            public void close() throws IOException {
                real.close();
            }
        };
    }
}
