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
 * @param <T> the table type
 */
public final class IdRecords<T> {
    private final Long2ObjectOpenHashMap<ArrayList<T>> records = new Long2ObjectOpenHashMap<>();
    private final ToIntFunction<? super T> id;

    /** @param id a table's id (unique among tables; the order of each record) */
    public IdRecords(ToIntFunction<? super T> id) {
        this.id = id;
    }

    /** The tables of a record, or an empty list; do not modify, do not hold across mutations. */
    public List<T> get(long key) {
        ArrayList<T> l = records.get(key);
        return l == null ? Collections.emptyList() : l;
    }

    /** True when some table holds {@code key}. */
    public boolean contains(long key) {
        return records.containsKey(key);
    }

    /**
     * Adds a table to a record.
     *
     * @return true when the record is new (no table held the key before)
     */
    public boolean add(long key, T table) {
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
        records.remove(key);
    }

    /** Number of records. */
    public int size() {
        return records.size();
    }

    /** The keys of every record; do not modify. */
    public LongSet keys() {
        return records.keySet();
    }

    /** Drops every record. */
    public void clear() {
        records.clear();
    }
}
