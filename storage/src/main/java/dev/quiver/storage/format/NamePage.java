package dev.quiver.storage.format;

import dev.quiver.error.CorruptionException;
import dev.quiver.index.Ids;
import dev.quiver.storage.entity.EntityIndex;
import dev.quiver.storage.entity.EntityNames;
import it.unimi.dsi.fastutil.longs.LongArrayList;

import java.util.Arrays;

/**
 * Codec of a {@code names} page: the name-index entries of one bucket ({@link EntityNames#bucket}:
 * the top {@value EntityNames#BUCKET_BITS} bits of the key's hash), so that a lookup by name reads
 * one page.
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
        names.forEachInBucket(b, (parent, e) -> entries.add(((long) Ids.index(e) << 32) | (parent & 0xFFFF_FFFFL)));
        long[] a = entries.toLongArray();
        Arrays.sort(a);
        w.varint(a.length);
        long prevIdx = -1, prevParent = 0;
        for (long en : a) {
            long idx = en >>> 32, parent = en & 0xFFFF_FFFFL;
            w.varint(idx - prevIdx - 1);
            w.zigzag(parent - prevParent);
            prevIdx = idx;
            prevParent = parent;
        }
        return true;
    }

    /**
     * Reads bucket {@code key} into {@code names} (without reading it through its loader); the
     * entities the entries name must be in the entity index.
     */
    static void read(EntityIndex ei, EntityNames names, long key, byte[] b) {
        if (key < 0 || key >= EntityNames.BUCKETS) {
            throw new CorruptionException("name page " + key + " is no bucket (0 to " + (EntityNames.BUCKETS - 1) + ")");
        }
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
