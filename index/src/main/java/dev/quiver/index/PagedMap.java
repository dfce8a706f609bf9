package dev.quiver.index;

import dev.quiver.error.CorruptionException;
import dev.quiver.error.QuiverException;
import dev.quiver.error.StorageIOException;

import net.openhft.chronicle.bytes.RandomDataInput;
import net.openhft.chronicle.hash.Data;
import net.openhft.chronicle.hash.locks.InterProcessDeadLockException;
import net.openhft.chronicle.map.ChronicleMap;
import net.openhft.chronicle.map.ExternalMapQueryContext;
import net.openhft.chronicle.map.MapEntry;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.BiConsumer;
import java.util.zip.CRC32C;

/**
 * A persistent map from a 64-bit page key to a byte blob, stored in one Chronicle Map file.
 *
 * <p>Every persistent structure of a world (table chunks, entity pages, the component index, the
 * reverse index, the name index) is a {@code PagedMap}: the structure decides what a page is, and
 * the map stores whole pages, so a transaction writes each touched page once (DESIGN.md contract 5:
 * no per-entity round trips). A blob larger than {@link #SEGMENT_BYTES} is split over several
 * Chronicle entries (segments) because a Chronicle Map entry has a bounded size.
 *
 * <p>Chronicle key layout: 10 bytes, the page key (big-endian long) then the segment number
 * (unsigned short). Segment 0 starts with an 8-byte header, the segment count (int) and the page's
 * CRC32C (int), then the first bytes of the blob; segments 1 and up hold the rest of the blob, at
 * most {@link #SEGMENT_BYTES} each. All integers are big-endian. The CRC32C covers the page key
 * (8 bytes), the segment count (4 bytes) and the whole blob, so a page read under another key,
 * with a segment lost, or with any byte changed is refused: {@link #get} and {@link #forEach}
 * verify it and throw {@link CorruptionException} naming the map file and the page. Chronicle's
 * own failures on a damaged file are reported the same way. Not thread-safe.
 */
public final class PagedMap implements AutoCloseable {
    /** Largest payload stored in one Chronicle entry, in bytes (smaller for small-valued maps). */
    public static final int SEGMENT_BYTES = 32 * 1024;
    /** Bytes of segment 0 before the blob: the segment count and the CRC32C. */
    static final int HEADER_BYTES = 8;
    /** Largest segment count a page may have (the segment number is an unsigned short). */
    private static final int MAX_SEGMENTS = 0xFFFF;
    /** Largest Chronicle value a page segment may hold: anything larger is damage. */
    private static final long MAX_ENTRY_BYTES = SEGMENT_BYTES + HEADER_BYTES;

    private final ChronicleMap<byte[], byte[]> map;
    private final String name;
    /**
     * Payload bytes per segment: a Chronicle entry may span at most about 100 times the configured
     * average value size, so segments stay at 16 times the average (at most {@link #SEGMENT_BYTES}).
     */
    private final int segmentBytes;
    /** Segment counts of the pages stored in more than one segment (so puts need no lookup). */
    private final it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap multi = new it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap();

    private PagedMap(ChronicleMap<byte[], byte[]> map, String name, int segmentBytes, boolean scan) {
        this.map = map;
        this.name = name;
        this.segmentBytes = segmentBytes;
        if (!scan) {
            return; // forEach fills 'multi' when the owner loads the pages
        }
        map.forEachEntry(e -> {
            byte[] k = e.key().get();
            int seg = segmentOf(k);
            if (seg > 0) {
                long page = pageOf(k);
                multi.put(page, Math.max(multi.get(page), seg + 1));
            }
        });
    }

    static {
        ChronicleSupport.init();
    }

