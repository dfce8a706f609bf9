package dev.quiver.storage.format;

import dev.quiver.error.CorruptionException;
import dev.quiver.index.IdRecords;
import dev.quiver.index.Ids;
import dev.quiver.storage.table.Table;
import dev.quiver.storage.table.TableSet;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;

import java.util.ArrayList;
import java.util.Arrays;

/**
 * Codec of a {@code components} page: the component-index records filed under it. Records are
 * filed by the entity they name, 64 consecutive entity indices a page and one page family per
 * kind of key (plain id, {@code (R, T)} by T, {@code (R, *)} by R, {@code (*, T)} by T), so that
 * the tables a transaction adds for new entities touch pages of those entities, not every page.
 */
final class ComponentPage {
    static final int SHIFT = 6;

    private ComponentPage() {}

    /** The page a record key is filed under. */
    static long pageOf(long key) {
        if (!Ids.isPair(key)) {
            return Ids.index(key) >>> SHIFT;
        }
        int f = Ids.first(key), s = Ids.second(key);
        if (s == Ids.WILDCARD_INDEX) {
            return (2L << 40) | (f >>> SHIFT);
        }
        return (f == Ids.WILDCARD_INDEX ? 3L << 40 : 1L << 40) | (s >>> SHIFT);
    }

    /** Writes the records {@code keys} (filed under one page); false when there are none. */
    static boolean write(IdRecords<Table> records, LongOpenHashSet keys, Bytes.Writer w) {
        if (keys == null || keys.isEmpty()) {
            return false;
        }
        long[] sorted = keys.toLongArray();
        Arrays.sort(sorted);
        w.i32(sorted.length);
        for (long id : sorted) {
            var l = records.get(id);
            w.i64(id);
            w.i32(l.size());
            for (Table t : l) {
                w.i32(t.id());
            }
        }
        return true;
    }

    /** Reads a page into the component index; calls {@code filed} with each record key. */
    static void read(TableSet tables, byte[] b, java.util.function.LongConsumer filed) {
        read(tables, b, key -> true, filed);
    }

    /** Reads the records of a page that {@code wanted} accepts into the component index (replacing them). */
    static void read(TableSet tables, byte[] b, java.util.function.LongPredicate wanted,
                     java.util.function.LongConsumer filed) {
        Bytes.Reader r = new Bytes.Reader(b);
        int ids = r.i32();
        if (ids < 0 || ids > b.length / 12) {
            throw new CorruptionException("component page holds " + ids + " records");
        }
        for (int j = 0; j < ids; j++) {
            long id = r.i64();
            int n = r.i32();
            if (n < 0 || n > b.length / 4) {
                throw new CorruptionException("component record " + Ids.toHex(id) + " lists " + n + " tables");
            }
            boolean keep = wanted.test(id);
            var l = new ArrayList<Table>(keep ? n : 0);
            for (int i = 0; i < n; i++) {
                int tid = r.i32();
                if (!keep) {
                    continue;
                }
                Table t = tid >= 0 ? tables.get(tid) : null;
                if (t == null) {
                    throw new CorruptionException("component index names missing table " + tid);
                }
                l.add(t);
            }
            if (keep) {
                tables.records().put(id, l);
                filed.accept(id);
            }
        }
    }
}
