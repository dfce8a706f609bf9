package dev.quiver.storage.format;

import dev.quiver.error.CorruptionException;
import dev.quiver.index.Ids;
import dev.quiver.storage.Schema;
import dev.quiver.storage.table.Table;
import dev.quiver.storage.table.TableSet;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;

/**
 * Codec of a {@code tables} page: the tables whose ids share {@code id >>> GROUP_SHIFT}, each with
 * its type, column ids and (up to {@link RowPage#INLINE_ROWS} rows) its rows.
 */
final class TablePage {
    static final int GROUP_SHIFT = 6;

    private TablePage() {}

    /**
     * Writes group {@code group}; false when no table of the group is alive (page removed). Layout:
     * varint n tables, each: varint id gap (id minus the previous table's id minus 1, the first
     * as it is), varint type length, the type's ids (id encoding of
     * {@link Bytes}), varint column count, per column varint 1 + its position in the type (or 0
     * and the id when it is not in the type), varint rows + 1 then the rows inline
     * ({@link RowPage#writeRows}), or 0 when the rows are in row pages, then (format 7) varint
     * rows (more than {@link RowPage#INLINE_ROWS}), so that the row count is known before any row
     * page is read.
     */
    static boolean write(TableSet tables, long group, Bytes.Writer w) {
        int from = (int) group << GROUP_SHIFT, to = Math.min(tables.size(), from + (1 << GROUP_SHIFT));
        int n = 0;
        for (int id = from; id < to; id++) {
            if (tables.get(id) != null) {
                n++;
            }
        }
        if (n == 0) {
            return false;
        }
        w.varint(n);
        int prev = -1;
        for (int id = from; id < to; id++) {
            Table t = tables.get(id);
            if (t == null) {
                continue;
            }
            w.varint(id - prev - 1);
            prev = id;
            long[] type = t.type();
            w.varint(type.length);
            for (long x : type) {
                w.id(x);
            }
            long[] colIds = t.columnIds(); // not columns(): that would read the rows of a lazy table
            w.varint(colIds.length);
            for (long cid : colIds) {
                int at = t.indexOf(cid);
                if (at >= 0 && at < type.length && type[at] == cid) {
                    w.varint(at + 1L);
                } else {
                    w.varint(0);
                    w.id(cid);
                }
            }
            if (t.count() > RowPage.INLINE_ROWS) {
                w.varint(0);
                w.varint(t.count());
            } else {
                w.varint(t.count() + 1L);
                RowPage.writeRows(w, t, 0, t.count());
            }
        }
        return true;
    }

    /** What to do with a table whose rows are in row pages: {@code count} rows. */
    interface ChunkedRows {
        void rows(Table t, int count);
    }

    /**
     * Reads a group page: creates its tables; those whose rows are in row pages go to
     * {@code chunked} and to {@code rows} (which makes them read their rows when touched).
     */
    static void read(WorldParts p, byte[] b, IntOpenHashSet chunked, ChunkedRows rows) {
        read(p, b, chunked, rows, id -> true, id -> null);
    }

    /**
     * Reads the tables of a group page that {@code wanted} accepts (the others are parsed and
     * skipped). A wanted table whose {@code reuse} object has the same type is refilled in place, so
     * that component-index records holding it stay valid; otherwise a new table is placed.
     */
    static void read(WorldParts p, byte[] b, IntOpenHashSet chunked, ChunkedRows chunkedRows,
                     java.util.function.IntPredicate wanted, java.util.function.IntFunction<Table> reuse) {
        Bytes.Reader r = new Bytes.Reader(b);
        int n = r.varint(1 << GROUP_SHIFT);
        int id = -1;
        for (int j = 0; j < n; j++) {
            id = j == 0 ? r.varint(Integer.MAX_VALUE) : id + 1 + r.varint(1 << GROUP_SHIFT);
            int len = r.vcount(2);
            long[] type = new long[len];
            for (int i = 0; i < type.length; i++) {
                type[i] = r.id();
            }
            int nc = r.varint(len);
            long[] colIds = new long[nc];
            Schema[] colSchemas = new Schema[nc];
            for (int i = 0; i < nc; i++) {
                int at = r.varint(len);
                colIds[i] = at > 0 ? type[at - 1] : r.id();
                colSchemas[i] = p.schemas().dataOf(colIds[i]);
                if (colSchemas[i] == null) {
                    throw new CorruptionException("table column " + Ids.toHex(colIds[i]) + " has no schema");
                }
            }
            boolean keep = wanted.test(id);
            Table t;
            if (!keep) {
                t = new Table(id, type, colIds, colSchemas); // parsed to skip its rows
            } else {
                if (id < 0 || id >= p.tables().size() || p.tables().get(id) != null) {
                    throw new CorruptionException("table id " + id + " out of range or twice");
                }
                Table old = reuse.apply(id);
                if (old != null && java.util.Arrays.equals(old.type(), type)) {
                    old.truncate();
                    t = old;
                } else {
                    t = new Table(id, type, colIds, colSchemas);
                }
                p.tables().restore(t);
            }
            int rows = r.varint(RowPage.INLINE_ROWS + 1) - 1;
            if (rows < 0) {
                int count = r.varint(Integer.MAX_VALUE);
                if (count <= RowPage.INLINE_ROWS) {
                    throw new CorruptionException("table " + id + " keeps " + count + " rows in row pages (more than "
                            + RowPage.INLINE_ROWS + " only)");
                }
                if (keep) {
                    chunked.add(id);
                    chunkedRows.rows(t, count);
                }
            } else if (keep) {
                RowPage.readRows(t, r, rows);
            } else {
                RowPage.skipRows(t, r, rows);
            }
        }
        if (r.remaining() != 0) {
            throw new CorruptionException("table page holds " + r.remaining() + " bytes past its tables");
        }
    }
}
