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
 * entity index is read block by block, without the row pages. Since format 11 the names follow
 * every entry, as a section of their own, so that reading a block stops before them: the entity
 * index keeps the section undecoded until a name of the block is used (a query that never reads a
 * name decodes none).
 */
final class EntityPage {
    static final int SHIFT = Changes.ENTITY_BLOCK_SHIFT;
    static final int SIZE = 1 << SHIFT;

    private EntityPage() {}

    /**
     * Writes block {@code key}; false when the block is beyond the used indices (page removed).
     * Layout (format 12): varint n, i32 m (the names section's byte length), then the entries as
     * runs covering the n indices in order, each the longest possible: varint
     * {@code generation << 2 | state}, varint its length minus 1, and for a run of alive entities
     * (one table, consecutive rows) zz of its table id minus the previous alive run's (the first
     * from 0) and zz of its first row minus the previous alive run's last row minus 1 (the first
     * from -1); then the names section, m bytes: per named entity in ascending index, varint its
     * offset in the block minus the previous named entity's minus 1 (the first from -1), then its
     * name front-coded against the previous one of the section: varint bytes shared with it,
     * varint suffix length, suffix bytes (UTF-8; a name takes at least one byte). The names come
     * last so that reading a block's states, tables and rows stops before them ({@link #read});
     * they are decoded when one is first used ({@link #readNames}).
     * A block whose section is still undecoded ({@link EntityIndex#packedNames}) gets that section
     * copied as it is: its names and named entities are the ones it encodes, and decoding it only to
     * encode it again cost a changed block's names (a cascade delete's surviving holders: about
     * 500 blocks, 15 MB, in RG-1's delete).
     */
    static boolean write(EntityIndex ei, long key, Bytes.Writer w) {
        int base = (int) key << SHIFT;
        int n = Math.max(0, Math.min(SIZE, ei.nextIndex() - base));
        if (n == 0) {
            return false;
        }
        w.varint(n);
        int lengthAt = w.size();
        w.i32(0); // the names section's length, patched below
        long prevTable = 0, prevRow = -1;
        for (int i = 0; i < n; ) {
            int idx = base + i;
            byte st = ei.state(idx);
            int gen = st == EntityIndex.FREE_NEVER ? 0 : ei.generation(idx);
            boolean alive = st == EntityIndex.ALIVE;
            int table = alive ? ei.table(idx) : 0, row = alive ? ei.row(idx) : 0;
            int length = 1;
            while (i + length < n && sameRun(ei, idx + length, st, gen, table, row + length)) {
                length++;
            }
            w.varint((gen & 0xFFFF_FFFFL) << 2 | st);
            w.varint(length - 1);
            if (alive) {
                w.zigzag(table - prevTable);
                w.zigzag(row - prevRow - 1);
                prevTable = table;
                prevRow = row + length - 1L;
            }
            i += length;
        }
        int namesFrom = w.size();
        byte[] packed = ei.packedNames((int) key);
        if (packed != null) { // no name of the block used since its page was read: the same section
            int from = ei.packedNamesFrom((int) key);
            w.raw(packed, from, packed.length - from);
            w.patchI32(lengthAt, packed.length - from);
            return true;
        }
        // names are read where the entity index keeps them (no copy); front-coded against the
        // previous named entity's, which stays valid: nothing changes names while a page is written
        NameBytes cur = new NameBytes(), prev = new NameBytes();
        boolean hasPrev = false;
        int prevK = -1;
        for (int i = 0; i < n; i++) {
            int idx = base + i;
            if (ei.state(idx) != EntityIndex.ALIVE || !ei.nameBytes(idx, cur) || cur.length() == 0) {
                continue;
            }
            byte[] b = cur.bytes(), p = prev.bytes();
            int off = cur.offset(), len = cur.length(), pOff = prev.offset();
            int shared = 0, max = hasPrev ? Math.min(len, prev.length()) : 0;
            while (shared < max && b[off + shared] == p[pOff + shared]) {
                shared++;
            }
            w.varint(i - prevK - 1);
            w.varint(shared);
            w.varint(len - shared);
            w.raw(b, off + shared, len - shared);
            prevK = i;
            NameBytes t = prev;
            prev = cur;
            cur = t;
            hasPrev = true;
        }
        w.patchI32(lengthAt, w.size() - namesFrom);
        return true;
    }

