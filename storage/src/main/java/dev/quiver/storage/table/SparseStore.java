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
 * <p>Persisted (page format 13) as {@code sparse} pages, one per relationship and block of
 * {@value #BLOCK} source indices ({@code format.SparsePage}). A world read from pages makes the
 * columns of the relationships in use lazy ({@link #lazy}): a block's page
 * is read the first time one of its sources is asked about (or changed), so a first sparse check
 * after an open reads one page, not the world; blocks read stay in memory (an {@code int} per
 * source, like the entity index's flat arrays).
 *
 * <p>Changes made inside a transaction are logged so that a refused transaction can be undone
 * ({@link #undo}) and so that a commit knows the pages it changed ({@link #forEachChangedBlock});
 * {@link #commit} forgets the log. Not thread-safe.
 */
public final class SparseStore {
    private static final int[] NONE = new int[0];
    private static final long[] NO_BITS = new long[0];
    private static final int SHIFT = PagedArrays.SHIFT, MASK = PagedArrays.MASK;
    /** log2 of the source indices of one persisted block ({@code sparse} page). */
    public static final int BLOCK_SHIFT = 10;
    /** Source indices of one persisted block. */
    public static final int BLOCK = 1 << BLOCK_SHIFT;

    /** Reads committed forward pages into a store. */
    @FunctionalInterface
    public interface BlockReader {
        /**
         * Reads the committed page of relationship index {@code rel} and source block {@code block}
         * into the store through {@link SparseStore#load}; nothing when there is no such page.
         *
         * @return true when the page exists (it was read)
         */
        boolean read(int rel, int block);
    }

    /** Where lazy columns read their blocks (null: the store was built in memory, nothing to read). */
    private BlockReader reader;
    /** Blocks (of {@link #BLOCK} sources) that committed pages may hold: those below the committed next entity index. */
    private int committedBlocks;
    /** Pages read since the store was made lazy. */
    private long blocksRead;

    private final class Column {
        final int rel;
        /** By source index: its smallest target index (0: none); {@link #capacity} sources fit. */
        int[][] first = new int[0][];
        int capacity;
        final Int2ObjectOpenHashMap<int[]> more = new Int2ObjectOpenHashMap<>();
        /**
         * Sources with a target. A lazy column starts from the count its relationship's marker
         * tables give ({@link #lazy}), and reading a page does not count its sources again.
         */
        int holders;
        /** One bit per block whose committed page is not read yet; blocks from {@link #unreadLimit} on are read. */
        long[] unread = NO_BITS;
        /** 0 once every block is read: a lookup then tests one bound. */
        int unreadLimit;
        int unreadCount;

        Column(int rel) {
            this.rel = rel;
        }

        int get(int src) {
            int b = src >>> BLOCK_SHIFT;
            if (isUnread(b)) {
                read(b);
            }
            return src < capacity ? first[src >>> SHIFT][src & MASK] : 0;
        }

        /** True when block {@code b}'s committed page is still to be read. */
        boolean isUnread(int b) {
            return b < unreadLimit && (unread[b >>> 6] & (1L << b)) != 0;
        }

        /** Reads block {@code b}'s committed page (its bit is set). */
        void read(int b) {
            unread[b >>> 6] &= ~(1L << b); // first: loading the page's pairs looks its sources up
            if (--unreadCount == 0) {
                unreadLimit = 0;
            }
            int counted = holders;
            try {
                if (reader.read(rel, b)) {
                    blocksRead++;
                }
            } catch (RuntimeException | Error e) {
                unread[b >>> 6] |= 1L << b; // read again (and fail again) rather than answer from part of it
                unreadCount++;
                unreadLimit = committedBlocks;
                throw e;
            } finally {
                holders = counted; // the page's sources were counted by the markers
            }
        }

        /** Reads every block not read yet. */
        void readAll() {
            for (int b = 0; b < unreadLimit; b++) {
                if (isUnread(b)) {
                    read(b);
                }
            }
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

    /** The sources holding a pair of relationship index {@code rel} (nothing is read to say so). */
    public int holders(int rel) {
        Column c = column(rel);
        return c == null ? 0 : c.holders;
    }

    /** True when relationship index {@code rel} has some sparse pair (nothing is read to say so). */
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
        if (c != null && c.unreadLimit > 0) {
            for (int i = 0; i < n; i++) {
                c.get(dev.quiver.index.Ids.index(sources[from + i])); // reads the blocks not read yet
            }
            first = c.first;
            capacity = c.capacity;
        }
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
        return c == null || c.get(src) == 0 ? null : c.more.get(src);
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

    /** Number of sparse pairs of every relationship (reads every block not read yet). */
    public long pairCount() {
        long n = 0;
        for (Column c : byRel.values()) {
            c.readAll();
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
        Column c = column(rel);
        if (c == null) {
            c = new Column(rel);
            byRel.put(rel, c);
        }
        int f = c.get(src); // reads its block first when not read yet
        if (src >= c.capacity) {
            c.first = PagedArrays.grow(c.first, src + 1L); // copies no full page
            c.capacity = PagedArrays.capacity(c.first);
        }
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

    /** Calls {@code action(src, tgt)} for every pair of {@code rel} (reads every block not read yet). */
    public void forEach(int rel, PairConsumer action) {
        Column c = column(rel);
        if (c == null) {
            return;
        }
        c.readAll();
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

    /** Adds a pair while reading a page (not logged: the page holds it). */
    public void load(int rel, int src, int tgt) {
        put(rel, src, tgt);
    }

    // ------------------------------------------------------------------ persistence

    /**
     * Makes the (cleared) store read committed pages through {@code reader}: each relationship of
     * {@code rels} (those whose pairs committed pages may hold: the relationships whose marker some
     * non-empty table holds) gets a column whose blocks below {@code nextIndex} (the committed next
     * entity index) are read when first touched, and {@code holders[k]} holders (sources with a
     * target) for {@code rels[k]}: the rows of the tables holding its marker, each of which holds
     * a pair of it (the checker's rule), so that whether a relationship is in use is known
     * without reading a page.
     */
    public void lazy(BlockReader reader, int nextIndex, int[] rels, int[] holders) {
        this.reader = reader;
        this.committedBlocks = (int) ((nextIndex + (long) BLOCK - 1) >>> BLOCK_SHIFT);
        this.blocksRead = 0;
        for (int k = 0; k < rels.length; k++) {
            int rel = rels[k];
            Column c = new Column(rel);
            c.holders = holders[k];
            c.unread = new long[(committedBlocks + 63) >>> 6];
            for (int b = 0; b < committedBlocks; b++) {
                c.unread[b >>> 6] |= 1L << b;
            }
            c.unreadLimit = committedBlocks;
            c.unreadCount = committedBlocks;
            byRel.put(rel, c);
        }
        lastRel = -1;
        lastColumn = null;
    }

    /** Reads every block not read yet, of every relationship (the checker, snapshots, a whole-state read). */
    public void readAll() {
        for (Column c : byRel.values()) {
            c.readAll();
        }
    }

    /** Pages read since the store was made lazy ({@link #lazy}); a block without a page counts none. */
    public long blocksRead() {
        return blocksRead;
    }

    /** A (relationship index, block) pair. */
    @FunctionalInterface
    public interface BlockConsumer {
        void accept(int rel, int block);
    }

    /**
     * Calls {@code action} for each (relationship, block) the open transaction changed, at least
     * once each (a run of changes in one block once): the pages its commit rewrites.
     */
    public void forEachChangedBlock(BlockConsumer action) {
        int lastR = -1, lastB = -1;
        for (int i = 0; i + 3 < log.size(); i += 4) {
            int rel = log.getInt(i + 1), b = log.getInt(i + 2) >>> BLOCK_SHIFT;
            if (rel != lastR || b != lastB) {
                action.accept(rel, b);
                lastR = rel;
                lastB = b;
            }
        }
    }

    /**
     * The first targets of the {@link #BLOCK} sources of block {@code block} of {@code rel} (its
     * page read first when not read yet): {@code out[i]} is {@link #first} of source
     * {@code block * BLOCK + i}, 0 when none.
     *
     * @return the number of sources of the block holding a target
     */
    public int blockFirsts(int rel, int block, int[] out) {
        Column c = column(rel);
        int from = block << BLOCK_SHIFT;
        if (c != null) {
            c.get(from); // reads the block's page when not read yet
        }
        int len = c == null ? 0 : Math.max(0, Math.min(BLOCK, c.capacity - from));
        if (len > 0) { // a block lies within one page of the paged array
            System.arraycopy(c.first[from >>> SHIFT], from & MASK, out, 0, len);
        }
        Arrays.fill(out, len, BLOCK, 0);
        int n = 0;
        for (int i = 0; i < len; i++) {
            if (out[i] != 0) {
                n++;
            }
        }
        return n;
    }

    /** The blocks of {@code rel} where some source holds a target, ascending (every block read first). */
    public int[] heldBlocks(int rel) {
        return heldBlocks(rel, true);
    }

    /**
     * The blocks of {@code rel} where some source holds a target, ascending: every block, read
     * first when {@code readFirst}, else only among those in memory (read, or never to be read).
     */
    public int[] heldBlocks(int rel, boolean readFirst) {
        Column c = column(rel);
        if (c == null) {
            return NONE;
        }
        if (readFirst) {
            c.readAll();
        }
        var out = new IntArrayList();
        for (int s = 0; s < c.capacity; s++) {
            int b = s >>> BLOCK_SHIFT;
            if (c.isUnread(b)) {
                s = (b + 1 << BLOCK_SHIFT) - 1; // not read: the next block
                continue;
            }
            if (c.first[s >>> SHIFT][s & MASK] != 0) {
                out.add(s >>> BLOCK_SHIFT);
                s = ((s >>> BLOCK_SHIFT) + 1 << BLOCK_SHIFT) - 1; // the next block
            }
        }
        return out.toIntArray();
    }

    /**
     * True when block {@code block} of {@code rel} is still to be read from its committed page
     * (a lazy column's block no source of which was asked about or changed yet).
     */
    public boolean unread(int rel, int block) {
        Column c = column(rel);
        return c != null && c.isUnread(block);
    }

    /** The relationship indices with a column (pairs now, or pairs once: a page may be due), ascending. */
    public int[] columns() {
        int[] a = byRel.keySet().toIntArray();
        Arrays.sort(a);
        return a;
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

    /** Empties the store (before a load); it reads no pages until {@link #lazy}. */
    public void clear() {
        reader = null;
        committedBlocks = 0;
        byRel.clear();
        lastRel = -1;
        lastColumn = null;
        log.clear();
    }
}
