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
 * <p><b>Flat blocks.</b> A slice read from a stored page ({@link #putBlock}) is kept as one array
 * of entries and one of offsets ({@link FlatReverseBlock}), with no object per target: lookups
 * ({@link #get}, {@link #sources}, {@link #forEachSource}, {@link #entryCount}) read it as it is.
 * The first change of one of its targets ({@link #add}, {@link #remove}, {@link #removeAll},
 * {@link #reserve}, {@link #put}) turns the slice into per-target lists, in the same order, so a
 * writer changes lists as before and a slice only read stays flat.
 *
 * <p><b>Lazy blocks.</b> After {@link #lazy}, targets are grouped in blocks of {@code 1 << shift}
 * consecutive indices (a stored world keeps one page per block) and a block's entries are read (the
 * loader calls {@link #putBlock} or {@link #put}) the first time any method touches one of its targets, so opening a
 * world reads no list and memory follows the targets used. {@link #unload} forgets a block (it is
 * read again on next touch: how a refused transaction is undone); {@link LazyBlocks#eager} ends laziness once
 * every block is in memory. A reader may bound the blocks kept ({@link #budget}): past it, the
 * blocks read longest ago are forgotten (first in, first out), so memory follows the working set;
 * a view already returned ({@link #get}) stays valid for its holder. Every method keeps its meaning either way.
 * Not thread-safe.
 */
public final class ReverseIndex {
    /** Targets per slice. */
    static final int SLICE = 1024;
    private static final int SLICE_SHIFT = 10;
    /** The lists by target: {@code slices[t >>> SLICE_SHIFT][t & (SLICE - 1)]}; a null slice holds no list. */
    private LongArrayList[][] slices = new LongArrayList[16][];
    /** The flat slices by slice number (null: none); a slice is flat or in {@link #slices}, never both. */
    private FlatReverseBlock[] flats = new FlatReverseBlock[16];
    private int targets;
    /** Which blocks are in memory when lazy; {@link #put} fills a block its loader reads. */
    private final LazyBlocks blocks = new LazyBlocks("ReverseIndex", this::forgetBlock);
    private int shift;
    /** What the blocks not in memory may hold, or null: every block may hold every relationship. */
    private BlockFilter filter;
    /** Lookups of one relationship's sources answered by {@link #filter} without reading a block. */
    private long lookupsSkipped;
    /** {@link #reachInRun}'s run within one bulk lookup: its block (-1: none) and whether it was reached. */
    private int runBlock = -1;
    private boolean runReached;

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
        flats = new FlatReverseBlock[16];
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
            FlatReverseBlock f = flatSlice(block);
            if (f != null) {
                targets -= f.targets;
                flats[block] = null;
            }
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
            thaw(t);
            if (list(t) != null) {
                set(t, null);
                targets--;
            }
        }
    }

    /** Flat slice {@code s} (unsigned), or null. */
    private FlatReverseBlock flatSlice(int s) {
        return s >= 0 && s < flats.length ? flats[s] : null;
    }

    /** The flat slice holding {@code target}, or null (also for a negative target). */
    private FlatReverseBlock flat(int target) {
        return flatSlice(target >>> SLICE_SHIFT);
    }

    /**
     * Turns the flat slice holding {@code target}, if any, into per-target lists in the same
     * order, before a change of one of its targets (copy on write).
     */
    private void thaw(int target) {
        int s = target >>> SLICE_SHIFT;
        FlatReverseBlock f = flatSlice(s);
        if (f == null) {
            return;
        }
        flats[s] = null;
        int base = s << SLICE_SHIFT;
        for (int i = 0; i < SLICE; i++) {
            int n = f.size(i);
            if (n > 0) {
                var l = new LongArrayList(n); // as the lists were read before blocks were kept flat
                l.addElements(0, f.entries, f.start[i], n);
                set(base + i, l);
            }
        }
    }

    /**
     * The mutable list of {@code target} without touching its block, or null (also for a negative
     * target, whose unsigned slice number lies past every slice, and for a target of a flat slice).
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

    /** Number of slices kept flat, as {@link #putBlock} stored them and no change has touched since (for tests and statistics). */
    public int flatBlocks() {
        int n = 0;
        for (FlatReverseBlock f : flats) {
            if (f != null) {
                n++;
            }
        }
        return n;
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
     * Touches the block of {@code target} when some of its entries may be of relationship index
     * {@code relationship} (every relationship when negative) and returns true; false without
     * reading the block when it is not in memory and the filter says it holds no such entry.
     */
    private boolean reach(int target, int relationship) {
        if (relationship >= 0 && filter != null && target >= 0 && blocks.isLazy()) {
            int b = target >>> shift;
            if (!blocks.isLoaded(b) && !filter.mayHold(b, relationship)) {
                lookupsSkipped++;
                return false;
            }
        }
        touch(target);
        return true;
    }

    /** Number of entries of {@code target} in memory (its block touched), 0 when none. */
    private int size(int target) {
        FlatReverseBlock f = flat(target);
        if (f != null) {
            return f.size(target & (SLICE - 1));
        }
        LongArrayList l = list(target);
        return l == null ? 0 : l.size();
    }

    private void touch(int target) {
        if (target >= 0 && blocks.isLazy()) {
            blocks.touch(target >>> shift);
        }
    }

    /**
     * The entries pointing at {@code target}, in order, or null when none: a view of the index's
     * own array, valid until the next change of the index.
     */
    public ReverseEntries get(int target) {
        touch(target);
        FlatReverseBlock f = flat(target);
        if (f != null) {
            int i = target & (SLICE - 1);
            return f.size(i) == 0 ? null : new ReverseEntries(f.entries, f.start[i], f.size(i));
        }
        LongArrayList l = list(target);
        return l == null ? null : new ReverseEntries(l.elements(), 0, l.size());
    }

    /** Number of entries pointing at {@code target} (0: none). */
    public int entryCount(int target) {
        touch(target);
        return size(target);
    }

    /** True when some pair points at {@code target}. */
    public boolean contains(int target) {
        return entryCount(target) > 0;
    }

    /**
     * The mutable list of {@code target}'s entries, or null when none, turning its slice into
     * per-target lists if it was flat (for tests of the writer's lists).
     */
    LongArrayList mutableList(int target) {
        touch(target);
        thaw(target);
        return list(target);
    }

    /** Adds one entry. */
    public void add(int target, long entry) {
        touch(target);
        thaw(target);
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
        thaw(target);
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
        touch(target);
        thaw(target);
        LongArrayList l = list(target);
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
        touch(target);
        thaw(target);
        if (list(target) == null) {
            return false;
        }
        set(target, null);
        targets--;
        return true;
    }

    /** Replaces the entries of {@code target} (loading). */
    public void put(int target, LongArrayList entries) {
        touch(target);
        thaw(target);
        if (list(target) == null) {
            targets++;
        }
        set(target, entries);
    }

    /**
     * Replaces the entries of the {@value #SLICE} targets {@code slice * SLICE} to
     * {@code (slice + 1) * SLICE - 1} (loading a stored block): target {@code slice * SLICE + i}
     * gets {@code entries[start[i] .. start[i + 1])}, in that order (none when empty). Kept flat,
     * without an object per target, until a change of one of them; the arrays become the index's
     * and must not change. When the index is lazy with blocks of another size than a slice, the
     * entries are put as lists instead.
     *
     * @throws IllegalArgumentException when {@code start} does not hold {@value #SLICE} + 1
     *                                  ascending offsets from 0 to {@code entries.length}, or the
     *                                  slice is negative or past the last target
     */
    public void putBlock(int slice, long[] entries, int[] start) {
        var f = new FlatReverseBlock(entries, start);
        if (slice < 0 || slice > (Integer.MAX_VALUE >>> SLICE_SHIFT)) {
            throw new IllegalArgumentException("no slice of targets " + slice);
        }
        int base = slice << SLICE_SHIFT;
        if (blocks.isLazy() && shift != SLICE_SHIFT) {
            for (int i = 0; i < SLICE; i++) {
                removeAll(base + i);
                if (f.size(i) > 0) {
                    var l = new LongArrayList(f.size(i));
                    l.addElements(0, entries, start[i], f.size(i));
                    put(base + i, l);
                }
            }
            return;
        }
        touch(base);
        thaw(base);
        for (int i = 0; i < SLICE; i++) {
            if (list(base + i) != null) {
                set(base + i, null);
                targets--;
            }
        }
        if (slice >= flats.length) {
            flats = Arrays.copyOf(flats, Math.max(slice + 1, flats.length * 2));
        }
        flats[slice] = f;
        targets += f.targets;
    }

    /**
     * Calls {@code action} with the source index of every entry of {@code target} whose
     * relationship index is {@code relationship}, or of every entry when {@code relationship} is
     * negative.
     */
    public void forEachSource(int target, int relationship, java.util.function.IntConsumer action) {
        if (!reach(target, relationship)) {
            return;
        }
        FlatReverseBlock f = flat(target);
        if (f != null) {
            int i = target & (SLICE - 1);
            forEachSource(f.entries, f.start[i], f.start[i + 1], relationship, action);
            return;
        }
        LongArrayList l = list(target);
        if (l != null) {
            forEachSource(l.elements(), 0, l.size(), relationship, action);
        }
    }

    /** Calls {@code action} with the source index of each entry of {@code a[from .. to)} whose relationship matches. */
    private static void forEachSource(long[] a, int from, int to, int relationship, java.util.function.IntConsumer action) {
        for (int i = from; i < to; i++) {
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
        for (int s = 0; s < Math.max(slices.length, flats.length); s++) {
            LongArrayList[] slice = s < slices.length ? slices[s] : null;
            FlatReverseBlock f = flatSlice(s);
            for (int i = 0; (slice != null || f != null) && i < SLICE; i++) {
                if (f != null ? f.size(i) > 0 : slice[i] != null) {
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
        if (!reach(target, relationship)) {
            return 0;
        }
        int from = out.size();
        reserve(out, size(target));
        int w = appendSources(target, relationship, out.elements(), from);
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

    /**
     * Writes the source indices of the entries of {@code target} (its block touched) whose
     * relationship matches to {@code o} from {@code w}; the new end.
     */
    private int appendSources(int target, int relationship, int[] o, int w) {
        FlatReverseBlock f = flat(target);
        if (f != null) {
            int i = target & (SLICE - 1);
            return appendSources(f.entries, f.start[i], f.start[i + 1], relationship, o, w);
        }
        LongArrayList l = list(target);
        return l == null ? w : appendSources(l.elements(), 0, l.size(), relationship, o, w);
    }

    /** Writes the source indices of {@code a[from .. to)} whose relationship matches to {@code o} from {@code w}; the new end. */
    private static int appendSources(long[] a, int from, int to, int relationship, int[] o, int w) {
        for (int j = from; j < to; j++) {
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
            int t = targets[from + i];
            if (reachInRun(t, relationship, i == 0)) {
                total += size(t);
            }
        }
        return total;
    }

    /**
     * {@link #reach} for the targets of one bulk lookup in turn ({@code first} for the first of
     * them), asked once per run of targets in one block when the index is lazy (a walk's queue
     * holds siblings, whose indices follow each other): until another block is touched the answer
     * stays the same (a block reached is in memory and was the last one touched; a block the
     * filter excluded stays unread), and a target skipped by its run's answer counts in
     * {@link #lookupsSkipped} as {@link #reach} would count it. The filter was asked about every
     * target twice per walk step (about 200,000 times for the first RG-1 {@code (LocatedIn, n2)}
     * after an open).
     */
    private boolean reachInRun(int target, int relationship, boolean first) {
        int b = target >= 0 && blocks.isLazy() ? target >>> shift : -1; // -1: asked per target
        if (first || b < 0 || b != runBlock) {
            runReached = reach(target, relationship);
            runBlock = b;
        } else if (!runReached) {
            lookupsSkipped++;
        }
        return runReached;
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
            int t = targets[from + i];
            if (reachInRun(t, relationship, i == 0)) {
                w = appendSources(t, relationship, out, w);
            }
        }
        return w;
    }
}
