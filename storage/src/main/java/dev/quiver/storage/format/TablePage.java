package dev.quiver.storage.format;

import dev.quiver.error.CorruptionException;
import dev.quiver.index.Ids;
import dev.quiver.storage.Schema;
import dev.quiver.storage.table.Column;
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

    /** Writes group {@code group}; false when no table of the group is alive (page removed). */
    static boolean write(TableSet tables, long group, Bytes.Writer w) {
        int n = 0;
        w.i32(0); // the table count, patched below
        int from = (int) group << GROUP_SHIFT, to = Math.min(tables.size(), from + (1 << GROUP_SHIFT));
        for (int id = from; id < to; id++) {
            Table t = tables.get(id);
            if (t == null) {
                continue;
            }
            n++;
            w.i32(t.id());
            w.i32(t.type().length);
            for (long x : t.type()) {
                w.i64(x);
            }
            w.i32(t.columns().length);
            for (Column c : t.columns()) {
                w.i64(c.id());
            }
            if (t.count() > RowPage.INLINE_ROWS) {
                w.i32(-1);
            } else {
                w.i32(t.count());
                RowPage.writeRows(w, t, 0, t.count());
            }
        }
        if (n == 0) {
            return false;
        }
        w.patchI32(0, n);
        return true;
    }

    /** Reads a group page: creates its tables; those whose rows are in row pages go to {@code chunked}. */
    static void read(WorldParts p, byte[] b, IntOpenHashSet chunked) {
        read(p, b, chunked, id -> true, id -> null);
    }

    /**
     * Reads the tables of a group page that {@code wanted} accepts (the others are parsed and
     * skipped). A wanted table whose {@code reuse} object has the same type is refilled in place, so
     * that component-index records holding it stay valid; otherwise a new table is placed.
     */
    static void read(WorldParts p, byte[] b, IntOpenHashSet chunked, java.util.function.IntPredicate wanted,
                     java.util.function.IntFunction<Table> reuse) {
        Bytes.Reader r = new Bytes.Reader(b);
        int n = r.i32();
        if (n < 0 || n > (1 << GROUP_SHIFT)) {
            throw new CorruptionException("table page holds " + n + " tables");
        }
        for (int j = 0; j < n; j++) {
            int id = r.i32();
            int len = r.i32();
            if (len < 0 || len > b.length / 8) {
                throw new CorruptionException("table " + id + " has a type of " + len + " ids");
            }
            long[] type = new long[len];
            for (int i = 0; i < type.length; i++) {
                type[i] = r.i64();
            }
            int nc = r.i32();
            if (nc < 0 || nc > len) {
                throw new CorruptionException("table " + id + " has " + nc + " columns for " + len + " ids");
            }
            long[] colIds = new long[nc];
            Schema[] colSchemas = new Schema[nc];
            for (int i = 0; i < nc; i++) {
                colIds[i] = r.i64();
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
            int rows = r.i32();
            if (rows < 0) {
                if (keep) {
                    chunked.add(id);
                }
            } else if (keep) {
                RowPage.readRows(p.entities(), t, r, rows);
            } else {
                RowPage.skipRows(t, r, rows);
            }
        }
    }
}
