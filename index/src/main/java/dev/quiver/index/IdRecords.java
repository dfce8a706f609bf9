package dev.quiver.index;

import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongSet;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

/**
 * The component index (Flecs v4 id records): for each id, the tables whose type holds it. Keys are
 * plain ids, pairs {@code (R, T)}, and the wildcard records {@code (R, *)} and {@code (*, T)} that
 * list every table holding a pair of R, or a pair with target T. A table appears at most once per
 * record, and a record lists its tables in ascending table id, so that the order (which queries
 * walk) depends only on the tables, never on the history that made them: the index is a pure
 * function of the table types, rebuilt from them when a world is read. Adding a table with the
 * highest id so far (the common case) appends. The table type is a parameter so that this module
 * needs no storage class. Not thread-safe.
 *
 * <p><b>Built when read.</b> After {@link #rebuildFrom} (a world was read) nothing is built: the
 * first reads of a key scan the tables for it alone (a reader that runs one query touches a few
 * keys), and after {@link #LAZY_KEYS} such keys, or at the first change, {@link #keys()} or
 * {@link #size()}, the whole index is built in one pass ({@link #build()}). Either way every read sees exactly what a
 * whole build gives.
 *
 * @param <T> the table type
 */
public final class IdRecords<T> {
    /** Keys built one at a time by a table scan before the whole index is built. */
    public static final int LAZY_KEYS = 16;
    /** Marks a key a scan found in no table (while the index is not built whole). */
    private static final ArrayList<Object> ABSENT = new ArrayList<>(0);

    private final Long2ObjectOpenHashMap<ArrayList<T>> records = new Long2ObjectOpenHashMap<>();
    private final ToIntFunction<? super T> id;
    /** The tables to build from while the index is not built whole; null once it is. */
    private TableSource<T> source;
    private int scannedKeys;

    /**
     * The tables a lazily built index reads: in ascending id, with the records each files under.
     *
     * @param <T> the table type
     */
    public interface TableSource<T> {
        /** One past the highest table id. */
        int size();

        /** The table of id {@code id}, or null for a free id. */
        T get(int id);

        /** True when {@code table} files under record {@code key}. */
        boolean holds(T table, long key);

        /** Writes the record keys of {@code table} into {@code out} (grown as needed), returns how many. */
        int keys(T table, long[][] out);
    }

    /** @param id a table's id (unique among tables; the order of each record) */
    public IdRecords(ToIntFunction<? super T> id) {
        this.id = id;
    }

    /** Forgets every record; they are built from {@code tables} when first read. */
    public void rebuildFrom(TableSource<T> tables) {
        records.clear();
        source = tables;
        scannedKeys = 0;
    }

    /** The record of {@code key} as the whole index has it: null when no table holds it. */
    @SuppressWarnings("unchecked")
    private ArrayList<T> record(long key) {
        ArrayList<T> l = records.get(key);
        if (source == null) {
            return l;
        }
        if (l == null) {
            if (++scannedKeys > LAZY_KEYS) {
                build();
                return records.get(key);
            }
            l = new ArrayList<>();
            for (int i = 0, n = source.size(); i < n; i++) {
                T t = source.get(i);
                if (t != null && source.holds(t, key)) {
                    l.add(t);
                }
            }
            records.put(key, l.isEmpty() ? (ArrayList<T>) (ArrayList<?>) ABSENT : l);
        }
        return l == ABSENT || l.isEmpty() ? null : l;
    }

    /**
     * Builds the whole index now, from the tables as they are. The owner calls it before it changes
     * the set of tables, so that a later build cannot see a table twice or miss one.
     */
    public void build() {
        TableSource<T> src = source;
        if (src == null) {
            return;
        }
        source = null;
        records.clear();
        long[][] buf = {new long[64]};
        for (int id = 0, size = src.size(); id < size; id++) {
            T t = src.get(id);
            if (t == null) {
                continue;
            }
            for (int i = 0, n = src.keys(t, buf); i < n; i++) {
                add(buf[0][i], t);
            }
        }
    }

    /** The tables of a record, or an empty list; do not modify, do not hold across mutations. */
    public List<T> get(long key) {
        ArrayList<T> l = record(key);
        return l == null ? Collections.emptyList() : l;
    }

    /** True when some table holds {@code key}. */
    public boolean contains(long key) {
        return record(key) != null;
    }

    /**
     * Adds a table to a record.
     *
     * @return true when the record is new (no table held the key before)
     */
    public boolean add(long key, T table) {
        build();
        ArrayList<T> l = records.get(key);
        boolean created = l == null;
        if (created) {
            l = new ArrayList<>(2);
            records.put(key, l);
        }
        int tid = id.applyAsInt(table);
        if (l.isEmpty() || id.applyAsInt(l.get(l.size() - 1)) < tid) {
            l.add(table);
        } else {
            int at = find(l, tid);
            if (at >= 0) {
                throw new IllegalStateException("table " + tid + " is in record " + Ids.toHex(key) + " twice");
            }
            l.add(-at - 1, table);
        }
        return created;
    }

    /**
     * Removes one table from a record (found by its id: a binary search).
     *
     * @return true when the record is gone afterwards
     */
    public boolean remove(long key, T table) {
        build();
        ArrayList<T> l = records.get(key);
        if (l == null) {
            return false;
        }
        int at = find(l, id.applyAsInt(table));
        if (at >= 0) {
            l.remove(at);
        }
        if (l.isEmpty()) {
            records.remove(key);
            return true;
        }
        return false;
    }

    /** Position of table id {@code tid} in {@code l}, or {@code -(insertion point) - 1}. */
    private int find(ArrayList<T> l, int tid) {
        int lo = 0, hi = l.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int m = id.applyAsInt(l.get(mid));
            if (m < tid) {
                lo = mid + 1;
            } else if (m > tid) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -(lo + 1);
    }

    /**
     * Removes the tables of a record that match {@code drop}.
     *
     * @return true when the record is gone afterwards (no table holds the key any more)
     */
    public boolean removeIf(long key, Predicate<? super T> drop) {
        build();
        ArrayList<T> l = records.get(key);
        if (l == null) {
            return false;
        }
        l.removeIf(drop);
        if (l.isEmpty()) {
            records.remove(key);
            return true;
        }
        return false;
    }

    /** Drops a whole record. */
    public void remove(long key) {
        build();
        records.remove(key);
    }

    /** Number of records. */
    public int size() {
        build();
        return records.size();
    }

    /** The keys of every record; do not modify. */
    public LongSet keys() {
        build();
        return records.keySet();
    }

    /** Drops every record (an empty index, built). */
    public void clear() {
        records.clear();
        source = null;
    }
}
