package dev.quiver.storage;

import dev.quiver.error.StorageIOException;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The write-ahead journal that makes a commit atomic and durable.
 *
 * <p>A committed transaction is one record: {@code [int magic][int length][payload][int crc32c]}
 * where the payload is {@code [long txSeq][int n] n × ([byte map][long key][int len or -1][bytes])}:
 * the after-image of every page the transaction touched ({@code -1}: the page was removed). The
 * record is forced to disk before any map file changes, and replaying after-images is idempotent,
 * so after a crash the world reopens with every fully written record re-applied and a torn last
 * record ignored: the state before or after each transaction, never between.
 */
final class Journal implements AutoCloseable {
    static final int MAGIC = 0x51564A31; // "QVJ1"

    /** One page after-image. */
    record Entry(int map, long key, byte[] blob) {}

    private final FileChannel channel;
    private final Path file;

    Journal(Path file) {
        this.file = file;
        try {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new StorageIOException("cannot open journal " + file + ": " + e.getMessage(), e);
        }
    }

    long size() {
        try {
            return channel.size();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Appends one record and forces it to disk. */
    void append(long txSeq, List<Entry> entries) {
        try {
            var bos = new ByteArrayOutputStream(1 << 16);
            var out = new DataOutputStream(bos);
            out.writeInt(MAGIC);
            out.writeInt(0); // length placeholder
            out.writeLong(txSeq);
            out.writeInt(entries.size());
            for (Entry e : entries) {
                out.writeByte(e.map());
                out.writeLong(e.key());
                if (e.blob() == null) {
                    out.writeInt(-1);
                } else {
                    out.writeInt(e.blob().length);
                    out.write(e.blob());
                }
            }
            out.writeInt(0); // crc placeholder
            out.flush();
            byte[] rec = bos.toByteArray();
            int payloadLen = rec.length - 12;
            ByteBuffer bb = ByteBuffer.wrap(rec);
            bb.putInt(4, payloadLen);
            CRC32C crc = new CRC32C();
            crc.update(rec, 8, payloadLen);
            bb.putInt(rec.length - 4, (int) crc.getValue());
            long pos = channel.size();
            ByteBuffer w = ByteBuffer.wrap(rec);
            while (w.hasRemaining()) {
                pos += channel.write(w, pos);
            }
            channel.force(false);
        } catch (IOException e) {
            throw new StorageIOException("journal write failed: " + e.getMessage(), e);
        }
    }

    /**
     * Reads every complete, checksummed record from the start; stops at the first torn or corrupt
     * one.
     */
    List<List<Entry>> readAll() {
        var out = new ArrayList<List<Entry>>();
        try {
            byte[] all = Files.readAllBytes(file);
            ByteBuffer bb = ByteBuffer.wrap(all);
            while (bb.remaining() >= 12) {
                int start = bb.position();
                if (bb.getInt() != MAGIC) {
                    break;
                }
                int len = bb.getInt();
                if (len < 12 || bb.remaining() < len + 4) {
                    break;
                }
                CRC32C crc = new CRC32C();
                crc.update(all, start + 8, len);
                int stored = bb.getInt(start + 8 + len);
                if ((int) crc.getValue() != stored) {
                    break;
                }
                bb.getLong(); // tx seq
                int n = bb.getInt();
                var entries = new ArrayList<Entry>(n);
                for (int i = 0; i < n; i++) {
                    int map = bb.get();
                    long key = bb.getLong();
                    int bl = bb.getInt();
                    byte[] blob = null;
                    if (bl >= 0) {
                        blob = new byte[bl];
                        bb.get(blob);
                    }
                    entries.add(new Entry(map, key, blob));
                }
                bb.position(start + 8 + len + 4);
                out.add(entries);
            }
        } catch (IOException e) {
            throw new StorageIOException("cannot read journal " + file + ": " + e.getMessage(), e);
        }
        return out;
    }

    /** Empties the journal (after its records are in the map files). */
    void truncate() {
        try {
            channel.truncate(0);
            channel.force(true);
        } catch (IOException e) {
            throw new StorageIOException("journal truncate failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException ignored) {
            // nothing left to do
        }
    }
}
