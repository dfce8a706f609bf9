package dev.quiver.storage.file;

import dev.quiver.error.CorruptionException;
import dev.quiver.error.StorageIOException;
import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static dev.quiver.storage.file.Store.MAP_NAMES;

/**
 * A store's overlay: the pages its WAL's committed records changed since the newest generation
 * ({@link Store}), by family and page key. A page changes by an after-image (null: removed), by a
 * delta (the reverse pages), or by a family delta, one blob of a commit's changes to many pages of
 * a family (the names pages, whose buckets a bulk commit touches all). The overlay keeps a page's
 * deltas, and a family's family deltas, in order; reading the page ({@link #get}) or sealing it
 * ({@link #settleAll}) applies them to its last image through the store's {@link PageDeltas}, then
 * keeps the result as the page's image (and, for family deltas, how many of them it holds).
 *
 * <p>Blobs are kept as where they lie in the WAL ({@link WalBlob}: what the writer committed, and
 * what a reader or a recovering writer found there at open) and read back when needed; images
 * brought up to date are kept as bytes. Not thread-safe.
 */
final class Overlay {
    /** Where a page the overlay does not hold is found: its last image in the generations (null: none). */
    @FunctionalInterface
    interface Base {
        byte[] image(int family, long key);
    }

    private final Path dir;
    private final Base base;

    /** The overlay's mark of a removed page. */
    private static final byte[] REMOVED = new byte[0];

    /**
     * Per family: pages changed since the newest generation ({@link #REMOVED}: removed). A value
     * is a blob: where it lies in the WAL ({@link WalBlob}, read back when needed:
     * {@link #bytes(Object, int, long)}), or the bytes ({@code byte[]}) of an image brought up to date.
     */
    @SuppressWarnings("unchecked")
    private final Long2ObjectOpenHashMap<Object>[] pages = new Long2ObjectOpenHashMap[MAP_NAMES.length];
    /**
     * Per family: deltas (oldest first) not yet applied, on top of the page's {@link #pages}
     * image or, without one, of its image in the generations.
     */
    @SuppressWarnings("unchecked")
    private final Long2ObjectOpenHashMap<List<Object>>[] deltas = new Long2ObjectOpenHashMap[MAP_NAMES.length];
    /**
     * Per family: its family deltas ({@link Journal#FAMILY_DELTA}, oldest first) not yet applied to
     * every page they change; a family has family deltas or pages' own deltas pending, never both.
     * Blobs like the {@link #pages}'s; the first page brought up to date reads them all
     * ({@link #familyDeltaBytes}), and they stay read.
     */
    private final List<Object>[] familyDeltas = new List[MAP_NAMES.length];
    /**
     * Per family: how many of its {@link #familyDeltas} page k's {@link #pages} image already
     * holds (absent: none), so that a page is brought up to date only by the ones after.
     */
    private final it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap[] familySettled =
            new it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap[MAP_NAMES.length];
    /** Applies deltas to pages (the page format's). */
    private final PageDeltas pageDeltas;
    /** Bytes of the blobs held or located, deltas included. */
    private long overlayBytes;

    /** An empty overlay of the world at {@code dir} (named in errors) over {@code base}. */
    Overlay(Path dir, PageDeltas pageDeltas, Base base) {
        this.dir = dir;
        this.pageDeltas = pageDeltas;
        this.base = base;
        for (int i = 0; i < pages.length; i++) {
            pages[i] = new Long2ObjectOpenHashMap<>();
            deltas[i] = new Long2ObjectOpenHashMap<>();
            familyDeltas[i] = new ArrayList<>();
            familySettled[i] = new it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap();
        }
    }

