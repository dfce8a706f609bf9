package dev.quiver.snapshots;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * Reads and verifies the records of a {@link SnapshotFormat} file, one page at a time, with a
 * running CRC32C and the byte offset of every record for error messages. Every malformation is a
 * {@link CorruptSnapshotException}; a verified file of another version is a
 * {@link SnapshotFormatException}.
 */
final class SnapshotReader implements Closeable {
    /** One page record; the blob is null when the reader skips blobs. */
    record Record(String mapName, long key, byte[] blob) {}

    private final Path path;
    private final long size;
    private final InputStream in;
    private final CRC32C crc = new CRC32C();
    private final byte[] buf = new byte[1 << 16];
    private int bufPos;
    private int bufLen;
    private long position;
    private long pages;
    private boolean ended;

    /**
     * Opens the file and checks the header; for another version, checks the whole-file checksum to
     * tell a genuine other version from damage.
     */
    SnapshotReader(Path path) {
        this.path = path;
        try {
            this.size = Files.size(path);
            this.in = Files.newInputStream(path);
        } catch (NoSuchFileException e) {
            throw new SnapshotException("snapshot " + path + " does not exist");
        } catch (IOException e) {
            throw new SnapshotException("cannot read snapshot " + path + ": " + e.getMessage(), e);
        }
        try {
            readHeader();
        } catch (RuntimeException e) {
            closeQuietly();
            throw e;
        }
    }

    private void readHeader() {
        if (size < SnapshotFormat.MAGIC.length) {
            throw corrupt("is not a Quiver snapshot (" + size + " bytes, too short for the header)");
        }
        byte[] magic = new byte[SnapshotFormat.MAGIC.length];
        readFully(magic, 0, magic.length);
        if (!Arrays.equals(magic, SnapshotFormat.MAGIC)) {
            throw corrupt("is not a Quiver snapshot (bad magic bytes)");
        }
        int version = readInt();
        if (version != SnapshotFormat.VERSION) {
            if (wholeFileChecksumHolds()) {
                throw new SnapshotFormatException(path.toString(), version, SnapshotFormat.VERSION);
            }
            throw corrupt("is corrupt: unknown format version " + version + " and the checksum does not match");
        }
    }

