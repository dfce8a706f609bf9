package dev.quiver.storage.format;

import dev.quiver.error.CorruptionException;
import dev.quiver.index.Ids;
import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;
import dev.quiver.storage.entity.EntityIndex;
import dev.quiver.storage.table.Column;
import dev.quiver.storage.table.Table;
import dev.quiver.storage.tx.Changes;

/**
 * Codec of table rows: the entities of a row range, then each column's fields over that range. A
 * {@code rows} page holds one chunk of {@code 1 << CHUNK_SHIFT} rows of a table with more than
 * {@link #INLINE_ROWS} rows; smaller tables keep their rows inline in their table page.
 */
final class RowPage {
    static final int CHUNK_SHIFT = Changes.ROW_CHUNK_SHIFT;
    /** A table of at most this many rows keeps its rows in its table page. */
    static final int INLINE_ROWS = 64;

    private RowPage() {}

    static long key(int table, int chunk) {
        return ((long) table << 20) | chunk;
    }

    /** Writes chunk {@code chunk} of {@code t}; false when the chunk has no rows or the table is inline. */
    static boolean write(Table t, int chunk, Bytes.Writer w) {
        if (t == null || t.count() <= INLINE_ROWS) {
            return false;
        }
        int from = chunk << CHUNK_SHIFT, to = Math.min(t.count(), from + (1 << CHUNK_SHIFT));
        if (from >= to) {
            return false;
        }
        w.i32(to - from);
        writeRows(w, t, from, to);
        return true;
    }

    /** Writes rows {@code [from, to)}: the entities, then each column's fields (see {@link #readRows}). */
    static void writeRows(Bytes.Writer w, Table t, int from, int to) {
        for (int r = from; r < to; r++) {
            w.i64(t.entity(r));
        }
        for (Column c : t.columns()) {
            Schema s = c.schema();
            for (int f = 0; f < s.size(); f++) {
                boolean str = s.field(f).type() == FieldType.STRING;
                for (int r = from; r < to; r++) {
                    if (str) {
                        w.str((String) c.value(f, r));
                    } else {
                        w.i64(c.word(f, r));
                    }
                }
            }
        }
    }

    /** Reads a chunk page and appends its rows to {@code t}. */
    static void read(EntityIndex ei, Table t, byte[] b) {
        Bytes.Reader r = new Bytes.Reader(b);
        readRows(ei, t, r, r.i32());
    }

    /** Reads past {@code n} rows into a table that is thrown away (no entity is placed). */
    static void skipRows(Table scratch, Bytes.Reader r, int n) {
        readRows(null, scratch, r, n);
    }

    /**
     * Appends {@code n} rows read from {@code r} to {@code t}, placing their entities in {@code ei}
     * (null: a scratch table, nothing placed or checked).
     */
    static void readRows(EntityIndex ei, Table t, Bytes.Reader r, int n) {
        if (n < 0 || n > (1 << CHUNK_SHIFT)) {
            throw new CorruptionException("table " + t.id() + " page holds " + n + " rows");
        }
        int base = t.count();
        for (int i = 0; i < n; i++) {
            long e = r.i64();
            int row = t.append(e);
            if (ei == null) {
                continue;
            }
            if (!ei.isAlive(e)) {
                throw new CorruptionException("table " + t.id() + " holds dead entity " + Ids.toHex(e));
            }
            ei.place(Ids.index(e), t.id(), row);
        }
        for (Column c : t.columns()) {
            Schema s = c.schema();
            for (int f = 0; f < s.size(); f++) {
                boolean str = s.field(f).type() == FieldType.STRING;
                for (int i = 0; i < n; i++) {
                    if (str) {
                        c.setString(f, base + i, r.str());
                    } else {
                        c.setWord(f, base + i, r.i64());
                    }
                }
            }
        }
    }
}
