package dev.quiver.storage.format;

import dev.quiver.error.CorruptionException;
import dev.quiver.index.Ids;
import dev.quiver.storage.entity.EntityIndex;
import dev.quiver.storage.entity.NameBytes;
import dev.quiver.storage.table.Table;
import dev.quiver.storage.table.TableSet;
import dev.quiver.storage.tx.Changes;

import java.util.Arrays;

/**
 * Codec of an {@code entities} page: state, generation, table, row and name of a block of 1024
 * entity indices. Since format 7 the page gives each alive entity's table and row, so that the
 * entity index is read block by block, without the row pages.
 */
final class EntityPage {
    static final int SHIFT = Changes.ENTITY_BLOCK_SHIFT;
    static final int SIZE = 1 << SHIFT;

    private EntityPage() {}

    /**
     * Writes block {@code key}; false when the block is beyond the used indices (page removed).
     * Layout: varint n, then per index varint {@code generation << 2 | state}, and for an alive
     * entity: zz of its table id minus the previous alive entity's of the page (the first from 0),
     * zz of its row minus the previous alive entity's row minus 1 (the first from -1), and its name
     * ("" for anonymous) front-coded against the previous named entity's name in the page: varint
     * bytes shared with it, varint suffix length, suffix bytes (UTF-8).
     */
    static boolean write(EntityIndex ei, long key, Bytes.Writer w) {
        int base = (int) key << SHIFT;
        int n = Math.max(0, Math.min(SIZE, ei.nextIndex() - base));
        if (n == 0) {
            return false;
        }
        w.varint(n);
        // names are read where the entity index keeps them (no copy); front-coded against the
        // previous named entity's, which stays valid: nothing changes names while a page is written
        NameBytes cur = new NameBytes(), prev = new NameBytes();
        boolean hasPrev = false;
        long prevTable = 0, prevRow = -1;
        for (int i = 0; i < n; i++) {
            int idx = base + i;
            byte st = ei.state(idx);
            long gen = st == EntityIndex.FREE_NEVER ? 0 : ei.generation(idx) & 0xFFFF_FFFFL;
            w.varint(gen << 2 | st);
            if (st == EntityIndex.ALIVE) {
                long table = ei.table(idx), row = ei.row(idx);
                w.zigzag(table - prevTable);
                w.zigzag(row - prevRow - 1);
                prevTable = table;
                prevRow = row;
                if (!ei.nameBytes(idx, cur) || cur.length() == 0) {
                    w.varint(0); // anonymous: "", leaving the name to share with as it was
                    w.varint(0);
                    continue;
                }
                byte[] b = cur.bytes(), p = prev.bytes();
                int off = cur.offset(), len = cur.length(), pOff = prev.offset();
                int shared = 0, max = hasPrev ? Math.min(len, prev.length()) : 0;
                while (shared < max && b[off + shared] == p[pOff + shared]) {
                    shared++;
                }
                w.varint(shared);
                w.varint(len - shared);
                w.raw(b, off + shared, len - shared);
                NameBytes t = prev;
                prev = cur;
                cur = t;
                hasPrev = true;
            }
        }
        return true;
    }

    /**
     * Reads block {@code key} into {@code ei} (whose entries of the block are never used). An alive
     * entity's table must exist; with {@code checkRows} (a reader, whose tables are the committed
     * ones: a writer's may have changed since), when that table's rows are in memory, the row must
     * hold the entity. The full agreement of entities and rows is the checker's.
     */
    static void read(EntityIndex ei, TableSet tables, long key, byte[] b, boolean checkRows) {
        if (key < 0 || key > (ei.nextIndex() >>> SHIFT)) {
            throw new CorruptionException("entity page " + key + " lies beyond entity index " + ei.nextIndex());
        }
        Bytes.Reader r = new Bytes.Reader(b);
        int base = (int) key << SHIFT;
        int n = r.varint(SIZE);
        // the names stay UTF-8, one after the other, decoded when asked (EntityIndex.restoreNames):
        // front-coding's base is the previous name in this buffer
        byte[] names = new byte[Math.max(16, 2 * b.length)];
        int[] ends = new int[n];
        int end = 0, prevStart = 0, prevLength = 0;
        long table = 0, row = -1;
        Table tb = null; // the table of the previous alive entry (most entries of a block share one)
        for (int i = 0; i < n; i++) {
            int idx = base + i;
            ends[i] = end;
            long code = r.varint();
            byte st = (byte) (code & 3);
            long gen = code >>> 2;
            if (st == EntityIndex.FREE_NEVER) {
                if (gen != 0) {
                    throw new CorruptionException("entity page " + key + " gives never-used index " + idx + " generation " + gen);
                }
                continue;
            }
            if (st != EntityIndex.ALIVE && st != EntityIndex.DEAD) {
                throw new CorruptionException("entity page " + key + " holds state " + st);
            }
            if (gen > Ids.MAX_GENERATION) {
                throw new CorruptionException("entity page " + key + " gives index " + idx + " generation " + gen);
            }
            if (idx >= ei.nextIndex()) {
                throw new CorruptionException("entity page " + key + " holds index " + idx + " beyond " + ei.nextIndex());
            }
            int t = 0, rw = -1;
            if (st == EntityIndex.ALIVE) {
                table += r.zigzag();
                row += 1 + r.zigzag();
                if (tb == null || tb.id() != table) {
                    tb = table >= 0 && table < tables.size() ? tables.get((int) table) : null;
                }
                if (tb == null || row < 0 || row > Integer.MAX_VALUE
                        || (checkRows && (row >= tb.count()
                            || tb.rowInMemory((int) row) && tb.entity((int) row) != Ids.entity(idx, (int) gen)))) {
                    throw new CorruptionException("entity page " + key + " places entity #" + idx + " at table " + table
                            + " row " + row + ", which does not hold it");
                }
                t = (int) table;
                rw = (int) row;
                int shared = r.varint(prevLength);
                int suffix = r.vcount(1);
                int length = shared + suffix;
                if (length > 0) {
                    if ((long) end + length > names.length) {
                        names = Arrays.copyOf(names, (int) Math.min(Integer.MAX_VALUE - 8, Math.max((long) end + length, 2L * names.length)));
                    }
                    System.arraycopy(names, prevStart, names, end, shared);
                    r.raw(names, end + shared, suffix);
                    prevStart = end;
                    prevLength = length;
                    end += length;
                    ends[i] = end;
                }
            }
            ei.restoreReadEntry(idx, st, (int) gen, t, rw);
        }
        // no trimmed copy of the buffer: restoreNames copies the names into the block's own form
        // (BlockNames), so a trimmed copy was garbage at once (about a twentieth of the bytes RG-1's
        // first query after a reopen allocated)
        ei.restoreNames((int) key, names, ends);
        if (r.remaining() != 0) {
            throw new CorruptionException("entity page " + key + " holds " + r.remaining() + " bytes past its entries");
        }
    }
}