    /**
     * Takes one committed record's pages into the overlay: each entry's blob, or, when
     * {@code logged} is given, where {@code logged[i]} says entry i's blob lies in the WAL (an
     * entry of a record read from the WAL carries no bytes; null there: a removed page).
     */
    void apply(List<Journal.Entry> rec, WalBlob[] logged) {
        for (int i = 0; i < rec.size(); i++) {
            Journal.Entry e = rec.get(i);
            Object blob = logged != null && logged[i] != null ? logged[i] : e.blob();
            boolean family = e.delta() && e.key() == Journal.FAMILY_DELTA;
            if (e.map() < 0 || e.map() >= MAP_NAMES.length || (!family && (e.key() < 0 || e.key() >= Generation.KEY_LIMIT))) {
                throw new CorruptionException("WAL of world " + dir + " holds a page of family " + e.map() + " key " + e.key());
            }
            if (e.delta()) {
                if (blob == null) {
                    throw new CorruptionException("WAL of world " + dir + " holds a delta without bytes for page " + e.key()
                            + " of family " + e.map());
                }
                if (family ? !deltas[e.map()].isEmpty() : !familyDeltas[e.map()].isEmpty()) {
                    throw new CorruptionException("WAL of world " + dir + " holds both family deltas and page deltas of "
                            + MAP_NAMES[e.map()] + " pages");
                }
                if (family) {
                    familyDeltas[e.map()].add(blob);
                } else {
                    deltas[e.map()].computeIfAbsent(e.key(), k -> new ArrayList<>()).add(blob);
                }
                overlayBytes += length(blob);
                continue;
            }
            List<Object> stale = deltas[e.map()].remove(e.key()); // an image replaces the deltas before it
            if (stale != null) {
                for (Object d : stale) {
                    overlayBytes -= length(d);
                }
            }
            if (!familyDeltas[e.map()].isEmpty()) {
                familySettled[e.map()].put(e.key(), familyDeltas[e.map()].size());
            }
            Object old = pages[e.map()].put(e.key(), blob == null ? REMOVED : blob);
            overlayBytes += (blob == null ? 0 : length(blob)) - (old == null ? 0 : length(old));
        }
    }

    /**
     * Bytes of committed blobs held in the heap (images brought up to date, family deltas once
     * read), not counting those only located in the WAL.
     */
    long heapBytes() {
        long n = 0;
        for (int f = 0; f < MAP_NAMES.length; f++) {
            for (Object v : pages[f].values()) {
                n += v instanceof byte[] b ? b.length : 0;
            }
            for (List<Object> ds : deltas[f].values()) {
                for (Object v : ds) {
                    n += v instanceof byte[] b ? b.length : 0;
                }
            }
            for (Object v : familyDeltas[f]) {
                n += v instanceof byte[] b ? b.length : 0;
            }
        }
        return n;
    }

    /** A blob's length in bytes ({@link #pages}'s values). */
    private static int length(Object blob) {
        return blob instanceof WalBlob w ? w.length : ((byte[]) blob).length;
    }

    /**
     * A blob's bytes, read from the WAL when the overlay keeps only where they lie.
     *
     * @throws CorruptionException when they fail their checksum
     * @throws StorageIOException  when the WAL cannot be read
     */
    private static byte[] bytes(Object blob, int family, long key) {
        return blob instanceof WalBlob w ? w.read(MAP_NAMES[family] + " page " + key) : (byte[]) blob;
    }

    /** The family deltas of {@code family}, read (once: they stay read) where the WAL holds them. */
    private List<byte[]> familyDeltaBytes(int family) {
        List<Object> fam = familyDeltas[family];
        var out = new ArrayList<byte[]>(fam.size());
        for (int i = 0; i < fam.size(); i++) {
            Object d = fam.get(i);
            if (d instanceof WalBlob w) {
                d = w.read("family delta " + i + " of the " + MAP_NAMES[family] + " pages");
                fam.set(i, d);
            }
            out.add((byte[]) d);
        }
        return out;
    }

    /**
     * Applies the pending deltas of page {@code key} of {@code family} (its own, or the family
     * deltas its image does not hold yet) to its image and keeps the result as the page's overlay
     * image (no-op without deltas, or when none changes the page).
     *
     * @throws CorruptionException when the page or a delta is malformed
     */
    private void settle(int family, long key) {
        List<Object> pending = familyDeltas[family];
        if (!pending.isEmpty()) {
            int from = familySettled[family].get(key); // 0 when absent
            if (from < pending.size()) {
                List<byte[]> fam = familyDeltaBytes(family);
                byte[] base = imageOf(family, key);
                byte[] image = applyDeltas(family, key, base, fam.subList(from, fam.size()), true);
                familySettled[family].put(key, fam.size());
                if (image != base) {
                    putOverlay(family, key, image);
                }
            }
            return;
        }
        List<Object> pendingDeltas = deltas[family].get(key);
        if (pendingDeltas == null) {
            return;
        }
        var ds = new ArrayList<byte[]>(pendingDeltas.size());
        for (Object d : pendingDeltas) {
            ds.add(bytes(d, family, key));
        }
        byte[] image = applyDeltas(family, key, imageOf(family, key), ds, false);
        deltas[family].remove(key);
        for (byte[] d : ds) {
            overlayBytes -= d.length;
        }
        putOverlay(family, key, image);
    }