    /** True when index {@code idx} continues a run of state {@code st} and generation {@code gen} (alive: in {@code table} at {@code row}). */
    private static boolean sameRun(EntityIndex ei, int idx, byte st, int gen, int table, int row) {
        if (ei.state(idx) != st) {
            return false;
        }
        if (st == EntityIndex.FREE_NEVER) {
            return true;
        }
        return ei.generation(idx) == gen && (st != EntityIndex.ALIVE || ei.table(idx) == table && ei.row(idx) == row);
    }

    /**
     * Reads block {@code key} into {@code ei} (whose entries of the block are never used): states,
     * generations, tables and rows, one bulk {@link EntityIndex#restoreRun} per run; its names
     * section is handed to the index undecoded ({@link EntityIndex#restorePackedNames}), decoded by
     * {@link #readNames} on first use of a name of the block. {@code b} is a page body nobody else
     * writes: when the names take at least half of it, the index keeps {@code b} itself (no copy),
     * else a copy of the names section. An alive entity's table must exist; with {@code checkRows}
     * (a reader, whose tables are the committed ones: a writer's may have changed since), when that
     * table's rows are in memory, the row must hold the entity. The full agreement of entities and
     * rows is the checker's.
     *
     * @throws CorruptionException naming the page when the runs are malformed (a state, a
     *                             generation, a run past the page's n indices, a row past the
     *                             table's) or the names section's length is not what follows them
     *                             (the section's content is checked when decoded)
     */
    static void read(EntityIndex ei, TableSet tables, long key, byte[] b, boolean checkRows) {
        try {
            readEntries(ei, tables, key, b, checkRows);
        } catch (CorruptionException e) { // a truncated page or a value out of range, found by the reader
            String page = "entity page " + key;
            throw e.getMessage() != null && e.getMessage().startsWith(page) ? e : new CorruptionException(page + ": " + e.getMessage(), e);
        }
    }

    private static void readEntries(EntityIndex ei, TableSet tables, long key, byte[] b, boolean checkRows) {
        if (key < 0 || key > (ei.nextIndex() >>> SHIFT)) {
            throw new CorruptionException("entity page " + key + " lies beyond entity index " + ei.nextIndex());
        }
        Bytes.Reader r = new Bytes.Reader(b);
        int base = (int) key << SHIFT;
        int n = r.varint(SIZE);
        int namesLength = r.count(1);
        // per page, not per entry: every index of the page below nextIndex, so no entry can lie beyond it
        if (n > 0 && base + n > ei.nextIndex()) {
            throw new CorruptionException("entity page " + key + " holds index " + (base + n - 1) + " beyond " + ei.nextIndex());
        }
        long table = 0, row = -1;
        Table tb = null; // the table of the previous alive run
        for (int i = 0; i < n; ) {
            int idx = base + i;
            long code = r.varint();
            long length = 1 + r.varint();
            if (length < 1 || length > n - i) {
                throw new CorruptionException("entity page " + key + " gives a run of " + Long.toUnsignedString(length)
                        + " entries from #" + idx + ", past its " + n + " indices");
            }
            byte st = (byte) (code & 3);
            long gen = code >>> 2;
            if (st == EntityIndex.FREE_NEVER) {
                if (gen != 0) {
                    throw new CorruptionException("entity page " + key + " gives never-used index " + idx + " generation " + gen);
                }
                i += (int) length; // left as the block's reset left it
                continue;
            }
            if (st != EntityIndex.ALIVE && st != EntityIndex.DEAD) {
                throw new CorruptionException("entity page " + key + " holds state " + st);
            }
            if (gen > Ids.MAX_GENERATION) {
                throw new CorruptionException("entity page " + key + " gives index " + idx + " generation " + gen);
            }
            if (st == EntityIndex.ALIVE) {
                table += r.zigzag();
                row += 1 + r.zigzag();
                if (tb == null || tb.id() != table) {
                    tb = table >= 0 && table < tables.size() ? tables.get((int) table) : null;
                }
                long last = row + length - 1;
                if (tb == null || row < 0 || row > Integer.MAX_VALUE - (length - 1) || checkRows && !holds(tb, (int) row, (int) length, idx, (int) gen)) {
                    throw new CorruptionException("entity page " + key + " places entities #" + idx + " to #" + (idx + length - 1)
                            + " at table " + table + " rows " + row + " to " + last + ", which do not hold them");
                }
                ei.restoreRun(idx, (int) length, st, (int) gen, (int) table, (int) row);
                row = last;
            } else {
                ei.restoreRun(idx, (int) length, st, (int) gen, 0, -1);
            }
            i += (int) length;
        }
        if (r.remaining() != namesLength) {
            throw new CorruptionException("entity page " + key + " holds " + r.remaining() + " bytes past its entries, not its "
                    + namesLength + " bytes of names");
        }
        if (namesLength > 0) {
            if (2 * namesLength >= b.length) {
                ei.restorePackedNames((int) key, b, r.position(), EntityPage::readNames);
            } else {
                ei.restorePackedNames((int) key, Arrays.copyOfRange(b, r.position(), b.length), 0, EntityPage::readNames);
            }
        }
    }

