package dev.quiver.index;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;

import java.util.Arrays;

/**
 * The in-memory reverse relationship index (Tecs reverse index; Flecs v4 keeps the same
 * information in its id records): for each target entity index, the entries
 * {@code (relationship index << 32) | source index} of the pairs {@code (relationship, target)}
 * that sources own.
 *
 * <p>Lists are held in an array indexed by the target's entity index (entity indices are dense),
 * so a transitive walk costs one array read per step rather than a hash probe. Entries of one
 * list are in no particular order (removal swaps the last entry in). Not thread-safe.
 */
public final class ReverseIndex {
    private LongArrayList[] lists = new LongArrayList[1024];
    private int targets;

    /** Forgets every entry (before a reload). */
    public void clear() {
        lists = new LongArrayList[1024];
        targets = 0;
    }

    /** The entries pointing at {@code target}, or null when none. Do not modify. */
    public LongArrayList get(int target) {
        return target < lists.length ? lists[target] : null;
    }

    /** True when some pair points at {@code target}. */
    public boolean contains(int target) {
        return get(target) != null;
    }

    /** Adds one entry. */
    public void add(int target, long entry) {
        if (target >= lists.length) {
            lists = Arrays.copyOf(lists, Math.max(target + 1, lists.length * 2));
        }
        LongArrayList l = lists[target];
        if (l == null) {
            l = new LongArrayList(2);
            lists[target] = l;
            targets++;
        }
        l.add(entry);
    }

    /** Removes one occurrence of an entry; a list left empty is dropped. */
    public void remove(int target, long entry) {
        LongArrayList l = get(target);
        if (l == null) {
            return;
        }
        int p = l.lastIndexOf(entry);
        if (p >= 0) {
            l.set(p, l.getLong(l.size() - 1));
            l.removeLong(l.size() - 1);
        }
        if (l.isEmpty()) {
            lists[target] = null;
            targets--;
        }
    }

    /** Drops every entry pointing at {@code target}; true when there were some. */
    public boolean removeAll(int target) {
        if (get(target) == null) {
            return false;
        }
        lists[target] = null;
        targets--;
        return true;
    }

    /** Replaces the entries of {@code target} (loading). */
    public void put(int target, LongArrayList entries) {
        if (target >= lists.length) {
            lists = Arrays.copyOf(lists, Math.max(target + 1, lists.length * 2));
        }
        if (lists[target] == null) {
            targets++;
        }
        lists[target] = entries;
    }

    /**
     * Calls {@code action} with the source index of every entry of {@code target} whose
     * relationship index is {@code relationship}, or of every entry when {@code relationship} is
     * negative.
     */
    public void forEachSource(int target, int relationship, java.util.function.IntConsumer action) {
        LongArrayList l = get(target);
        if (l == null) {
            return;
        }
        long[] a = l.elements();
        for (int i = 0, n = l.size(); i < n; i++) {
            long en = a[i];
            if (relationship < 0 || (int) (en >>> 32) == relationship) {
                action.accept((int) en);
            }
        }
    }

    /** Number of targets with at least one entry. */
    public int targetCount() {
        return targets;
    }

    /** The targets with at least one entry, in index order. */
    public IntArrayList targets() {
        IntArrayList out = new IntArrayList(targets);
        for (int i = 0; i < lists.length; i++) {
            if (lists[i] != null) {
                out.add(i);
            }
        }
        return out;
    }
}
