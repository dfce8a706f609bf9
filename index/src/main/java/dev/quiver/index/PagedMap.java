package dev.quiver.index;

import dev.quiver.error.CorruptionException;
import dev.quiver.error.StorageIOException;

import net.openhft.chronicle.map.ChronicleMap;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.BiConsumer;

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
 * (unsigned short). Segment 0 starts with the segment count (4 bytes). Not thread-safe.
 */
public final class PagedMap implements AutoCloseable {
    /** Largest payload stored in one Chronicle entry, in bytes (smaller for small-valued maps). */
    public static final int SEGMENT_BYTES = 32 * 1024;

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

    /** The blob of a page, or null when absent. */
    public byte[] get(long page) {
        byte[] first = map.get(key(page, 0));
        if (first == null) {
            return null;
        }
        int segments = readInt(first, 0);
        if (segments == 1) {
            return Arrays.copyOfRange(first, 4, first.length);
        }
        byte[][] parts = new byte[segments][];
        parts[0] = Arrays.copyOfRange(first, 4, first.length);
        for (int s = 1; s < segments; s++) {
            parts[s] = map.get(key(page, s));
            if (parts[s] == null) {
                throw new CorruptionException(name + ": page " + page + " misses segment " + s);
            }
        }
        return concat(parts);
    }

    private static byte[] concat(byte[][] parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int o = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, o, p.length);
            o += p.length;
        }
        return out;
    }

    /** Stores a page blob, replacing the old one; null removes it. */
    public void put(long page, byte[] value) {
        if (value == null) {
            remove(page);
            return;
        }
        int oldSegments = segmentCount(page);
        int segments = Math.max(1, (value.length + segmentBytes - 1) / segmentBytes);
        if (segments > 0xFFFF) {
            throw new CorruptionException(name + ": page " + page + " of " + value.length + " bytes is too large");
        }
        for (int s = 0; s < segments; s++) {
            int from = s * segmentBytes, to = Math.min(value.length, from + segmentBytes);
            byte[] part;
            if (s == 0) {
                part = new byte[4 + (to - from)];
                part[0] = (byte) (segments >>> 24);
                part[1] = (byte) (segments >>> 16);
                part[2] = (byte) (segments >>> 8);
                part[3] = (byte) segments;
                System.arraycopy(value, from, part, 4, to - from);
            } else {
                part = Arrays.copyOfRange(value, from, to);
            }
            map.put(key(page, s), part);
        }
        for (int s = segments; s < oldSegments; s++) {
            map.remove(key(page, s));
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

    /** Removes a page (all its segments). */
    public void remove(long page) {
        int n = segmentCount(page);
        for (int s = 0; s < n; s++) {
            map.remove(key(page, s));
        }
        multi.remove(page);
    }

    /**
     * Calls {@code action} once per page with its whole blob, in no particular order. Multi-segment
     * pages are reassembled. Call it once after opening before the first {@link #put}: it learns
     * which pages span several segments.
     */
    public void forEach(BiConsumer<Long, byte[]> action) {
        var multi = new java.util.HashMap<Long, byte[][]>();
        map.forEachEntry(e -> {
            byte[] k = e.key().get();
            byte[] v = e.value().get();
            long page = pageOf(k);
            int seg = segmentOf(k);
            if (seg == 0 && readInt(v, 0) == 1) {
                action.accept(page, Arrays.copyOfRange(v, 4, v.length));
                return;
            }
            byte[][] parts = multi.computeIfAbsent(page, p -> new byte[seg == 0 ? readInt(v, 0) : 0][]);
            if (seg == 0 && parts.length == 0) {
                parts = new byte[readInt(v, 0)][];
                multi.put(page, parts);
            }
            if (seg >= parts.length) {
                byte[][] grown = Arrays.copyOf(parts, seg + 1);
                multi.put(page, grown);
                parts = grown;
            }
            // Chronicle may reuse the array it hands out for the next entry of the same size: copy
            parts[seg] = seg == 0 ? Arrays.copyOfRange(v, 4, v.length) : v.clone();
            this.multi.put(page, Math.max(this.multi.get(page), seg + 1));
        });
        for (var en : multi.entrySet()) {
            byte[][] parts = en.getValue();
            for (int i = 0; i < parts.length; i++) {
                if (parts[i] == null) {
                    throw new CorruptionException(name + ": page " + en.getKey() + " misses segment " + i);
                }
            }
            action.accept(en.getKey(), concat(parts));
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
