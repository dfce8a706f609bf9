package dev.quiver.storage.file;

import dev.quiver.error.CorruptionException;
import dev.quiver.error.StorageIOException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The write-ahead log (WAL) that makes a commit atomic and durable: {@code wal-<n>} beside manifest n.
 *
 * <p>A committed transaction is one record: {@code [int magic][int length][payload][int crc32c]}
 * (the magic is {@link #PENDING} until the record is forced, then {@link #MAGIC}; the checksum
 * covers the payload)
 * where the payload is {@code [long txSeq][int n] n × ([byte map][long key][int len or -1][bytes])}:
 * the after-image of every page the transaction touched ({@code -1}: the page was removed), or,
 * when bit {@link #DELTA_FLAG} of the map byte is set (page format 6), a delta to apply on top of
 * the page ({@link PageDeltas}; never {@code -1}); a delta whose key is {@link #FAMILY_DELTA}
 * (page format 9) is a family delta, the changes of one commit to many pages of the family in
 * one blob (the {@code names} buckets a bulk commit touches, which are all of them). A
 * commit is durable once its record is forced; the pages reach a sealed generation at the next
 * checkpoint ({@link Store}). Readers read the records complete at their start; after a crash the
 * writer cuts off a torn last record. Either way each transaction is seen whole or not at all.
 */
public final class Journal implements AutoCloseable {
    static final int MAGIC = 0x51564A31; // "QVJ1"
    /**
     * The magic of a record written but not yet known durable: an append writes its record under
     * this magic, forces it, and only then writes {@link #MAGIC} over it. Readers stop at a pending
     * record, so they never see a transaction whose fsync failed (it is cut back) or has not
     * returned; the writer's recovery takes a complete pending record as committed (its bytes
     * reached the disk) and marks it so.
     */
    static final int PENDING = 0x51564A30; // "QVJ0"

    /** Bit of an entry's map byte that marks a delta. */
    static final int DELTA_FLAG = 0x40;

    /** The key of a family delta ({@link PageDeltas}): a delta of many pages of its family at once. */
    public static final long FAMILY_DELTA = -1;

    /**
     * One page change: an after-image ({@code delta} false; a null blob removes the page) or a
     * delta applied on top of the page ({@code delta} true; blob not null).
     */
    public record Entry(int map, long key, byte[] blob, boolean delta) {
        /** An after-image. */
        public Entry(int map, long key, byte[] blob) {
            this(map, key, blob, false);
        }
    }

    private final FileLayer.Handle file;
    private final Path path;
    /** Set when a failed append could not be cut back: the tail may hold torn bytes. */
    private boolean damaged;

    /**
     * Opens (creating if missing) the journal through {@code layer}.
     *
     * @throws StorageIOException when it cannot be opened
     */
    Journal(Path path, FileLayer layer) {
        this.path = path;
        try {
            file = layer.open(path);
        } catch (IOException e) {
            throw new StorageIOException("cannot open journal " + path + ": " + e.getMessage(), e);
        }
    }

    /** Size in bytes. */
    long size() {
        try {
            return file.size();
        } catch (IOException e) {
            throw new StorageIOException("cannot read the size of journal " + path + ": " + e.getMessage(), e);
        }
    }

    /**
     * True when an append failed and its bytes could not be cut off again: nothing may be appended
     * after them, and only the next open (which reads up to the first torn record) may use the
     * journal.
     */
    boolean damaged() {
        return damaged;
    }

    /**
     * Appends one record and forces it to disk. When a write or the force fails (short write, full
     * disk, failed fsync), the journal is cut back to its length before the append and forced, so
     * no torn bytes stay for a later record to follow; if even that fails the journal is
     * {@link #damaged()}.
     *
     * @return where each entry's blob lies in the file (null for a removed page's): the store's
     *         overlay keeps these, not the bytes
     * @throws StorageIOException when the record is not durably appended
     */
    WalBlob[] append(long txSeq, List<Entry> entries) {
        if (damaged) {
            throw new StorageIOException("journal " + path + " is damaged by an earlier failed write");
        }
        long size = recordSize(entries);
        long before;
        try {
            before = file.size();
        } catch (IOException e) {
            throw new StorageIOException("journal write failed: " + e.getMessage(), e);
        }
        WalBlob[] blobs = new WalBlob[entries.size()];
        try {
            RecordOut out = new RecordOut(before, (int) Math.min(size, CHUNK));
            out.putInt(PENDING); // made MAGIC once forced
            out.putInt((int) (size - 12));
            out.putLong(txSeq);
            out.putInt(entries.size());
            for (int i = 0; i < blobs.length; i++) {
                Entry e = entries.get(i);
                out.ensure(13);
                out.buf.put((byte) (e.delta() ? e.map() | DELTA_FLAG : e.map()));
                out.buf.putLong(e.key());
                byte[] b = e.blob();
                if (b == null) {
                    out.buf.putInt(-1);
                } else {
                    out.buf.putInt(b.length);
                    blobs[i] = new WalBlob(this, out.position(), b.length, checksum(b));
                    out.putBytes(b);
                }
            }
            out.finish();
            file.force(false);
            // durable: make it visible to readers (forced by the next append, or made visible
            // again by the writer's recovery when a crash loses this write)
            ByteBuffer magic = ByteBuffer.allocate(4).putInt(0, MAGIC);
            while (magic.hasRemaining()) {
                if (file.write(magic, before + magic.position()) <= 0) {
                    throw new IOException("short write of a record's magic");
                }
            }
        } catch (IOException e) {
            try {
                file.truncate(before);
                file.force(true);
            } catch (IOException | RuntimeException again) {
                damaged = true;
                e.addSuppressed(again);
            }
            throw new StorageIOException("journal write failed: " + e.getMessage(), e);
        }
        return blobs;
    }

    /** Bytes a record is written through at a time: a batch's record (megabytes) is never copied whole. */
    private static final int CHUNK = 1 << 20;

    /** The length of the record of {@code entries}, each checked. */
    private static long recordSize(List<Entry> entries) {
        long size = 4 + 4 + 8 + 4 + 4; // magic, length, txSeq, count, crc
        for (Entry e : entries) {
            if (e.map() < 0 || e.map() >= DELTA_FLAG || (e.delta() && e.blob() == null)
                    || (e.key() == FAMILY_DELTA && !e.delta())) {
                throw new IllegalArgumentException("journal entry of family " + e.map() + (e.delta() ? ", a delta without bytes" : ""));
            }
            size += 1 + 8 + 4 + (e.blob() == null ? 0 : e.blob().length);
        }
        if (size > Integer.MAX_VALUE - 16) {
            throw new StorageIOException("a transaction of " + size + " bytes exceeds the largest journal record");
        }
        return size;
    }

    /** The CRC32C of a blob, kept with its {@link WalBlob} and checked when it is read back. */
    private static int checksum(byte[] b) {
        CRC32C crc = new CRC32C();
        crc.update(b, 0, b.length);
        return (int) crc.getValue();
    }

    /**
     * One record on its way to the file through a buffer of at most {@link #CHUNK} bytes, its
     * payload checksummed as it passes (the checksum covers the bytes after the magic and the
     * length); a blob larger than the buffer's room is written from its own array.
     */
    private final class RecordOut {
        final ByteBuffer buf; // big-endian, as records were always written
        final CRC32C crc = new CRC32C();
        /** Where the buffer's first byte goes in the file. */
        long at;
        /** Bytes at the buffer's start the checksum leaves out (the magic and the length). */
        int unsummed = 8;

        RecordOut(long at, int capacity) {
            this.at = at;
            this.buf = ByteBuffer.allocate(Math.max(capacity, 32));
        }

        /** The file position of the next byte. */
        long position() {
            return at + buf.position();
        }

        void ensure(int n) throws IOException {
            if (buf.remaining() < n) {
                flush();
            }
        }

        void putInt(int v) throws IOException {
            ensure(4);
            buf.putInt(v);
        }

        void putLong(long v) throws IOException {
            ensure(8);
            buf.putLong(v);
        }

        void putBytes(byte[] b) throws IOException {
            if (b.length > buf.remaining()) {
                flush();
            }
            if (b.length <= buf.remaining()) {
                buf.put(b);
                return;
            }
            crc.update(b, 0, b.length);
            writeFully(ByteBuffer.wrap(b));
        }

        /** Writes the buffer out, its payload bytes checksummed. */
        void flush() throws IOException {
            int n = buf.position();
            if (n > unsummed) {
                crc.update(buf.array(), unsummed, n - unsummed);
            }
            unsummed = Math.max(0, unsummed - n);
            buf.flip();
            writeFully(buf);
            buf.clear();
        }

        /** Flushes the payload, then appends its checksum. */
        void finish() throws IOException {
            flush();
            buf.putInt((int) crc.getValue());
            buf.flip();
            writeFully(buf);
            buf.clear();
        }

        private void writeFully(ByteBuffer w) throws IOException {
            while (w.hasRemaining()) {
                int n = file.write(w, at);
                if (n <= 0) {
                    throw new IOException("short write: " + w.remaining() + " bytes not written");
                }
                at += n;
            }
        }
    }

    /**
     * Reads back a blob this journal appended ({@link WalBlob#read}); {@code page} names it in errors.
     *
     * @throws StorageIOException  when it cannot be read
     * @throws CorruptionException when its bytes no longer match the checksum taken at the append
     */
    byte[] read(WalBlob blob, String page) {
        byte[] b = new byte[blob.length];
        try {
            file.read(b, 0, b.length, blob.position);
        } catch (IOException e) {
            throw new StorageIOException("cannot read " + page + " from journal " + path + " at byte " + blob.position
                    + ": " + e.getMessage(), e);
        }
        if (checksum(b) != blob.crc) {
            throw new CorruptionException("journal " + path + ": " + page + " (" + blob.length + " bytes at byte "
                    + blob.position + ") fails its checksum");
        }
        return b;
    }

    /**
     * One committed record as a store takes it: its entries with their blobs left in the file
     * ({@link Entry#blob()} null), {@code blobs[i]} locating entry i's (null: a removed page).
     */
    record Located(List<Entry> entries, WalBlob[] blobs) {}

    /** What {@link #scan} found: the complete records, the length they span, the offsets of those still pending. */
    private record Scan(List<Located> records, long validLength, List<Long> pending) {}

    /**
     * The writer's reading at open: every complete record, and the torn tail a crash may have left
     * after them cut off (and forced), so the next record follows the last good one.
     */
    List<Located> recover() {
        try {
            Scan p = scan(true);
            if (file.size() > p.validLength()) {
                file.truncate(p.validLength());
                file.force(true);
            }
            // complete records still marked pending were forced before the crash: committed
            boolean marked = false;
            ByteBuffer magic = ByteBuffer.allocate(4).putInt(0, MAGIC);
            for (long start : p.pending()) {
                magic.clear();
                while (magic.hasRemaining()) {
                    if (file.write(magic, start + magic.position()) <= 0) {
                        throw new IOException("short write of a record's magic");
                    }
                }
                marked = true;
            }
            if (marked) {
                file.force(false);
            }
            return p.records();
        } catch (IOException e) {
            throw new StorageIOException("cannot read journal " + path + ": " + e.getMessage(), e);
        }
    }

    /**
     * Opens a world's WAL for reading only (a reader's: it never writes it, and the file may be on
     * read-only media), or returns null when there is none.
     *
     * @throws StorageIOException when it exists and cannot be opened
     */
    static Journal openForReading(Path path) {
        try {
            var channel = java.nio.channels.FileChannel.open(path, java.nio.file.StandardOpenOption.READ);
            return new Journal(path, new FileLayer.OsFile(channel, path));
        } catch (java.nio.file.NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new StorageIOException("cannot open journal " + path + ": " + e.getMessage(), e);
        }
    }

    private Journal(Path path, FileLayer.Handle file) {
        this.path = path;
        this.file = file;
    }

    /**
     * A reader's reading: every complete record present now. A record being appended meanwhile is
     * torn (or still pending) and ignored.
     */
    List<Located> committed() {
        try {
            return scan(false).records();
        } catch (IOException e) {
            throw new StorageIOException("cannot read journal " + path + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads the records from the start through a window of about {@link #CHUNK} bytes (a record
     * larger than that is read whole), each checked against its checksum, locating each blob
     * rather than copying it; stops at the first torn or corrupt record, or at a pending one
     * unless {@code pendingToo}.
     */
    private Scan scan(boolean pendingToo) throws IOException {
        long size = file.size();
        var out = new ArrayList<Located>();
        var pending = new ArrayList<Long>();
        var w = new Window(size);
        long pos = 0;
        while (size - pos >= 12) {
            Located rec;
            try {
                rec = record(w, pos, size, pendingToo);
            } catch (java.io.EOFException e) { // cut back under a reader by a failed append: torn
                break;
            }
            if (rec == null) {
                break;
            }
            out.add(rec);
            if (w.magic == PENDING) {
                pending.add(pos);
            }
            pos = w.next;
        }
        return new Scan(out, pos, pending);
    }

    /**
     * The record at {@code pos}, or null when it is torn, corrupt, or (unless {@code pendingToo})
     * pending; {@code w.magic} and {@code w.next} tell its magic and where the next one starts.
     */
    private Located record(Window w, long pos, long size, boolean pendingToo) throws IOException {
        int o = w.at(pos, 8);
        int magic = intAt(w.buf, o);
        if (magic != MAGIC && !(pendingToo && magic == PENDING)) {
            return null;
        }
        int len = intAt(w.buf, o + 4);
        if (len < 12 || size - pos - 8 < (long) len + 4 || len > Integer.MAX_VALUE - 16) {
            return null;
        }
        o = w.at(pos, len + 12);
        byte[] b = w.buf;
        CRC32C crc = new CRC32C();
        crc.update(b, o + 8, len);
        if ((int) crc.getValue() != intAt(b, o + 8 + len)) {
            return null;
        }
        ByteBuffer bb = ByteBuffer.wrap(b, o + 8, len);
        bb.getLong(); // tx seq
        int n = bb.getInt();
        if (n < 0 || n > len / 13) {
            return null;
        }
        var entries = new ArrayList<Entry>(n);
        var blobs = new WalBlob[n];
        for (int i = 0; i < n; i++) {
            if (bb.remaining() < 13) {
                return null;
            }
            int mapByte = bb.get();
            boolean delta = (mapByte & DELTA_FLAG) != 0;
            long key = bb.getLong();
            int bl = bb.getInt();
            if (bl > bb.remaining() || (delta && bl < 0)) {
                return null;
            }
            if (bl >= 0) {
                CRC32C c = new CRC32C();
                c.update(b, bb.position(), bl);
                blobs[i] = new WalBlob(this, pos + (bb.position() - o), bl, (int) c.getValue());
                bb.position(bb.position() + bl);
            }
            entries.add(new Entry(mapByte & ~DELTA_FLAG, key, null, delta));
        }
        w.magic = magic;
        w.next = pos + len + 12;
        return new Located(entries, blobs);
    }

    private static int intAt(byte[] b, int i) {
        return ((b[i] & 0xFF) << 24) | ((b[i + 1] & 0xFF) << 16) | ((b[i + 2] & 0xFF) << 8) | (b[i + 3] & 0xFF);
    }

    /** A window on the file for {@link #scan}: about {@link #CHUNK} bytes read at a time. */
    private final class Window {
        final long size;
        byte[] buf = new byte[0];
        long start;
        int len;
        /** The magic of the last record {@link Journal#record} returned, and where the record after it starts. */
        int magic;
        long next;

        Window(long size) {
            this.size = size;
        }

        /** Where bytes {@code [pos, pos + n)} (all within the file) lie in {@link #buf}, read in when they are not. */
        int at(long pos, int n) throws IOException {
            if (pos >= start && pos + n <= start + len) {
                return (int) (pos - start);
            }
            int want = (int) Math.min(size - pos, Math.max(n, CHUNK));
            if (buf.length < want) {
                buf = new byte[want];
            }
            file.read(buf, 0, want, pos);
            start = pos;
            len = want;
            return 0;
        }
    }

    /**
     * The committed records of the journal file {@code path} (absent: none) with their blobs' bytes
     * read in ({@link #committed} then {@link WalBlob#read}): what a reader opening now would see,
     * for tests and diagnostics.
     */
    static List<List<Entry>> read(Path path) {
        Journal j = openForReading(path);
        if (j == null) {
            return List.of();
        }
        try {
            var out = new ArrayList<List<Entry>>();
            for (Located rec : j.committed()) {
                var entries = new ArrayList<Entry>(rec.entries().size());
                for (int i = 0; i < rec.entries().size(); i++) {
                    Entry e = rec.entries().get(i);
                    WalBlob b = rec.blobs()[i];
                    entries.add(new Entry(e.map(), e.key(), b == null ? null : b.read("page " + e.key()), e.delta()));
                }
                out.add(entries);
            }
            return out;
        } finally {
            j.close();
        }
    }

    @Override
    public void close() {
        try {
            file.close();
        } catch (IOException ignored) {
            // nothing left to do
        }
    }
}
