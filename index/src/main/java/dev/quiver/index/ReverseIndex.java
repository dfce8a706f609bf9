package dev.quiver.index;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;

import java.util.Arrays;
import java.util.function.IntConsumer;

/**
 * The in-memory reverse relationship index (Tecs reverse index; Flecs v4 keeps the same
 * information in its id records): for each target entity index, the entries
 * {@code (relationship index << 32) | source index} of the pairs {@code (relationship, target)}
 * that sources own.
 *
 * <p>Lists are held in slices of {@value #SLICE} consecutive targets, indexed by the target's
 * entity index (entity indices are dense), so a transitive walk costs two array reads per step
 * rather than a hash probe. A slice exists once one of its targets has had a list: memory follows
 * the targets used, and no array of every target is grown and copied as the targets touched climb
 * (a lazily read index reads its blocks in the order a walk visits them; a single array doubled
 * its way to the highest target read, about 3 MB of copies in RG-1's first query after a reopen).
 * Entries of one list are in no particular order (removal swaps the last entry in).
 *
 * <p><b>Lazy blocks.</b> After {@link #lazy}, targets are grouped in blocks of {@code 1 << shift}
 * consecutive indices (a stored world keeps one page per block) and a block's lists are read (the
 * loader calls {@link #put}) the first time any method touches one of its targets, so opening a
 * world reads no list and memory follows the targets used. {@link #unload} forgets a block (it is
 * read again on next touch: how a refused transaction is undone); {@link LazyBlocks#eager} ends laziness once
 * every block is in memory. A reader may bound the blocks kept ({@link #budget}): past it, the
 * blocks read longest ago are forgotten (first in, first out), so memory follows the working set;
 * a list already returned stays valid for its holder. Every method keeps its meaning either way.
 * Not thread-safe.
 */
public final class ReverseIndex {
    /** Targets per slice. */
    static final int SLICE = 1024;
    private static final int SLICE_SHIFT = 10;
    /** The lists by target: {@code slices[t >>> SLICE_SHIFT][t & (SLICE - 1)]}; a null slice holds no list. */
    private LongArrayList[][] slices = new LongArrayList[16][];
    private int targets;
    /** Which blocks are in memory when lazy; {@link #put} fills a block its loader reads. */
    private final LazyBlocks blocks = new LazyBlocks("ReverseIndex", this::forgetBlock);
    private int shift;
    /** What the blocks not in memory may hold, or null: every block may hold every relationship. */
    private BlockFilter filter;
    /** Lookups of one relationship's sources answered by {@link #filter} without reading a block. */
    private long lookupsSkipped;

    /**
     * What a lazily read block holds, known without reading it (a stored world keeps a summary of
     * each block's relationships): a lookup of one relationship's sources in a block that is not in
     * memory reads the block only when the filter says it may hold that relationship.
     */
    @FunctionalInterface
    public interface BlockFilter {
        /**
         * False only when block {@code block}, as its loader would read it, holds no entry of
         * relationship index {@code relationship} (true is always safe).
         */
        boolean mayHold(int block, int relationship);
    }

    /** Forgets every entry (before a reload); the index is no longer lazy. */
    public void clear() {
        slices = new LongArrayList[16][];
        targets = 0;
        spare = null;
        spareTarget = -1;
        filter = null;
        lookupsSkipped = 0;
        blocks.clear();
    }

    /**
     * Keeps at most {@code maxBlocks} blocks in memory while lazy (at least 1), forgetting the
     * block read longest ago when one more is read. Only for an index nobody changes (a reader's):
     * a forgotten block is read again from the loader.
     */
    public void budget(int maxBlocks) {
        blocks.budget(maxBlocks);
    }

    /**
     * Makes the (cleared) index lazy: the lists of block {@code b} (targets {@code b << shift} to
     * {@code (b + 1 << shift) - 1}) are read by {@code loader.accept(b)}, which calls {@link #put}
     * for each of its targets, the first time one of them is touched. {@code readAll} reads every
     * block not yet read and ends laziness (through {@link #blocks} and {@link #put}): the
     * whole-index methods ({@link #targets}, {@link #targetCount}) call it.
     */
    public void lazy(int shift, IntConsumer loader, Runnable readAll) {
        lazy(shift, loader, readAll, null);
    }

