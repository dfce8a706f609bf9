package dev.quiver.storage.format;

import dev.quiver.error.CorruptionException;
import dev.quiver.index.Ids;
import dev.quiver.storage.entity.EntityIndex;
import dev.quiver.storage.entity.EntityNames;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;

import java.util.Arrays;
import java.util.List;

/**
 * Codec of a {@code names} page: the name-index entries of one bucket ({@link EntityNames#bucket}:
 * the top {@value EntityNames#BUCKET_BITS} bits of the key's hash), so that a lookup by name reads
 * one page. A commit logs what it changed in a bucket as a delta ({@link #writeDelta}), applied to
 * the page by whoever reads it and sealed into a whole page at a checkpoint ({@link #applyDelta}).
 */
final class NamePage {
    private NamePage() {}

    /**
     * Writes bucket {@code key}; false when it holds no entry. Layout: varint n entries in
     * ascending entity index, each: varint index gap (the entity's index minus the previous
     * entry's minus 1, the first from -1), the zigzag of the parent index's difference from the
     * previous entry's parent (the first from 0). The name and the generation are those of the
     * {@code entities} page.
     */
    static boolean write(WorldParts p, long key, Bytes.Writer w) {
        EntityNames names = p.names();
        int b = (int) key;
        if (names.bucketEmpty(b)) {
            return false;
        }
        var entries = new LongArrayList();
        names.forEachInBucket(b, (parent, e) -> entries.add(entry(Ids.index(e), parent)));
        long[] a = entries.toLongArray();
        Arrays.sort(a);
        writeEntries(a, w);
        return true;
    }

    /** An entry as one long: {@code (entity index << 32) | parent index}, so that longs sort by entity index. */
    static long entry(int index, int parent) {
        return ((long) index << 32) | (parent & 0xFFFF_FFFFL);
    }

    /** Writes entries (ascending) as the page body does: varint n, then each entry's index gap and parent delta. */
    private static void writeEntries(long[] sorted, Bytes.Writer w) {
        w.varint(sorted.length);
        long prevIdx = -1, prevParent = 0;
        for (long en : sorted) {
            long idx = en >>> 32, parent = en & 0xFFFF_FFFFL;
            w.varint(idx - prevIdx - 1);
            w.zigzag(parent - prevParent);
            prevIdx = idx;
            prevParent = parent;
        }
    }

    /**
     * Reads entries written by {@link #writeEntries}, checking their shape only (ascending entity
     * indices above 0, parents in range); {@code what} names the page or delta for messages.
     */
    private static long[] readEntries(Bytes.Reader r, String what) {
        int n = r.vcount(2);
        long[] out = new long[n];
        long idx = -1, parent = 0;
        for (int i = 0; i < n; i++) {
            idx += 1 + r.varint();
            parent += r.zigzag();
            if (idx <= 0 || idx > Integer.MAX_VALUE) {
                throw new CorruptionException(what + " files entity index " + idx);
            }
            if (parent < 0 || parent > Integer.MAX_VALUE) {
                throw new CorruptionException(what + " files entity #" + idx + " under parent #" + parent);
            }
            out[i] = entry((int) idx, (int) parent);
        }
        return out;
    }

    /**
     * The body of a name delta (a WAL entry, never stored in a generation): what one transaction
     * changed in bucket {@code key}. Layout: the entries added, then the entries removed, each list
     * as a page body ({@link #writeEntries}). Null when nothing changed.
     */
    static byte[] writeDelta(Long2IntOpenHashMap net) {
        var added = new LongArrayList();
        var removed = new LongArrayList();
        for (var e : net.long2IntEntrySet()) {
            (e.getIntValue() > 0 ? added : removed).add(e.getLongKey());
        }
        if (added.isEmpty() && removed.isEmpty()) {
            return null;
        }
        long[] a = added.toLongArray(), r = removed.toLongArray();
        Arrays.sort(a);
        Arrays.sort(r);
        Bytes.Writer w = new Bytes.Writer(16 + 6 * (a.length + r.length));
        writeEntries(a, w);
        writeEntries(r, w);
        return w.toBytes();
    }

    /**
     * The stored blob of bucket {@code key} once {@code deltas} (oldest first, {@link #writeDelta})
     * are applied to the stored blob {@code base} (null: no page); null when the bucket ends empty.
     * Works on entries only (no names needed), so that the file layer can apply a WAL's deltas
     * before any entity is read; {@link #read} checks the entries against the entities.
     *
     * @throws CorruptionException when the page or a delta is malformed
     */
    static byte[] applyDelta(long key, byte[] base, List<byte[]> deltas) {
        checkBucket(key);
        var set = new LongOpenHashSet();
        if (base != null) {
            Bytes.Reader r = new Bytes.Reader(PageCompression.open("names", key, base));
            set.addAll(LongArrayList.wrap(readEntries(r, "name page " + key)));
            if (r.remaining() != 0) {
                throw new CorruptionException("name page " + key + " holds " + r.remaining() + " bytes past its entries");
            }
        }
        for (byte[] d : deltas) {
            Bytes.Reader r = new Bytes.Reader(d);
            long[] added = readEntries(r, "name delta of bucket " + key);
            long[] removed = readEntries(r, "name delta of bucket " + key);
            if (r.remaining() != 0) {
                throw new CorruptionException("name delta of bucket " + key + " holds " + r.remaining() + " bytes past its entries");
            }
            for (long e : removed) {
                set.remove(e);
            }
            for (long e : added) {
                set.add(e);
            }
        }
        if (set.isEmpty()) {
            return null;
        }
        long[] a = set.toLongArray();
        Arrays.sort(a);
        Bytes.Writer w = new Bytes.Writer(16 + 6 * a.length);
        writeEntries(a, w);
        return PageCompression.seal(w.buffer(), w.size());
    }

    private static void checkBucket(long key) {
        if (key < 0 || key >= EntityNames.BUCKETS) {
            throw new CorruptionException("name page " + key + " is no bucket (0 to " + (EntityNames.BUCKETS - 1) + ")");
        }
    }

    /**
     * Reads bucket {@code key} into {@code names} (without reading it through its loader); the
     * entities the entries name must be in the entity index.
     */
    static void read(EntityIndex ei, EntityNames names, long key, byte[] b) {
        checkBucket(key);
        Bytes.Reader r = new Bytes.Reader(b);
        int n = r.vcount(2);
        long idx = -1, parent = 0;
        for (int i = 0; i < n; i++) {
            idx += 1 + r.varint();
            parent += r.zigzag();
            if (idx <= 0 || idx >= ei.nextIndex() || ei.state((int) idx) != EntityIndex.ALIVE || ei.name((int) idx) == null) {
                throw new CorruptionException("name page " + key + " files entity #" + idx + ", which is no alive named entity");
            }
            if (parent < 0 || parent > Integer.MAX_VALUE) {
                throw new CorruptionException("name page " + key + " files entity #" + idx + " under parent #" + parent);
            }
            String name = ei.name((int) idx);
            if (EntityNames.bucket((int) parent, name) != key) {
                throw new CorruptionException("name page " + key + " files entity #" + idx + " ('" + name
                        + "' under #" + parent + "), whose bucket is " + EntityNames.bucket((int) parent, name));
            }
            names.restore((int) parent, name, ei.idOf((int) idx));
        }
        if (r.remaining() != 0) {
            throw new CorruptionException("name page " + key + " holds " + r.remaining() + " bytes past its entries");
        }
    }
}
