package dev.quiver.storage.table;

import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;

import dev.quiver.index.PagedArrays;

import java.util.Arrays;

/**
 * The forward half of non-fragmenting ("sparse") pair storage (FEATURES TRT-16, Flecs v4.1
 * DontFragment): for each sparse relationship R, the targets of R by source entity index. The
 * reverse index ({@code index.ReverseIndex}) is the other half; tables hold only the marker
 * {@code (R, *)}.
 *
 * <p>Layout per relationship: a paged {@code int[][]} ({@link PagedArrays}: growing copies no
 * full page) of the smallest target index by source entity index (0: none), so a lookup
 * {@code has(e, (R, T))} for a source with one target is two array reads; a source with several targets keeps the others, ascending, in an overflow map. Targets of
 * one source are returned ascending, which is the order pairs take in a type.
 *
 * <p>Changes made inside a transaction are logged so that a refused transaction can be undone
 * ({@link #undo}); {@link #commit} forgets the log. The store is not persisted by itself: it is
 * rebuilt from the reverse index when a world is loaded. Not thread-safe.
 */
public final class SparseStore {
    private static final int[] NONE = new int[0];
    private static final int SHIFT = PagedArrays.SHIFT, MASK = PagedArrays.MASK;

    private static final class Column {
        /** By source index: its smallest target index (0: none); {@link #capacity} sources fit. */
        int[][] first = new int[0][];
        int capacity;
        final Int2ObjectOpenHashMap<int[]> more = new Int2ObjectOpenHashMap<>();
        int holders;

        int get(int src) {
            return src < capacity ? first[src >>> SHIFT][src & MASK] : 0;
        }

        void set(int src, int tgt) {
            first[src >>> SHIFT][src & MASK] = tgt;
        }
    }

    private final Int2ObjectOpenHashMap<Column> byRel = new Int2ObjectOpenHashMap<>();
    /**
     * The column last asked for and its relationship index (-1: none): a run of lookups of one
     * relationship (RG-1's has-pair checks, a query's marker table) reads its column without
     * hashing. Columns are never removed from {@link #byRel} but by {@link #clear}, which resets it.
     */
    private int lastRel = -1;
    private Column lastColumn;
    /** Undo log: (added ? 1 : 0), rel, source, target per change of the open transaction. */
    private final IntArrayList log = new IntArrayList();

    /** The column of relationship index {@code rel}, or null when it never had a pair. */
    private Column column(int rel) {
        if (rel == lastRel) {
            return lastColumn;
        }
        Column c = byRel.get(rel);
        if (c != null) {
            lastRel = rel;
            lastColumn = c;
        }
        return c;
    }

    /** True when relationship index {@code rel} has some sparse pair. */
    public boolean inUse(int rel) {
        Column c = column(rel);
        return c != null && c.holders > 0;
    }

    /** The relationship indices that have sparse pairs. */
    public int[] relationships() {
        var out = new IntArrayList();
        for (var en : byRel.int2ObjectEntrySet()) {
            if (en.getValue().holders > 0) {
                out.add(en.getIntKey());
            }
        }
        int[] a = out.toIntArray();
        Arrays.sort(a);
        return a;
    }

    /** The smallest target index of {@code (rel, T)} on source {@code src}, or 0 when none. */
    public int first(int rel, int src) {
        Column c = column(rel);
        return c == null ? 0 : c.get(src);
    }

    /** True when source {@code src} holds {@code (rel, tgt)}. */
    public boolean has(int rel, int src, int tgt) {
        Column c = column(rel);
        return c != null && has(c, src, tgt);
    }

    /**
     * {@link #has} when {@code rel} is the relationship whose column was asked for last (a run of
     * checks of one relationship: no hashing), else false without looking: false says nothing.
     */
    public boolean hasInLastColumn(int rel, int src, int tgt) {
        return rel == lastRel && has(lastColumn, src, tgt);
    }

    private static boolean has(Column c, int src, int tgt) {
        int f = c.get(src);
        if (f == tgt) {
            return f != 0;
        }
        if (f == 0 || tgt < f) {
            return false;
        }
        int[] m = c.more.get(src);
        return m != null && Arrays.binarySearch(m, tgt) >= 0;
    }

    /**
     * The first targets of {@code (rel, T)} for many sources at once (a table's rows): for
     * {@code i} in {@code [0, n)}, {@code out[i]} is {@link #first} of the source
     * {@code sources[from + i]} (an entity id; its index is read), negated when that source has
     * more targets ({@link #more}); 0 when it has none.
     */
    public void firsts(int rel, long[] sources, int from, int n, int[] out) {
        Column c = column(rel);
        int[][] first = c == null ? new int[0][] : c.first;
        int capacity = c == null ? 0 : c.capacity;
        boolean overflow = c != null && !c.more.isEmpty();
        for (int i = 0; i < n; i++) {
            int src = dev.quiver.index.Ids.index(sources[from + i]);
            int f = src < capacity ? first[src >>> SHIFT][src & MASK] : 0;
            out[i] = f != 0 && overflow && c.more.containsKey(src) ? -f : f;
        }
    }

    /**
     * The targets of {@code (rel, T)} on source {@code src} after {@link #first}, ascending, or null
     * when it has at most one (no copy: do not modify).
     */
    public int[] more(int rel, int src) {
        Column c = column(rel);
        return c == null ? null : c.more.get(src);
    }