    /**
     * {@link #lazy(int, IntConsumer, Runnable)} with a filter: a lookup of the sources of one
     * relationship ({@link #sources}, {@link #forEachSource} and {@link #entryCount} with a
     * relationship index of 0 or more) in a block that is not in memory reads it only when
     * {@code filter} (null: none) says it may hold that relationship, and otherwise finds no entry.
     * The filter must stay true of every block not in memory, as the loader would read it.
     */
    public void lazy(int shift, IntConsumer loader, Runnable readAll, BlockFilter filter) {
        this.shift = shift;
        this.filter = filter;
        blocks.lazy(loader, readAll);
    }

    /**
     * Forgets the lists of block {@code block} so that the next touch reads them again; returns
     * false (and does nothing) when the index is not lazy.
     */
    public boolean unload(int block) {
        return blocks.unload(block);
    }

    private void forgetBlock(int block) {
        if (shift == SLICE_SHIFT) { // the block is one slice (a stored world's blocks): drop it whole, memory follows the blocks kept
            LongArrayList[] slice = block < slices.length ? slices[block] : null;
            if (slice != null) {
                for (LongArrayList l : slice) {
                    if (l != null) {
                        targets--;
                    }
                }
                slices[block] = null;
            }
            return;
        }
        int from = block << shift;
        for (int t = from; t < from + (1 << shift); t++) {
            if (list(t) != null) {
                set(t, null);
                targets--;
            }
        }
    }

    /**
     * The list of {@code target} without touching its block, or null (also for a negative target,
     * whose unsigned slice number lies past every slice).
     */
    private LongArrayList list(int target) {
        int s = target >>> SLICE_SHIFT;
        if (s >= slices.length) {
            return null;
        }
        LongArrayList[] slice = slices[s];
        return slice == null ? null : slice[target & (SLICE - 1)];
    }

    /** Sets the list of {@code target} (null: none), making its slice when it has none. */
    private void set(int target, LongArrayList l) {
        int s = target >>> SLICE_SHIFT;
        if (s >= slices.length) {
            if (l == null) {
                return;
            }
            slices = Arrays.copyOf(slices, Math.max(s + 1, slices.length * 2));
        }
        LongArrayList[] slice = slices[s];
        if (slice == null) {
            if (l == null) {
                return;
            }
            slice = new LongArrayList[SLICE];
            slices[s] = slice;
        }
        slice[target & (SLICE - 1)] = l;
    }

    /**
     * Which blocks are in memory, for a caller that reads the missing pages itself
     * ({@link LazyBlocks#isLoaded}, {@link LazyBlocks#markLoaded} then {@link #put}, and
     * {@link LazyBlocks#eager} to end laziness).
     */
    public LazyBlocks blocks() {
        return blocks;
    }

    /** Number of blocks in memory that were read through the loader or marked (for tests and statistics). */
    public int blocksLoaded() {
        return blocks.loadedCount();
    }

    /** Number of times a block was read through the loader since the index became lazy. */
    public long blocksRead() {
        return blocks.reads();
    }

    /**
     * Number of lookups of one relationship's sources (one target each) answered without reading
     * the target's block, its filter saying the block holds no entry of that relationship.
     */
    public long lookupsSkipped() {
        return lookupsSkipped;
    }

    /**
     * The entries pointing at {@code target} when some may be of relationship index
     * {@code relationship} (every relationship when negative), or null: null without reading the
     * target's block when it is not in memory and the filter says it holds no such entry.
     */
    private LongArrayList get(int target, int relationship) {
        if (relationship >= 0 && filter != null && target >= 0 && blocks.isLazy()) {
            int b = target >>> shift;
            if (!blocks.isLoaded(b) && !filter.mayHold(b, relationship)) {
                lookupsSkipped++;
                return null;
            }
        }
        return get(target);
    }

