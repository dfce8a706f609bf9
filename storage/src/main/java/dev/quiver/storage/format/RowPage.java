package dev.quiver.storage.format;

import dev.quiver.error.CorruptionException;
import dev.quiver.index.Ids;
import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;
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
        w.varint(to - from);
        writeRows(w, t, from, to);
        return true;
    }

    /**
     * Writes rows {@code [from, to)}: per row its entity (zigzag index delta from the previous
     * row's, the first from 0, then varint generation), then each column's fields over the rows
     * (see {@link Words} for the number fields; a string field is one {@code vstr} per row).
     */
    static void writeRows(Bytes.Writer w, Table t, int from, int to) {
        long prev = 0;
        for (int r = from; r < to; r++) {
            long e = t.entity(r);
            w.zigzag(Ids.index(e) - prev);
            w.varint(Ids.generation(e));
            prev = Ids.index(e);
        }
        for (Column c : t.columns()) {
            Schema s = c.schema();
            for (int f = 0; f < s.size(); f++) {
                if (s.field(f).type() == FieldType.STRING) {
                    for (int r = from; r < to; r++) {
                        w.vstr((String) c.value(f, r));
                    }
                } else {
                    Words.write(w, c, f, from, to);
                }
            }
        }
    }

    /**
     * Reads chunk page {@code chunk} of {@code t} into its place, rows {@code [chunk << CHUNK_SHIFT,
     * + rows)} (a lazily read table, {@link Table#lazyRows}): the rows' entities, and with
     * {@code values} their columns' values too (then the whole page is checked; without, the
     * entities only, the values being checked when read).
     *
     * @throws CorruptionException when the page holds another number of rows or is malformed
     */
    static void readChunk(Table t, int chunk, int rows, byte[] b, boolean values) {
        Bytes.Reader r = new Bytes.Reader(b);
        int n = r.varint(1 << CHUNK_SHIFT);
        if (n != rows) {
            throw new CorruptionException("rows page of table " + t.id() + " chunk " + chunk + " holds " + n
                + " rows, its table page says " + rows);
        }
        decodeEntities(t, r, n, chunk << CHUNK_SHIFT);
        if (!values) {
            return;
        }
        decodeValues(t, r, n, chunk << CHUNK_SHIFT);
        if (r.remaining() != 0) {
            throw new CorruptionException("rows page of table " + t.id() + " holds " + r.remaining() + " bytes past its rows");
        }
    }

    /** Reads past {@code n} rows into a table that is thrown away. */
    static void skipRows(Table scratch, Bytes.Reader r, int n) {
        readRows(scratch, r, n);
    }

    /**
     * Appends {@code n} rows read from {@code r} to {@code t}. The entity index is not told: since
     * format 7 each entity page gives its entities' tables and rows (the checker verifies that
     * rows and entity pages agree).
     */
    static void readRows(Table t, Bytes.Reader r, int n) {
        if (n < 0 || n > (1 << CHUNK_SHIFT)) {
            throw new CorruptionException("table " + t.id() + " page holds " + n + " rows");
        }
        int base = t.count();
        for (int i = 0; i < n; i++) {
            t.append(0);
        }
        decodeRows(t, r, n, base);
    }

    /** Decodes {@code n} rows from {@code r} into rows {@code [base, base + n)} of {@code t}, which exist. */
    private static void decodeRows(Table t, Bytes.Reader r, int n, int base) {
        decodeEntities(t, r, n, base);
        decodeValues(t, r, n, base);
    }

    /** Decodes the entities of {@code n} rows from {@code r} into rows {@code [base, base + n)} of {@code t}. */
    private static void decodeEntities(Table t, Bytes.Reader r, int n, int base) {
        r.ensure(2L * n);
        long index = 0;
        for (int i = 0; i < n; i++) {
            index += r.zigzag();
            int gen = r.varint(Ids.MAX_GENERATION);
            if (index < 0 || index > Ids.INDEX_MASK) {
                throw new CorruptionException("table " + t.id() + " holds entity index " + index);
            }
            if (index == 0) {
                throw new CorruptionException("table " + t.id() + " holds entity index 0");
            }
            t.setEntityAt(base + i, Ids.entity((int) index, gen));
        }
    }

    /** Decodes the column values of {@code n} rows from {@code r} into rows {@code [base, base + n)} of {@code t}. */
    private static void decodeValues(Table t, Bytes.Reader r, int n, int base) {
        for (Column c : t.columnsInPlace()) {
            Schema s = c.schema();
            for (int f = 0; f < s.size(); f++) {
                if (s.field(f).type() == FieldType.STRING) {
                    for (int i = 0; i < n; i++) {
                        c.setString(f, base + i, r.vstr());
                    }
                } else {
                    Words.read(r, c, f, base, n);
                }
            }
        }
    }
}
