package dev.quiver.storage.format;

import dev.quiver.error.CorruptionException;
import dev.quiver.storage.WorldFormatException;
import it.unimi.dsi.fastutil.ints.IntArrayList;

/** Codec of the {@code meta} page: format version, next entity index, table id count, alive entity count (format 7), free entity indices. */
final class MetaPage {
    private MetaPage() {}

    static void write(WorldParts p, Bytes.Writer w) {
        w.i32(WorldFormat.VERSION);
        w.varint(p.entities().nextIndex());
        w.varint(p.tables().size());
        w.varint(p.entities().aliveCount());
        IntArrayList free = p.entities().freeList();
        w.varint(free.size());
        int prev = 0;
        for (int i = 0; i < free.size(); i++) {
            w.zigzag((long) free.getInt(i) - prev);
            prev = free.getInt(i);
        }
    }

    /**
     * Reads the page into the entity index; returns the table id count. The free list is decoded
     * when the entity index first needs it (a writer allocating or deleting; a reader never): its
     * length is proportional to the deletes a world has seen.
     *
     * @throws WorldFormatException when the page is of another format version (every version
     *                              starts the meta page with the version, an i32, uncompressed)
     * @throws CorruptionException when the page is damaged (a damaged free list when it is decoded)
     */
    static int read(WorldParts p, byte[] b, String where) {
        Bytes.Reader r = new Bytes.Reader(b);
        int version = r.i32();
        if (version != WorldFormat.VERSION) {
            throw new WorldFormatException("world " + where + " has page format version " + version
                    + ", this build reads " + WorldFormat.VERSION);
        }
        int nextIndex = r.varint(Integer.MAX_VALUE);
        int tableCount = r.varint(Integer.MAX_VALUE);
        int alive = r.varint(Integer.MAX_VALUE);
        int nFree = r.vcount(1);
        if (nFree > nextIndex || alive >= Math.max(1, nextIndex) || alive + nFree >= Math.max(1, nextIndex)) {
            throw new CorruptionException("world " + where + ": meta page holds impossible counts");
        }
        p.entities().restore(nextIndex, () -> freeList(b, where, nextIndex), alive);
        return tableCount;
    }

    /** The free list of meta page {@code b} (read again from its start). */
    private static IntArrayList freeList(byte[] b, String where, int nextIndex) {
        Bytes.Reader r = new Bytes.Reader(b);
        r.i32();
        r.varint();
        r.varint();
        r.varint();
        int nFree = r.vcount(1);
        var free = new IntArrayList(nFree);
        long f = 0;
        for (int i = 0; i < nFree; i++) {
            f += r.zigzag();
            if (f <= 0 || f >= nextIndex) {
                throw new CorruptionException("world " + where + ": meta page frees entity index " + f);
            }
            free.add((int) f);
        }
        if (r.remaining() != 0) {
            throw new CorruptionException("world " + where + ": meta page holds " + r.remaining() + " bytes past its fields");
        }
        return free;
    }
}
