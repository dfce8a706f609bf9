package dev.quiver.index;

import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongSet;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Predicate;

/**
 * The component index (Flecs v4 id records): for each id, the tables whose type holds it. Keys are
 * plain ids, pairs {@code (R, T)}, and the wildcard records {@code (R, *)} and {@code (*, T)} that
 * list every table holding a pair of R, or a pair with target T. A table appears at most once per
 * record. The table type is a parameter so that this module needs no storage class. Not
 * thread-safe.
 *
 * @param <T> the table type
 */
public final class IdRecords<T> {
    private final Long2ObjectOpenHashMap<ArrayList<T>> records = new Long2ObjectOpenHashMap<>();

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
        l.add(table);
        return created;
    }

    /** Replaces a whole record (loading). */
    public void put(long key, ArrayList<T> tables) {
        records.put(key, tables);
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