    private byte[] applyDeltas(int family, long key, byte[] base, List<byte[]> ds, boolean familyDeltas) {
        try {
            return pageDeltas.apply(family, key, base, ds, familyDeltas);
        } catch (CorruptionException e) {
            throw new CorruptionException("world " + dir + ": " + MAP_NAMES[family] + " page " + key
                    + " with its WAL deltas: " + e.getMessage(), e);
        }
    }

    private void putOverlay(int family, long key, byte[] image) {
        Object old = pages[family].put(key, image == null ? REMOVED : image);
        overlayBytes += (image == null ? 0 : image.length) - (old == null ? 0 : length(old));
    }

    /** Applies every pending delta of {@code family} ({@link #settle}), family deltas included. */
    void settleAll(int family) {
        if (!familyDeltas[family].isEmpty()) {
            List<byte[]> fam = familyDeltaBytes(family);
            var touched = new LongOpenHashSet();
            for (byte[] d : fam) {
                try {
                    for (long k : pageDeltas.pagesOf(family, d)) {
                        touched.add(k);
                    }
                } catch (CorruptionException e) {
                    throw new CorruptionException("world " + dir + ": a family delta of " + MAP_NAMES[family]
                            + " pages in its WAL: " + e.getMessage(), e);
                }
            }
            long[] keys = touched.toLongArray();
            Arrays.sort(keys);
            for (long k : keys) {
                settle(family, k);
            }
            for (byte[] d : fam) {
                overlayBytes -= d.length;
            }
            familyDeltas[family].clear();
            familySettled[family].clear();
        }
        if (deltas[family].isEmpty()) {
            return;
        }
        long[] keys = deltas[family].keySet().toLongArray();
        Arrays.sort(keys);
        for (long k : keys) {
            settle(family, k);
        }
    }

    /**
     * The committed blob of a page, its deltas applied, or null when there is none.
     *
     * @throws CorruptionException when the page or a delta is damaged
     */
    byte[] get(int family, long key) {
        settle(family, key);
        return imageOf(family, key);
    }

    /** The page's last image: the overlay's, else the base's (deltas not applied). */
    private byte[] imageOf(int family, long key) {
        Object b = pages[family].get(key);
        if (b != null) {
            return b == REMOVED ? null : bytes(b, family, key);
        }
        return base.image(family, key);
    }

    /** Adds to {@code keys} the pages of {@code family} the overlay holds, and takes out those it removes ({@link #settleAll} first). */
    void mergeKeys(int family, LongOpenHashSet keys) {
        for (var e : pages[family].long2ObjectEntrySet()) {
            if (e.getValue() == REMOVED) {
                keys.remove(e.getLongKey());
            } else {
                keys.add(e.getLongKey());
            }
        }
    }

    /** The keys of the pages of {@code family} the overlay holds, ascending, into {@code kept}, or {@code removed} for those it removes. */
    void splitKeys(int family, LongArrayList kept, LongArrayList removed) {
        long[] ks = pages[family].keySet().toLongArray();
        Arrays.sort(ks);
        for (long k : ks) {
            (pages[family].get(k) == REMOVED ? removed : kept).add(k);
        }
    }

    /** True when no record changed anything. */
    boolean isEmpty() {
        for (int f = 0; f < pages.length; f++) {
            if (!pages[f].isEmpty() || !deltas[f].isEmpty() || !familyDeltas[f].isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /** Bytes of the blobs held or located, deltas included (what a checkpoint adds to the generations). */
    long bytes() {
        return overlayBytes;
    }

    /** Forgets everything (the pages are in a sealed generation now). */
    void clear() {
        for (int f = 0; f < pages.length; f++) {
            pages[f].clear();
            deltas[f].clear();
            familyDeltas[f].clear();
            familySettled[f].clear();
        }
        overlayBytes = 0;
    }
}
