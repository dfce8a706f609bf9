package dev.quiver.storage.file;

import dev.quiver.error.CorruptionException;
import dev.quiver.error.StorageIOException;
import dev.quiver.index.PagedMap;

import it.unimi.dsi.fastutil.longs.LongArrayList;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * One sealed generation of a world: a Chronicle Map file {@code gen-<n>.cm} written once, by the
 * writer, in a temporary file that is forced to disk and renamed into place before any manifest
 * names it, and never written again.
 *
 * <p>A generation is either a <em>base</em> (every page of the world at its checkpoint) or a
 * <em>delta</em> (the pages changed since the generation below it, plus the keys of pages removed
 * since then: tombstones). A manifest lists a base and the deltas above it, oldest first
 * ({@link Manifest}); a page is read from the newest generation that holds or removes it.
 *
 * <p>Chronicle key of a page: {@code (family << 56) | page key} (page keys of every family stay
 * below {@code 2^56}). The generation's directory is the page under key {@link #DIRECTORY} (all
 * bits set): {@code [int magic][byte kind][int families] families x ([int n][n x long key, ascending]
 * [int r][r x long removed key, ascending])}, checksummed like every page by {@link PagedMap}.
 * Readers list a family's pages from the directory and fetch each page with a point read under
 * Chronicle's shared read lock; they never iterate the Chronicle file, whose iteration takes the
 * segments' update locks. A process killed while it reads therefore leaves at most a read-lock
 * count behind in a sealed file, which blocks no other reader, and nobody ever writes a sealed file:
 * no Chronicle recovery is ever needed.
 */
final class Generation implements AutoCloseable {
    /** The Chronicle key of the directory page. */
    static final long DIRECTORY = -1L;

    /** Where {@link #write} reads the pages it writes. */
    @FunctionalInterface
    interface PageReader {
        byte[] page(int family, long key);
    }
    private static final int MAGIC = 0x51564744; // "QVGD"
    static final byte BASE = 0, DELTA = 1;
    /** Page keys must stay below this bound to leave the top byte for the family. */
    static final long KEY_LIMIT = 1L << 56;

    final long number;
    final Path file;
    final boolean base;
    private final PagedMap map;
    /** Per family: the keys of the pages this generation holds, ascending. */
    private final long[][] keys;
    /** Per family: the keys of the pages this generation removes (a delta only), ascending. */
    private final long[][] removed;
    /** Sum of the page bytes (for the compaction policy). */
    final long pageBytes;
    /** Users of this instance in the process ({@link ProcessFiles}); guarded by its monitor. */
    int refs;

    private Generation(long number, Path file, boolean base, PagedMap map, long[][] keys, long[][] removed, long pageBytes) {
        this.number = number;
        this.file = file;
        this.base = base;
        this.map = map;
        this.keys = keys;
        this.removed = removed;
        this.pageBytes = pageBytes;
    }

    static String fileName(long number) {
        return Manifest.numbered("gen-", number, ".cm");
    }

    /**
     * Opens a sealed generation file for reading, or shares the instance this process already has
     * open for it ({@link ProcessFiles}); each open is matched by one {@link #close()}.
     *
     * @throws CorruptionException when the file is missing, not a Chronicle Map, or its directory
     *                             page is missing or damaged
     */
    static Generation open(Path file, long number, int families) {
        Generation shared = ProcessFiles.sharedGeneration(file);
        if (shared != null) {
            return shared;
        }
        if (!Files.isRegularFile(file)) {
            throw new CorruptionException("world " + file.getParent() + " is missing its generation file " + file
                    + " (it is never recreated empty: restore the world from a snapshot)");
        }
        PagedMap map = PagedMap.open(file, file.getFileName().toString(), 64, 1024, false);
        try {
            byte[] dir = map.get(DIRECTORY);
            if (dir == null) {
                throw new CorruptionException("generation file " + file + " has no directory page");
            }
            Generation g = decode(file, number, families, map, dir);
            Generation registered = ProcessFiles.addGeneration(g);
            if (registered != g) {
                map.close(); // another thread opened it meanwhile
            }
            return registered;
        } catch (RuntimeException e) {
            map.close();
            throw e;
        }
    }