    /** True when the last 4 bytes are the CRC32C of all bytes before them (true of every version). */
    private boolean wholeFileChecksumHolds() {
        if (size < SnapshotFormat.HEADER_BYTES + 4) {
            return false;
        }
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            CRC32C all = new CRC32C();
            ByteBuffer b = ByteBuffer.allocate(1 << 16);
            long remaining = size - 4;
            while (remaining > 0) {
                b.clear();
                b.limit((int) Math.min(b.capacity(), remaining));
                int n = ch.read(b);
                if (n < 0) {
                    return false;
                }
                b.flip();
                all.update(b);
                remaining -= n;
            }
            ByteBuffer tail = ByteBuffer.allocate(4);
            while (tail.hasRemaining()) {
                if (ch.read(tail, size - 4 + tail.position()) < 0) {
                    return false;
                }
            }
            return tail.getInt(0) == (int) all.getValue();
        } catch (IOException e) {
            throw new SnapshotException("cannot read snapshot " + path + ": " + e.getMessage(), e);
        }
    }

    /**
     * The next page record, or null after the trailer has been read and verified (count, checksum,
     * end of file).
     *
     * @param withBlob false to skip the blob bytes (they are still checksummed)
     */
    Record next(boolean withBlob) {
        if (ended) {
            return null;
        }
        long at = position;
        byte tag = readByte();
        if (tag == SnapshotFormat.END_TAG) {
            readTrailer(at);
            return null;
        }
        if (tag != SnapshotFormat.PAGE_TAG) {
            throw corrupt("is corrupt: unexpected byte 0x" + Integer.toHexString(tag & 0xff)
                    + " at offset " + at + " (expected a page record or the trailer)");
        }
        int nameLength = readShort() & 0xffff;
        if (nameLength == 0 || nameLength > SnapshotFormat.MAX_MAP_NAME_BYTES) {
            throw corrupt("is corrupt: page record at offset " + at + " has a map name of " + nameLength + " bytes");
        }
        byte[] name = new byte[nameLength];
        readFully(name, 0, nameLength);
        String mapName = decode(name, at);
        long key = readLong();
        int blobLength = readInt();
        long remaining = size - position;
        if (blobLength < 0 || blobLength > SnapshotFormat.MAX_BLOB_BYTES
                || blobLength > remaining - SnapshotFormat.TRAILER_BYTES) {
            if (blobLength >= 0 && blobLength > remaining - SnapshotFormat.TRAILER_BYTES) {
                throw corrupt("is truncated or corrupt: page record at offset " + at + " claims " + blobLength
                        + " bytes but only " + remaining + " remain");
            }
            throw corrupt("is corrupt: page record at offset " + at + " has blob length " + blobLength);
        }
        byte[] blob = null;
        if (withBlob) {
            blob = new byte[blobLength];
            readFully(blob, 0, blobLength);
        } else {
            skip(blobLength);
        }
        pages++;
        return new Record(mapName, key, blob);
    }

    private void readTrailer(long at) {
        long count = readLong();
        int computed = (int) crc.getValue();
        int stored = readInt();
        if (stored != computed) {
            throw corrupt("is corrupt: checksum mismatch (stored " + hex(stored) + ", computed " + hex(computed) + ")");
        }
        if (count != pages) {
            throw corrupt("is corrupt: trailer at offset " + at + " counts " + count + " pages, the file holds " + pages);
        }
        if (position != size || fill() > 0) {
            throw corrupt("is corrupt: " + (size - position) + " unexpected bytes after the trailer");
        }
        ended = true;
    }

    /** Number of page records read so far. */
    long pages() {
        return pages;
    }

    /** The file size in bytes, as seen when opened. */
    long size() {
        return size;
    }

    private String decode(byte[] name, long at) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(name)).toString();
        } catch (CharacterCodingException e) {
            throw corrupt("is corrupt: page record at offset " + at + " has a map name that is not UTF-8");
        }
    }

    private static String hex(int v) {
        return String.format("%08x", v);
    }

    private CorruptSnapshotException corrupt(String what) {
        return new CorruptSnapshotException("snapshot " + path + " " + what);
    }

    /** Refills the buffer; returns the bytes now available, 0 at end of file. */
    private int fill() {
        if (bufPos < bufLen) {
            return bufLen - bufPos;
        }
        try {
            int n = in.read(buf, 0, buf.length);
            bufPos = 0;
            bufLen = Math.max(n, 0);
            return bufLen;
        } catch (IOException e) {
            throw new SnapshotException("cannot read snapshot " + path + ": " + e.getMessage(), e);
        }
    }

    private void readFully(byte[] dst, int off, int len) {
        while (len > 0) {
            int avail = fill();
            if (avail == 0) {
                throw corrupt("is truncated at offset " + position + " (file has " + size + " bytes)");
            }
            int n = Math.min(avail, len);
            System.arraycopy(buf, bufPos, dst, off, n);
            crc.update(buf, bufPos, n);
            bufPos += n;
            position += n;
            off += n;
            len -= n;
        }
    }

    private void skip(long len) {
        while (len > 0) {
            int avail = fill();
            if (avail == 0) {
                throw corrupt("is truncated at offset " + position + " (file has " + size + " bytes)");
            }
            int n = (int) Math.min(avail, len);
            crc.update(buf, bufPos, n);
            bufPos += n;
            position += n;
            len -= n;
        }
    }

    private final byte[] scratch = new byte[8];

    private byte readByte() {
        readFully(scratch, 0, 1);
        return scratch[0];
    }

    private short readShort() {
        readFully(scratch, 0, 2);
        return (short) (((scratch[0] & 0xff) << 8) | (scratch[1] & 0xff));
    }

    private int readInt() {
        readFully(scratch, 0, 4);
        return ((scratch[0] & 0xff) << 24) | ((scratch[1] & 0xff) << 16) | ((scratch[2] & 0xff) << 8) | (scratch[3] & 0xff);
    }

    private long readLong() {
        readFully(scratch, 0, 8);
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (scratch[i] & 0xff);
        }
        return v;
    }

    private void closeQuietly() {
        try {
            in.close();
        } catch (IOException ignored) {
            // nothing was written; the read error, if any, has been reported
        }
    }

    @Override
    public void close() {
        closeQuietly();
    }
}
