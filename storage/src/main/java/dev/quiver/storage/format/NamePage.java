package dev.quiver.storage.format;

import dev.quiver.error.CorruptionException;
import dev.quiver.index.Ids;
import dev.quiver.storage.entity.EntityIndex;
import dev.quiver.storage.entity.EntityNames;
import dev.quiver.storage.table.TableSet;
import dev.quiver.storage.table.Types;

/** Codec of a {@code names} page: the name-index entries of the named entities of one entity block. */
final class NamePage {
    private NamePage() {}

    /** Writes block {@code key} in entity order; false when no entity of the block is filed by name. */
    static boolean write(WorldParts p, long key, Bytes.Writer w) {
        EntityIndex ei = p.entities();
        TableSet tables = p.tables();
        int base = (int) key << EntityPage.SHIFT, end = Math.min(ei.nextIndex(), base + EntityPage.SIZE);
        int n = 0;
        w.i32(0); // the entry count, patched below
        for (int idx = base; idx < end; idx++) {
            String name = ei.name(idx);
            if (ei.state(idx) == EntityIndex.ALIVE && name != null) {
                int parent = Types.parent(tables.get(ei.table(idx)).type());
                long e = ei.idOf(idx);
                if (p.names().child(parent, name) == e) {
                    w.str(name);
                    w.i32(parent);
                    w.i64(e);
                    n++;
                }
            }
        }
        if (n == 0) {
            return false;
        }
        w.patchI32(0, n);
        return true;
    }

    static void read(EntityIndex ei, EntityNames names, byte[] b) {
        Bytes.Reader r = new Bytes.Reader(b);
        int n = r.i32();
        if (n < 0 || n > EntityPage.SIZE) {
            throw new CorruptionException("name page holds " + n + " entries");
        }
        for (int i = 0; i < n; i++) {
            String name = r.str();
            int parent = r.i32();
            long e = r.i64();
            int idx = Ids.index(e);
            if (idx <= 0 || idx >= ei.nextIndex() || !name.equals(ei.name(idx))) {
                throw new CorruptionException("name index maps '" + name + "' to entity #" + idx
                        + (idx > 0 && idx < ei.nextIndex() ? " named '" + ei.name(idx) + "'" : " (out of range)"));
            }
            names.restore(parent, name, e);
        }
    }
}