    private static Generation decode(Path file, long number, int families, PagedMap map, byte[] dir) {
        try {
            ByteBuffer b = ByteBuffer.wrap(dir);
            if (b.getInt() != MAGIC) {
                throw new CorruptionException("generation file " + file + ": bad directory magic");
            }
            byte kind = b.get();
            int n = b.getInt();
            if ((kind != BASE && kind != DELTA) || n != families) {
                throw new CorruptionException("generation file " + file + ": directory of kind " + kind + " with "
                        + n + " families, expected " + families);
            }
            long[][] keys = new long[n][], removed = new long[n][];
            for (int f = 0; f < n; f++) {
                keys[f] = readKeys(b, file);
                removed[f] = readKeys(b, file);
            }
            if (b.hasRemaining()) {
                throw new CorruptionException("generation file " + file + ": " + b.remaining() + " bytes after its directory");
            }
            long bytes = Files.size(file);
            return new Generation(number, file, kind == BASE, map, keys, removed, bytes);
        } catch (java.nio.BufferUnderflowException e) {
            throw new CorruptionException("generation file " + file + ": truncated directory page", e);
        } catch (java.io.IOException e) {
            throw new StorageIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static long[] readKeys(ByteBuffer b, Path file) {
        int n = b.getInt();
        if (n < 0 || n > b.remaining() / 8) {
            throw new CorruptionException("generation file " + file + ": directory claims " + n + " keys");
        }
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = b.getLong();
            if (i > 0 && out[i] <= out[i - 1] || out[i] < 0 || out[i] >= KEY_LIMIT) {
                throw new CorruptionException("generation file " + file + ": directory keys out of order or range");
            }
        }
        return out;
    }

    /** The keys of the pages of {@code family} this generation holds, ascending (do not modify). */
    long[] keys(int family) {
        return keys[family];
    }

    /** The keys of the pages of {@code family} this delta removes, ascending (do not modify). */
    long[] removed(int family) {
        return removed[family];
    }

    /** True when this generation holds a page under {@code key}. */
    boolean holds(int family, long key) {
        return Arrays.binarySearch(keys[family], key) >= 0;
    }

    /** True when this delta removes the page under {@code key}. */
    boolean removes(int family, long key) {
        return Arrays.binarySearch(removed[family], key) >= 0;
    }

    /**
     * The blob of a page this generation holds.
     *
     * @throws CorruptionException when the directory lists it but the file has lost it, or it
     *                             fails its checksum
     */
    byte[] get(int family, long key) {
        byte[] b = map.get(chronicleKey(family, key));
        if (b == null) {
            throw new CorruptionException("generation file " + file + " lists page " + key + " of family " + family
                    + " but does not hold it");
        }
        return b;
    }

    private static long chronicleKey(int family, long key) {
        return ((long) family << 56) | key;
    }

    /** Drops this user; the last user of the process closes the file. */
    @Override
    public void close() {
        if (ProcessFiles.releaseGeneration(this)) {
            map.close();
        }
    }

    /**
     * Writes a sealed generation file: the page {@code pages.page(f, k)} for every key {@code k} of
     * {@code keys[f]} (ascending per family), the removed keys, and the directory; forces it to
     * disk. {@code bytes} is the total size of those pages (it sizes the file). The caller writes
     * to a temporary name and renames it into place.
     *
     * @throws StorageIOException when the file cannot be written (a full disk)
     */
    static void write(Path file, boolean base, LongArrayList[] keys, PageReader pages, long pageBytes, LongArrayList[] removed) {
        long segments = 1, bytes = pageBytes;
        int dirBytes = 9;
        for (int f = 0; f < keys.length; f++) {
            segments += keys[f].size() * 1L;
            bytes += 8L * keys[f].size();
            dirBytes += 8 + 8 * (keys[f].size() + removed[f].size());
        }
        segments += pageBytes / PagedMap.SEGMENT_BYTES;
        bytes += dirBytes;
        segments += dirBytes / PagedMap.SEGMENT_BYTES;
        int avg = (int) Math.max(64, Math.min(PagedMap.SEGMENT_BYTES, bytes / Math.max(1, segments)));
        try {
            Files.deleteIfExists(file);
        } catch (java.io.IOException e) {
            throw new StorageIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
        try (PagedMap map = PagedMap.open(file, file.getFileName().toString(), segments + segments / 8 + 16, avg, false)) {
            ByteBuffer dir = ByteBuffer.allocate(dirBytes);
            dir.putInt(MAGIC).put(base ? BASE : DELTA).putInt(keys.length);
            for (int f = 0; f < keys.length; f++) {
                LongArrayList k = keys[f];
                dir.putInt(k.size());
                for (int i = 0; i < k.size(); i++) {
                    long key = k.getLong(i);
                    if (key < 0 || key >= KEY_LIMIT) {
                        throw new IllegalArgumentException("page key " + key + " of family " + f + " out of range");
                    }
                    dir.putLong(key);
                    map.put(chronicleKey(f, key), pages.page(f, key));
                }
                LongArrayList r = removed[f];
                dir.putInt(r.size());
                for (int i = 0; i < r.size(); i++) {
                    dir.putLong(r.getLong(i));
                }
            }
            map.put(DIRECTORY, dir.array());
        }
        try {
            Fsync.file(file);
        } catch (java.io.IOException e) {
            throw new StorageIOException("cannot force " + file + " to disk: " + e.getMessage(), e);
        }
    }
}