    /**
     * Opens (creating if missing) the map file.
     *
     * @param file           the Chronicle Map file
     * @param name           a name for diagnostics
     * @param entries        expected number of entries; the map grows beyond it up to 1000 times
     * @param averageValue   expected average blob size in bytes
     * @param recover        true after an unclean shutdown: Chronicle's recovery releases segment
     *                       locks a killed process held and repairs its headers
     * @throws StorageIOException when the file cannot be opened
     * @throws CorruptionException when it is not a Chronicle Map or its header is damaged
     */
    public static PagedMap open(Path file, String name, long entries, int averageValue, boolean recover) {
        ChronicleSupport.awaitWarmUp();
        try {
            var builder = ChronicleMap.of(byte[].class, byte[].class)
                    .name(name)
                    .constantKeySizeBySample(new byte[10])
                    .averageValueSize(Math.max(16, averageValue))
                    .entries(Math.max(64, entries))
                    .maxBloatFactor(1000);
            File f = file.toFile();
            ChronicleMap<byte[], byte[]> m = recover && f.exists()
                    ? builder.recoverPersistedTo(f, false)
                    : builder.createPersistedTo(f);
            return new PagedMap(m, name, (int) Math.min(SEGMENT_BYTES, 16L * Math.max(16, averageValue)), recover);
        } catch (IOException e) {
            if (e.getClass() == IOException.class) {
                // Chronicle reports a damaged or foreign header as a plain IOException; the
                // operating system's refusals are its subclasses (FileSystemException, ...)
                throw new CorruptionException("corrupt or unreadable map file " + file + ": " + e.getMessage(), e);
            }
            throw new StorageIOException("cannot open " + file + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new CorruptionException("corrupt or unreadable map file " + file + ": " + e, e);
        }
    }

    private static byte[] key(long page, int segment) {
        byte[] k = new byte[10];
        for (int i = 0; i < 8; i++) {
            k[i] = (byte) (page >>> (56 - 8 * i));
        }
        k[8] = (byte) (segment >>> 8);
        k[9] = (byte) segment;
        return k;
    }

    private static long pageOf(byte[] k) {
        long p = 0;
        for (int i = 0; i < 8; i++) {
            p = (p << 8) | (k[i] & 0xFF);
        }
        return p;
    }

    private static int segmentOf(byte[] k) {
        return ((k[8] & 0xFF) << 8) | (k[9] & 0xFF);
    }

    private static int readInt(byte[] b, int off) {
        return ((b[off] & 0xFF) << 24) | ((b[off + 1] & 0xFF) << 16) | ((b[off + 2] & 0xFF) << 8) | (b[off + 3] & 0xFF);
    }

    private static void writeInt(byte[] b, int off, int v) {
        b[off] = (byte) (v >>> 24);
        b[off + 1] = (byte) (v >>> 16);
        b[off + 2] = (byte) (v >>> 8);
        b[off + 3] = (byte) v;
    }

    /**
     * The CRC32C of a page: its key (8 bytes, big-endian), its segment count (4 bytes, big-endian),
     * then its whole blob, all segments in order.
     */
    private static int checksum(long page, int segments, byte[] blob) {
        CRC32C crc = new CRC32C();
        for (int shift = 56; shift >= 0; shift -= 8) {
            crc.update((int) (page >>> shift)); // one byte each, no head array
        }
        for (int shift = 24; shift >= 0; shift -= 8) {
            crc.update(segments >>> shift);
        }
        crc.update(blob, 0, blob.length);
        return (int) crc.getValue();
    }

    /** The file name and the page, for messages. */
    private String where(long page) {
        return "map file " + fileName() + " page " + page;
    }

    private String fileName() {
        File f = map.file();
        return f != null ? f.toString() : name;
    }

    /** A failure Chronicle raised while reading or writing the file: the file is damaged. */
    private CorruptionException chronicleFailure(String what, Throwable e) {
        if (e instanceof InterProcessDeadLockException) {
            return new CorruptionException("map file " + fileName() + " (" + what + "): a segment lock stayed taken for "
                    + System.getProperty(ChronicleSupport.LOCK_TIMEOUT_PROPERTY, "60") + " s (a damaged lock word, "
                    + "or a process that holds it and hangs)", e);
        }
        return new CorruptionException("corrupt map file " + fileName() + " (" + what + "): " + e, e);
    }

    /** The segment count stored at the start of segment 0, checked against the layout's bounds. */
    private int segmentCount(long page, byte[] first) {
        headerFits(page, first.length);
        return checkedSegments(page, readInt(first, 0));
    }

    private void headerFits(long page, long size) {
        if (size < HEADER_BYTES) {
            throw new CorruptionException(where(page) + ": segment 0 holds " + size
                    + " bytes, less than its " + HEADER_BYTES + "-byte header");
        }
    }

    /** A segment count read from segment 0, checked against the layout's bounds. */
    private int checkedSegments(long page, int segments) {
        if (segments < 1 || segments > MAX_SEGMENTS) {
            throw new CorruptionException(where(page) + ": segment count " + segments + " out of range");
        }
        return segments;
    }

    /** Checks a reassembled page against the checksum of its segment 0; returns the blob. */
    private byte[] verified(long page, int segments, byte[] first, byte[] blob) {
        return verified(page, segments, readInt(first, 4), blob);
    }

    /** Checks a reassembled page against the checksum {@code stored} in its segment 0; returns the blob. */
    private byte[] verified(long page, int segments, int stored, byte[] blob) {
        int actual = checksum(page, segments, blob);
        if (stored != actual) {
            throw new CorruptionException(where(page) + " fails its checksum (stored "
                    + Integer.toHexString(stored) + ", computed " + Integer.toHexString(actual) + ")");
        }
        return blob;
    }

    /** The value of one Chronicle entry, its size checked before anything is allocated; null when absent. */
    private byte[] readEntry(long page, int segment) {
        try (ExternalMapQueryContext<byte[], byte[], ?> c = map.queryContext(key(page, segment))) {
            c.readLock().lock();
            MapEntry<byte[], byte[]> e = c.entry();
            return e == null ? null : value(page, segment, e.value());
        } catch (QuiverException e) {
            throw e;
        } catch (RuntimeException | AssertionError e) {
            throw chronicleFailure("reading page " + page + " segment " + segment, e);
        }
    }

    private byte[] value(long page, int segment, Data<byte[]> v) {
        long size = checkedSize(page, segment, v);
        // a fresh array: Chronicle may reuse the one it hands out for the next entry of the same size
        byte[] out = v.getUsing(null);
        if (out.length != size) {
            throw new CorruptionException(where(page) + ": segment " + segment + " read " + out.length
                    + " of " + size + " bytes");
        }
        return out;
    }

    /** The size of a Chronicle value, checked against the layout's bound before anything is allocated. */
    private long checkedSize(long page, int segment, Data<byte[]> v) {
        long size = v.size();
        if (size < 0 || size > MAX_ENTRY_BYTES) {
            throw new CorruptionException(where(page) + ": segment " + segment + " claims " + size
                    + " bytes (at most " + MAX_ENTRY_BYTES + ")");
        }
        return size;
    }

    /** Big-endian int at {@code off} of Chronicle's bytes (byte by byte: its own order is native). */
    private static int readInt(RandomDataInput in, long off) {
        return ((in.readByte(off) & 0xFF) << 24) | ((in.readByte(off + 1) & 0xFF) << 16)
                | ((in.readByte(off + 2) & 0xFF) << 8) | (in.readByte(off + 3) & 0xFF);
    }

    /**
     * The blob of a page, or null when absent.
     *
     * @throws CorruptionException when a segment is missing or oversized, the checksum does not
     *                             match, or Chronicle fails on the file; the message names the file
     *                             and the page
     */
    public byte[] get(long page) {
        // segment 0's payload is read straight into an array of its size (no copy of the whole
        // entry then of the part after the header); its header comes out as two ints
        int segments, stored;
        byte[] first;
        try (ExternalMapQueryContext<byte[], byte[], ?> c = map.queryContext(key(page, 0))) {
            c.readLock().lock();
            MapEntry<byte[], byte[]> e = c.entry();
            if (e == null) {
                return null;
            }
            Data<byte[]> v = e.value();
            long size = checkedSize(page, 0, v);
            headerFits(page, size);
            RandomDataInput in = v.bytes();
            long off = v.offset();
            segments = checkedSegments(page, readInt(in, off));
            stored = readInt(in, off + 4);
            first = new byte[(int) size - HEADER_BYTES];
            long read = first.length == 0 ? 0 : in.read(off + HEADER_BYTES, first, 0, first.length);
            if (read != first.length) {
                throw new CorruptionException(where(page) + ": segment 0 read " + (HEADER_BYTES + Math.max(0, read))
                        + " of " + size + " bytes");
            }
        } catch (QuiverException e) {
            throw e;
        } catch (RuntimeException | AssertionError e) {
            throw chronicleFailure("reading page " + page + " segment 0", e);
        }
        if (segments == 1) {
            return verified(page, 1, stored, first);
        }
        byte[][] parts = new byte[segments][];
        parts[0] = first;
        for (int s = 1; s < segments; s++) {
            parts[s] = readEntry(page, s);
            if (parts[s] == null) {
                throw new CorruptionException(where(page) + " misses segment " + s + " of " + segments);
            }
        }
        return verified(page, segments, stored, concat(parts));
    }

    private static byte[] concat(byte[][] parts) {
        long n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        if (n > Integer.MAX_VALUE - 16) {
            throw new CorruptionException("a page of " + n + " bytes is too large");
        }
        byte[] out = new byte[(int) n];
        int o = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, o, p.length);
            o += p.length;
        }
        return out;
    }

    /**
     * Stores a page blob with its checksum, replacing the old one; null removes it.
     *
     * @throws StorageIOException when the map file has no room left (Chronicle's extra tiers are
     *                            used up)
     * @throws CorruptionException when Chronicle fails on a damaged file
     */
    public void put(long page, byte[] value) {
        if (value == null) {
            remove(page);
            return;
        }
        int oldSegments = segmentCount(page);
        int segments = Math.max(1, (value.length + segmentBytes - 1) / segmentBytes);
        if (segments > MAX_SEGMENTS) {
            throw new CorruptionException(where(page) + ": a page of " + value.length + " bytes is too large");
        }
        try {
            for (int s = 0; s < segments; s++) {
                int from = s * segmentBytes, to = Math.min(value.length, from + segmentBytes);
                byte[] part;
                if (s == 0) {
                    part = new byte[HEADER_BYTES + (to - from)];
                    writeInt(part, 0, segments);
                    writeInt(part, 4, checksum(page, segments, value));
                    System.arraycopy(value, from, part, HEADER_BYTES, to - from);
                } else {
                    part = Arrays.copyOfRange(value, from, to);
                }
                map.put(key(page, s), part);
            }
            for (int s = segments; s < oldSegments; s++) {
                map.remove(key(page, s));
            }
        } catch (QuiverException e) {
            throw e;
        } catch (RuntimeException | AssertionError e) {
            String m = String.valueOf(e.getMessage());
            if (e instanceof IllegalStateException && m.contains("is maximum")) {
                throw new StorageIOException("map file " + fileName() + " is full: " + m, e);
            }
            throw chronicleFailure("writing page " + page, e);
        }
        if (segments > 1) {
            multi.put(page, segments);
        } else if (oldSegments > 1) {
            multi.remove(page);
        }
    }

    private int segmentCount(long page) {
        return multi.containsKey(page) ? multi.get(page) : 1;
    }

    /**
     * Removes a page (all its segments).
     *
     * @throws CorruptionException when Chronicle fails on a damaged file
     */
    public void remove(long page) {
        int n = segmentCount(page);
        try {
            for (int s = 0; s < n; s++) {
                map.remove(key(page, s));
            }
        } catch (RuntimeException | AssertionError e) {
            throw chronicleFailure("removing page " + page, e);
        }
        multi.remove(page);
    }

    /** An exception thrown by the caller's action, carried through Chronicle's iteration unchanged. */
    private static final class ActionFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ActionFailure(Throwable cause) {
            super(null, cause, false, false);
        }

        /** Throws the action's own exception or error. */
        RuntimeException rethrow() {
            if (getCause() instanceof Error) {
                throw (Error) getCause();
            }
            throw (RuntimeException) getCause();
        }
    }

    /**
     * Calls {@code action} once per page with its whole blob, in no particular order. Multi-segment
     * pages are reassembled, and every page is checked against its checksum before {@code action}
     * sees it. Call it once after opening before the first {@link #put}: it learns which pages span
     * several segments. Exceptions of {@code action} pass through unchanged.
     *
     * @throws CorruptionException when a page fails its checksum, misses a segment, or Chronicle
     *                             fails on the file; the message names the file and the page
     */
    public void forEach(BiConsumer<Long, byte[]> action) {
        // segment 0 (header included) and the other segments of the pages that span several
        var partsOf = new java.util.HashMap<Long, byte[][]>();
        try {
            map.forEachEntry(e -> {
                if (e.key().size() != 10) {
                    throw new CorruptionException("map file " + fileName() + " holds a key of " + e.key().size() + " bytes");
                }
                byte[] k = e.key().getUsing(null);
                long page = pageOf(k);
                int seg = segmentOf(k);
                byte[] v = value(page, seg, e.value());
                if (seg == 0 && segmentCount(page, v) == 1) {
                    byte[] blob = verified(page, 1, v, Arrays.copyOfRange(v, HEADER_BYTES, v.length));
                    try {
                        action.accept(page, blob);
                    } catch (RuntimeException | Error ex) {
                        throw new ActionFailure(ex);
                    }
                    return;
                }
                byte[][] parts = partsOf.get(page);
                if (parts == null || parts.length <= seg) {
                    parts = parts == null ? new byte[seg + 1][] : Arrays.copyOf(parts, seg + 1);
                    partsOf.put(page, parts);
                }
                if (parts[seg] != null) {
                    throw new CorruptionException(where(page) + " holds segment " + seg + " twice");
                }
                parts[seg] = v;
                multi.put(page, Math.max(multi.get(page), seg + 1));
            });
        } catch (ActionFailure f) {
            throw f.rethrow();
        } catch (QuiverException e) {
            throw e;
        } catch (RuntimeException | AssertionError e) {
            throw chronicleFailure("iterating its pages", e);
        }
        for (var en : partsOf.entrySet()) {
            long page = en.getKey();
            byte[][] parts = en.getValue();
            if (parts[0] == null) {
                byte[] first = readEntry(page, 0);
                int firstLeftOver = 1;
                while (parts[firstLeftOver] == null) {
                    firstLeftOver++;
                }
                if (first != null && segmentCount(page, first) <= firstLeftOver) {
                    continue; // a single-segment page (passed to action above) and leftovers of an interrupted put
                }
                throw new CorruptionException(where(page) + " misses segment 0");
            }
            int segments = segmentCount(page, parts[0]);
            if (parts.length < segments) {
                throw new CorruptionException(where(page) + " misses segment " + parts.length + " of " + segments);
            }
            // segments past the count are left over from an interrupted put: the next put removes them
            byte[][] payload = new byte[segments][];
            payload[0] = Arrays.copyOfRange(parts[0], HEADER_BYTES, parts[0].length);
            for (int i = 1; i < segments; i++) {
                if (parts[i] == null) {
                    throw new CorruptionException(where(page) + " misses segment " + i + " of " + segments);
                }
                payload[i] = parts[i];
            }
            action.accept(page, verified(page, segments, parts[0], concat(payload)));
        }
    }

    /** Number of Chronicle entries (segments, not pages). */
    public long entryCount() {
        return map.longSize();
    }

    /** Removes every page. */
    public void clear() {
        map.clear();
        multi.clear();
    }

    @Override
    public void close() {
        map.close();
    }
}