    /** The target indices of {@code (rel, T)} on source {@code src}, ascending (empty when none). */
    public int[] targets(int rel, int src) {
        Column c = column(rel);
        int f = c == null ? 0 : c.get(src);
        if (f == 0) {
            return NONE;
        }
        int[] m = c.more.get(src);
        if (m == null) {
            return new int[] {f};
        }
        int[] out = new int[m.length + 1];
        out[0] = f;
        System.arraycopy(m, 0, out, 1, m.length);
        return out;
    }

    /** Number of sparse pairs of every relationship. */
    public long pairCount() {
        long n = 0;
        for (Column c : byRel.values()) {
            for (int s = 0; s < c.capacity; s++) {
                if (c.first[s >>> SHIFT][s & MASK] != 0) {
                    int[] m = c.more.get(s);
                    n += m == null ? 1 : m.length + 1;
                }
            }
        }
        return n;
    }

    /** Number of targets of {@code rel} on {@code src}. */
    public int count(int rel, int src) {
        Column c = column(rel);
        if (c == null || c.get(src) == 0) {
            return 0;
        }
        int[] m = c.more.get(src);
        return m == null ? 1 : m.length + 1;
    }

    /** Adds {@code (rel, tgt)} to {@code src}; false when it was there. */
    public boolean add(int rel, int src, int tgt) {
        if (!put(rel, src, tgt)) {
            return false;
        }
        log.add(1);
        log.add(rel);
        log.add(src);
        log.add(tgt);
        return true;
    }

    /** Removes {@code (rel, tgt)} from {@code src}; false when it was not there. */
    public boolean remove(int rel, int src, int tgt) {
        if (!drop(rel, src, tgt)) {
            return false;
        }
        log.add(0);
        log.add(rel);
        log.add(src);
        log.add(tgt);
        return true;
    }

    private boolean put(int rel, int src, int tgt) {
        if (tgt == 0) {
            throw new IllegalArgumentException("target index 0");
        }
        Column c = byRel.computeIfAbsent(rel, k -> new Column());
        if (src >= c.capacity) {
            c.first = PagedArrays.grow(c.first, src + 1L); // copies no full page
            c.capacity = PagedArrays.capacity(c.first);
        }
        int f = c.get(src);
        if (f == 0) {
            c.set(src, tgt);
            c.holders++;
            return true;
        }
        if (f == tgt) {
            return false;
        }
        int[] m = c.more.get(src);
        int[] all = m == null ? new int[] {f} : concat(f, m);
        int pos = Arrays.binarySearch(all, tgt);
        if (pos >= 0) {
            return false;
        }
        pos = -pos - 1;
        int[] na = new int[all.length + 1];
        System.arraycopy(all, 0, na, 0, pos);
        na[pos] = tgt;
        System.arraycopy(all, pos, na, pos + 1, all.length - pos);
        c.set(src, na[0]);
        c.more.put(src, Arrays.copyOfRange(na, 1, na.length));
        return true;
    }

    private boolean drop(int rel, int src, int tgt) {
        Column c = column(rel);
        int f = c == null ? 0 : c.get(src);
        if (f == 0) {
            return false;
        }
        int[] m = c.more.isEmpty() ? null : c.more.get(src);
        if (m == null) { // one target: no array to rebuild
            if (f != tgt) {
                return false;
            }
            c.set(src, 0);
            c.holders--;
            return true;
        }
        int[] all = concat(f, m);
        int pos = Arrays.binarySearch(all, tgt);
        if (pos < 0) {
            return false;
        }
        if (all.length == 1) {
            c.set(src, 0);
            c.holders--;
            return true;
        }
        int[] na = new int[all.length - 1];
        System.arraycopy(all, 0, na, 0, pos);
        System.arraycopy(all, pos + 1, na, pos, na.length - pos);
        c.set(src, na[0]);
        if (na.length == 1) {
            c.more.remove(src);
        } else {
            c.more.put(src, Arrays.copyOfRange(na, 1, na.length));
        }
        return true;
    }

    private static int[] concat(int f, int[] m) {
        int[] all = new int[m.length + 1];
        all[0] = f;
        System.arraycopy(m, 0, all, 1, m.length);
        return all;
    }

    /** Calls {@code action(src, tgt)} for every pair of {@code rel}. */
    public void forEach(int rel, PairConsumer action) {
        Column c = column(rel);
        if (c == null) {
            return;
        }
        for (int s = 0; s < c.capacity; s++) {
            if (c.get(s) != 0) {
                for (int t : targets(rel, s)) {
                    action.accept(s, t);
                }
            }
        }
    }

    /** A consumer of (source index, target index). */
    @FunctionalInterface
    public interface PairConsumer {
        void accept(int source, int target);
    }

    /** Adds a pair while loading (not logged). */
    public void load(int rel, int src, int tgt) {
        put(rel, src, tgt);
    }

    /** The transaction committed: its changes stay. */
    public void commit() {
        log.clear();
    }

    /** The transaction was refused: undoes its changes, last first. */
    public void undo() {
        for (int i = log.size() - 4; i >= 0; i -= 4) {
            int rel = log.getInt(i + 1), src = log.getInt(i + 2), tgt = log.getInt(i + 3);
            if (log.getInt(i) == 1) {
                drop(rel, src, tgt);
            } else {
                put(rel, src, tgt);
            }
        }
        log.clear();
    }

    /** Empties the store (before a load). */
    public void clear() {
        byRel.clear();
        lastRel = -1;
        lastColumn = null;
        log.clear();
    }
}
