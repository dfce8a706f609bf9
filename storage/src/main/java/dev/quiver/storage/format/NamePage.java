package dev.quiver.storage.format;

import dev.quiver.error.CorruptionException;
import dev.quiver.storage.entity.EntityIndex;
import dev.quiver.storage.entity.EntityNames;
import dev.quiver.storage.table.TableSet;
import dev.quiver.storage.table.Types;

/** Codec of a {@code names} page: the name-index entries of the named entities of one entity block. */
final class NamePage {
    private NamePage() {}

    /**
     * Writes block {@code key} in entity order; false when no entity of the block is filed by
     * name. Layout: varint n entries, each: varint index gap (the entity's index minus the previous
     * entry's minus 1, the first from the block's first index), the zigzag of the parent index's
     * difference from the previous entry's parent (the first from 0). The name and the generation
     * are those of the {@code entities} page, read before this one.
     */
    static boolean write(WorldParts p, long key, Bytes.Writer w) {
        EntityIndex ei = p.entities();
        TableSet tables = p.tables();
        int base = (int) key << EntityPage.SHIFT, end = Math.min(ei.nextIndex(), base + EntityPage.SIZE);
        int n = 0;
        for (int pass = 0; pass < 2; pass++) {
            if (pass == 1) {
                if (n == 0) {
                    return false;
                }
                w.varint(n);
            }
            int prevIdx = base - 1, prevParent = 0;
            for (int idx = base; idx < end; idx++) {
                String name = ei.name(idx);
                if (ei.state(idx) == EntityIndex.ALIVE && name != null) {
                    int parent = Types.parent(tables.get(ei.table(idx)).type());
                    if (p.names().child(parent, name) == ei.idOf(idx)) {
                        if (pass == 0) {
                            n++;
                            continue;
                        }
                        w.varint(idx - prevIdx - 1);
                        w.zigzag((long) parent - prevParent);
                        prevIdx = idx;
                        prevParent = parent;
                    }
                }
            }
        }
        return true;
    }

    /** Reads block {@code key}; the block's entities page must have been read. */
    static void read(EntityIndex ei, EntityNames names, long key, byte[] b) {
        Bytes.Reader r = new Bytes.Reader(b);
        int n = r.varint(EntityPage.SIZE);
        long base = key << EntityPage.SHIFT;
        long idx = base - 1, parent = 0;
        for (int i = 0; i < n; i++) {
            idx += 1 + r.varint(EntityPage.SIZE);
            parent += r.zigzag();
            if (idx <= 0 || idx >= Math.min(ei.nextIndex(), base + EntityPage.SIZE)
                    || ei.state((int) idx) != EntityIndex.ALIVE || ei.name((int) idx) == null) {
                throw new CorruptionException("name page " + key + " files entity #" + idx + ", which is no alive named entity");
            }
            if (parent < 0 || parent > Integer.MAX_VALUE) {
                throw new CorruptionException("name page " + key + " files entity #" + idx + " under parent #" + parent);
            }
            names.restore((int) parent, ei.name((int) idx), ei.idOf((int) idx));
        }
        if (r.remaining() != 0) {
            throw new CorruptionException("name page " + key + " holds " + r.remaining() + " bytes past its entries");
        }
    }
}