    private void touch(int target) {
        if (target >= 0 && blocks.isLazy()) {
            blocks.touch(target >>> shift);
        }
    }

    /** The entries pointing at {@code target}, or null when none. Do not modify. */
    public LongArrayList get(int target) {
        touch(target);
        return list(target);
    }

    /** True when some pair points at {@code target}. */
    public boolean contains(int target) {
        return get(target) != null;
    }

    /** Adds one entry. */
    public void add(int target, long entry) {
        touch(target);
        LongArrayList l = list(target);
        if (l == null) {
            if (target == spareTarget && spare != null) {
                l = spare;
                spare = null;
                spareTarget = -1;
            } else {
                l = new LongArrayList(2);
            }
            set(target, l);
            targets++;
        }
        l.add(entry);
    }

    /**
     * Makes room for {@code more} further entries of {@code target} (at least 1), so that adding
     * them one by one copies its list at most once: a batch instantiation adds one entry per
     * instance to each prefab entity's list, which grew by half again many times per batch. The
     * list grows by half again at least, so that batch after batch it is copied a logarithmic
     * number of times, not once per batch. Changes no entry: a target without entries stays without (its room is kept for the next
     * {@link #add}).
     */
    public void reserve(int target, int more) {
        touch(target);
        LongArrayList l = list(target);
        if (l == null) {
            spareTarget = target;
            spare = new LongArrayList(Math.max(2, more));
            return;
        }
        long need = (long) l.size() + more;
        int cap = l.elements().length;
        if (need > cap) { // by half again at least, as an add grows it: one batch after another copies the list a few times, not once each
            l.ensureCapacity((int) Math.min(Integer.MAX_VALUE - 8, Math.max(need, cap + (cap >> 1))));
        }
    }