    /**
     * True when rows {@code [row, row + length)} of {@code tb} exist and those in memory hold
     * entities {@code idx, idx + 1, ...} of generation {@code gen}.
     */
    private static boolean holds(Table tb, int row, int length, int idx, int gen) {
        if ((long) row + length > tb.count()) {
            return false;
        }
        for (int k = 0; k < length; k++) {
            if (tb.rowInMemory(row + k) && tb.entity(row + k) != Ids.entity(idx + k, gen)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Decodes the names section of block {@code key}, {@code b[from..]} (read by {@link #read}),
     * into {@code ei} ({@link EntityIndex#restoreNames}): each named entity must be alive.
     *
     * @throws CorruptionException naming the page when the section is malformed
     */
    static void readNames(EntityIndex ei, int key, byte[] b, int from) {
        try {
            Bytes.Reader r = new Bytes.Reader(b, from);
            int base = key << SHIFT;
            // the names stay UTF-8, one after the other: front-coding's base is the previous name in this buffer
            byte[] names = new byte[Math.max(16, 2 * (b.length - from))];
            int[] ends = new int[SIZE];
            int k = -1, next = 0, end = 0, prevStart = 0, prevLength = 0;
            while (r.remaining() > 0) {
                k += 1 + r.varint(SIZE - 2 - k);
                if (ei.state(base + k) != EntityIndex.ALIVE) {
                    throw new CorruptionException("entities page " + key + " names entity #" + (base + k) + ", which is not alive");
                }
                int shared = r.varint(prevLength);
                int suffix = r.vcount(1);
                int length = shared + suffix;
                if (length == 0) {
                    throw new CorruptionException("entities page " + key + " gives entity #" + (base + k) + " an empty name");
                }
                if ((long) end + length > names.length) {
                    names = Arrays.copyOf(names, (int) Math.min(Integer.MAX_VALUE - 8, Math.max((long) end + length, 2L * names.length)));
                }
                System.arraycopy(names, prevStart, names, end, shared);
                r.raw(names, end + shared, suffix);
                Arrays.fill(ends, next, k, end); // the anonymous entries since the previous name
                prevStart = end;
                prevLength = length;
                end += length;
                ends[k] = end;
                next = k + 1;
            }
            ei.restoreNames(key, names, Arrays.copyOf(ends, k + 1));
        } catch (CorruptionException e) {
            String page = "entities page " + key;
            throw e.getMessage() != null && e.getMessage().startsWith(page) ? e
                    : new CorruptionException(page + " (names section): " + e.getMessage(), e);
        }
    }
}
