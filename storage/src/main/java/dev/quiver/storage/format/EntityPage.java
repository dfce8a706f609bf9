package dev.quiver.storage.format;

import dev.quiver.error.CorruptionException;
import dev.quiver.storage.entity.EntityIndex;
import dev.quiver.storage.tx.Changes;

/** Codec of an {@code entities} page: state, generation and name of a block of 1024 entity indices. */
final class EntityPage {
    static final int SHIFT = Changes.ENTITY_BLOCK_SHIFT;
    static final int SIZE = 1 << SHIFT;

    private EntityPage() {}

    /** Writes block {@code key}; false when the block is beyond the used indices (page removed). */
    static boolean write(EntityIndex ei, long key, Bytes.Writer w) {
        int base = (int) key << SHIFT;
        int n = Math.max(0, Math.min(SIZE, ei.nextIndex() - base));
        if (n == 0) {
            return false;
        }
        w.i32(n);
        for (int i = 0; i < n; i++) {
            int idx = base + i;
            byte st = ei.state(idx);
            w.u8(st);
            if (st != EntityIndex.FREE_NEVER) {
                w.i32(ei.generation(idx));
                if (st == EntityIndex.ALIVE) {
                    String name = ei.name(idx);
                    w.str(name == null ? "" : name);
                }
            }
        }
        return true;
    }

    static void read(EntityIndex ei, long key, byte[] b) {
        if (key < 0 || key > (ei.nextIndex() >>> SHIFT)) {
            throw new CorruptionException("entity page " + key + " lies beyond entity index " + ei.nextIndex());
        }
        Bytes.Reader r = new Bytes.Reader(b);
        int base = (int) key << SHIFT;
        int n = r.i32();
        if (n < 0 || n > SIZE) {
            throw new CorruptionException("entity page " + key + " holds " + n + " entries");
        }
        for (int i = 0; i < n; i++) {
            int idx = base + i;
            byte st = (byte) r.u8Below(3);
            if (st == EntityIndex.FREE_NEVER) {
                continue;
            }
            if (st != EntityIndex.ALIVE && st != EntityIndex.DEAD) {
                throw new CorruptionException("entity page " + key + " holds state " + st);
            }
            if (idx >= ei.nextIndex()) {
                throw new CorruptionException("entity page holds index " + idx + " beyond " + ei.nextIndex());
            }
            int gen = r.i32();
            String name = null;
            if (st == EntityIndex.ALIVE) {
                String s = r.str();
                name = s.isEmpty() ? null : s;
            }
            ei.restoreEntry(idx, st, gen, name);
        }
    }
}