    /** The empty list {@link #reserve} made for target {@link #spareTarget}, which had no entries (the last one reserved only), or null. */
    private LongArrayList spare;
    private int spareTarget = -1;

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
            set(target, null);
            targets--;
        }
    }

    /** Drops every entry pointing at {@code target}; true when there were some. */
    public boolean removeAll(int target) {
        if (get(target) == null) {
            return false;
        }
        set(target, null);
        targets--;
        return true;
    }

    /** Replaces the entries of {@code target} (loading). */
    public void put(int target, LongArrayList entries) {
        touch(target);
        if (list(target) == null) {
            targets++;
        }
        set(target, entries);
    }

    /**
     * Calls {@code action} with the source index of every entry of {@code target} whose
     * relationship index is {@code relationship}, or of every entry when {@code relationship} is
     * negative.
     */
    public void forEachSource(int target, int relationship, java.util.function.IntConsumer action) {
        LongArrayList l = get(target, relationship);
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

    /** Number of targets with at least one entry (a lazy index reads every block first). */
    public int targetCount() {
        blocks.requireAll("targetCount");
        return targets;
    }

    /** The targets with at least one entry, in index order (a lazy index reads every block first). */
    public IntArrayList targets() {
        blocks.requireAll("targets");
        IntArrayList out = new IntArrayList(targets);
        for (int s = 0; s < slices.length; s++) {
            LongArrayList[] slice = slices[s];
            for (int i = 0; slice != null && i < SLICE; i++) {
                if (slice[i] != null) {
                    out.add((s << SLICE_SHIFT) + i);
                }
            }
        }
        return out;
    }

    /**
     * Appends to {@code out} the source index of every entry of {@code target} whose relationship
     * index is {@code relationship} (every entry when {@code relationship} is negative), in entry
     * order: {@link #forEachSource} read into an array, without a callback per entry (backward
     * graph walks append to their queue).
     *
     * @return the number of source indices appended
     */
    public int sources(int target, int relationship, IntArrayList out) {
        LongArrayList l = get(target, relationship);
        if (l == null) {
            return 0;
        }
        int from = out.size();
        reserve(out, l.size());
        int w = appendSources(l, relationship, out.elements(), from);
        out.size(w);
        return w - from;
    }

    /**
     * Grows {@code out} to hold {@code more} further elements, geometrically: IntArrayList.size(int)
     * and ensureCapacity allocate exactly what is asked, so a BFS queue fed target by target was
     * copied whole on every call (quadratic: 0.5 s for the first RG-1 (LocatedIn, n1) at depth 6).
     * Sets the size to the old size plus {@code more}; elements below the old size stay as they were.
     */
    private static void reserve(IntArrayList out, int more) {
        int start = out.size();
        if ((long) start + more > out.elements().length) {
            out.ensureCapacity((int) Math.min(Integer.MAX_VALUE - 8, Math.max((long) start + more, 2L * out.elements().length)));
        }
        out.size(start + more);
    }

    /** Writes the source indices of {@code l} whose relationship matches to {@code o} from {@code w}; the new end. */
    private static int appendSources(LongArrayList l, int relationship, int[] o, int w) {
        long[] a = l.elements();
        for (int j = 0, m = l.size(); j < m; j++) {
            long en = a[j];
            if (relationship < 0 || (int) (en >>> 32) == relationship) {
                o[w++] = (int) en;
            }
        }
        return w;
    }

    /**
     * {@link #sources(int, int, IntArrayList)} for many targets at once: appends to {@code out} the
     * matching source indices of {@code targets[from]}, then of {@code targets[from + 1]}, and so on
     * up to {@code targets[from + n - 1]}, exactly what as many calls in that order would append.
     * The targets' lists are looked up for all of them before any is read, so that their cache
     * misses overlap. {@code targets} may be {@code out}'s own array (a breadth-first walk hands
     * over a slice of its queue) when the slice lies below {@code out.size()}.
     *
     * @return the number of source indices appended
     */
    public int sources(int[] targets, int from, int n, int relationship, IntArrayList out) {
        int start = out.size();
        reserve(out, entryCount(targets, from, n, relationship)); // writes past start only: a slice of out's own (old) array is left as it was
        int w = sources(targets, from, n, relationship, out.elements(), start);
        out.size(w);
        return w - start;
    }

    /**
     * The number of entries, of every relationship, of the targets {@code targets[from .. from + n)}:
     * room enough for what {@link #sources(int[], int, int, int, int[], int)} writes for them.
     */
    public int entryCount(int[] targets, int from, int n) {
        return entryCount(targets, from, n, -1);
    }

    /**
     * The number of entries, of every relationship, of the targets {@code targets[from .. from + n)}
     * that may hold entries of relationship index {@code relationship} (all of them when negative):
     * room enough for what {@link #sources(int[], int, int, int, int[], int)} writes for them with
     * that relationship. A target whose block is not in memory and holds no such entry (its filter
     * says so) counts 0 and its block is not read.
     */
    public int entryCount(int[] targets, int from, int n, int relationship) {
        int total = 0;
        for (int i = 0; i < n; i++) { // every list looked up (and its size read) before any is copied
            LongArrayList l = get(targets[from + i], relationship);
            if (l != null) {
                total += l.size();
            }
        }
        return total;
    }

    /**
     * {@link #sources(int[], int, int, int, IntArrayList)} into a plain array: writes the matching
     * source indices of the targets {@code targets[from .. from + n)} in turn to {@code out} from
     * position {@code at}, which must leave room for {@link #entryCount} of them (positions from
     * {@code at} on are written, nothing else: {@code targets} may be {@code out} itself, a
     * breadth-first queue, when the slice lies below {@code at}). No position is written twice
     * (a list's {@code size(int)} would first fill the room with zeros).
     *
     * @return the position after the last index written
     * @throws ArrayIndexOutOfBoundsException when {@code out} lacks the room
     */
    public int sources(int[] targets, int from, int n, int relationship, int[] out, int at) {
        int w = at;
        for (int i = 0; i < n; i++) {
            LongArrayList l = get(targets[from + i], relationship);
            if (l != null) {
                w = appendSources(l, relationship, out, w);
            }
        }
        return w;
    }
}
