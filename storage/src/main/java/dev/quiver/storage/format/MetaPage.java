package dev.quiver.storage.format;

import dev.quiver.error.CorruptionException;
import it.unimi.dsi.fastutil.ints.IntArrayList;

/** Codec of the {@code meta} page: format version, next entity index, table id count, free entity indices. */
final class MetaPage {
    private MetaPage() {}

    static void write(WorldParts p, Bytes.Writer w) {
        w.i32(WorldFormat.VERSION);
        w.i32(p.entities().nextIndex());
        w.i32(p.tables().size());
        IntArrayList free = p.entities().freeList();
        w.i32(free.size());
        for (int i = 0; i < free.size(); i++) {
            w.i32(free.getInt(i));
        }
    }

    /** Reads the page into the entity index; returns the table id count. */
    static int read(WorldParts p, byte[] b, String where) {
        Bytes.Reader r = new Bytes.Reader(b);
        int version = r.i32();
        if (version != WorldFormat.VERSION) {
            throw new CorruptionException("world " + where + " has format version " + version
                    + ", this build reads " + WorldFormat.VERSION);
        }
        int nextIndex = r.i32();
        int tableCount = r.i32();
        int nFree = r.count(4);
        if (nextIndex < 0 || tableCount < 0 || nFree > nextIndex) {
            throw new CorruptionException("world " + where + ": meta page holds impossible counts");
        }
        var free = new IntArrayList(nFree);
        for (int i = 0; i < nFree; i++) {
            int f = r.i32();
            if (f <= 0 || f >= nextIndex) {
                throw new CorruptionException("world " + where + ": meta page frees entity index " + f);
            }
            free.add(f);
        }
        p.entities().restore(nextIndex, free);
        return tableCount;
    }
}
