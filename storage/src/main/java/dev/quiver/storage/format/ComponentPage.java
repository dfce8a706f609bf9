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

    /**
     * Writes the records {@code keys} (filed under one page); false when there are none. Layout:
     * varint n records in ascending (signed) id order, each: the id (the first in the id encoding
     * of {@link Bytes}, the others as the varint of their difference from the previous id, at
     * least 1), varint k, k table ids each as the zigzag of its difference from the previous one
     * (the first from 0).
     */
    static boolean write(IdRecords<Table> records, LongOpenHashSet keys, Bytes.Writer w) {
        if (keys == null || keys.isEmpty()) {
            return false;
        }
        long[] sorted = keys.toLongArray();
        Arrays.sort(sorted);
        w.varint(sorted.length);
        for (int j = 0; j < sorted.length; j++) {
            long id = sorted[j];
            var l = records.get(id);
            if (j == 0) {
                w.id(id);
            } else {
                w.varint(id - sorted[j - 1]);
            }
            w.varint(l.size());
            long prev = 0;
            for (Table t : l) {
                w.zigzag(t.id() - prev);
                prev = t.id();
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
        int ids = r.vcount(3);
        long id = 0;
        for (int j = 0; j < ids; j++) {
            if (j == 0) {
                id = r.id();
            } else {
                long next = id + r.varint();
                if (next <= id) {
                    throw new CorruptionException("component page lists record " + Ids.toHex(next) + " after " + Ids.toHex(id));
                }
                id = next;
            }
            int n = r.vcount(1);
            boolean keep = wanted.test(id);
            var l = new ArrayList<Table>(keep ? n : 0);
            long tid = 0;
            for (int i = 0; i < n; i++) {
                tid += r.zigzag();
                if (!keep) {
                    continue;
                }
                Table t = tid >= 0 && tid < tables.size() ? tables.get((int) tid) : null;
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
        if (r.remaining() != 0) {
            throw new CorruptionException("component page holds " + r.remaining() + " bytes past its records");
        }
    }
}
