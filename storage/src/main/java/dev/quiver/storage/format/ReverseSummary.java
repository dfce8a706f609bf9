package dev.quiver.storage.format;

import dev.quiver.error.CorruptionException;
import dev.quiver.index.ReverseEntries;
import dev.quiver.index.ReverseIndex;
import it.unimi.dsi.fastutil.ints.IntAVLTreeSet;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.objects.Object2IntOpenHashMap;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * The relationships of each {@code reverse} block, kept apart from the blocks (page format 10),
 * so that a lookup of one relationship's sources skips, without reading it, a block that holds
 * none: a walk over {@code (LocatedIn, n2)} after an open decoded 113 blocks, 99 of which held
 * only {@code Likes} entries. A block's summary is a superset of the relationship indices of its
 * entries: a commit adds the relationships its adds bring (a remove leaves the summary as it is)
 * and sets a block written whole to exactly what it holds.
 *
 * <p>Stored as {@code reverse} pages of their own, keyed {@link #KEY_BASE} + group, a group being
 * {@value #GROUP_BLOCKS} consecutive blocks (1M targets: RG-1 at depth 6 has two). A summary page
 * is an after-image written by the commit that changed it (never a delta), so the blocks and their
 * summaries change in one WAL record. Body: varint s (at least 1) distinct sets, each varint k (at
 * least 1) and k relationship indices ascending (each varint of its difference from the previous
 * one minus 1, the first from -1); then varint n (at least 1) blocks ascending, each varint its
 * offset in the group minus the previous one's minus 1 (the first from -1) and varint its set
 * (below s). A block not listed holds no entry. Read a group at a time when first asked
 * (open reads none). Not thread-safe.
 */
final class ReverseSummary implements ReverseIndex.BlockFilter {
    /** The key of the summary page of group 0 (block keys lie below 2^22). */
    static final long KEY_BASE = 1L << 32;
    static final int GROUP_SHIFT = 10;
    static final int GROUP_BLOCKS = 1 << GROUP_SHIFT;
    private static final int[] NONE = new int[0];

    /** The sets by group and block offset (null: a group not read yet, or a block without entries). */
    private int[][][] groups = new int[0][][];
    /** Groups read (or known without a page); unused when {@link #src} is null. */
    private BitSet known = new BitSet();
    /** Where unread groups are read from (bodies, envelopes opened), or null: every group is known. */
    private PageSource src;
    /** Summary pages read since the world was read. */
    private long pagesRead;

    /** True when {@code key}, a {@code reverse} page key, is a summary page's. */
    static boolean isSummaryKey(long key) {
        return key >= KEY_BASE;
    }

    /** Empty, every group known (a world built in memory), nothing counted. */
    void clear() {
        groups = new int[0][][];
        known = new BitSet();
        src = null;
        pagesRead = 0;
    }

    /** From now on a group is read from {@code opened} (bodies) when first asked. */
    void lazy(PageSource opened) {
        src = opened;
    }

    /**
     * Reads every group not read yet of the targets below {@code targets} (one past the highest
     * target index there may be); every group is known from then on.
     */
    void readAll(int targets) {
        if (src == null) {
            return;
        }
        for (int g = 0; g <= (Math.max(1, targets) - 1) >>> (ReversePage.SHIFT + GROUP_SHIFT); g++) {
            group(g);
        }
        src = null;
    }

    private void grow(int g) {
        if (g >= groups.length) {
            groups = Arrays.copyOf(groups, Math.max(g + 1, groups.length * 2));
        }
    }

    /** The sets of group {@code g} (read first when not known), made when it has none. */
    private int[][] ensure(int g) {
        group(g);
        grow(g);
        if (groups[g] == null) {
            groups[g] = new int[GROUP_BLOCKS][];
        }
        return groups[g];
    }

    /** The sets of group {@code g}, read when first asked; null when the group has no entries. */
    private int[][] group(int g) {
        if (src != null && !known.get(g)) {
            byte[] page = src.get(WorldFormat.REVERSE, KEY_BASE + g);
            int[][] sets = null;
            if (page != null) {
                try {
                    sets = read(KEY_BASE + g, page);
                } catch (CorruptionException e) {
                    throw new CorruptionException("reverse page " + (KEY_BASE + g) + ": " + e.getMessage(), e);
                }
                pagesRead++;
            }
            known.set(g);
            if (sets != null) {
                grow(g);
                groups[g] = sets;
            }
        }
        return g < groups.length ? groups[g] : null;
    }

    /** The relationship indices block {@code block} may hold, ascending (empty: none). */
    int[] of(int block) {
        int[][] sets = group(block >>> GROUP_SHIFT);
        int[] s = sets == null ? null : sets[block & (GROUP_BLOCKS - 1)];
        return s == null ? NONE : s;
    }

    @Override
    public boolean mayHold(int block, int relationship) {
        return Arrays.binarySearch(of(block), relationship) >= 0;
    }

    /** Adds relationship index {@code relationship} to block {@code block}'s set; true when it was not there. */
    boolean add(int block, int relationship) {
        int[] s = of(block);
        int p = Arrays.binarySearch(s, relationship);
        if (p >= 0) {
            return false;
        }
        int at = -p - 1;
        int[] t = new int[s.length + 1]; // a new array: sets read from a page are shared by blocks
        System.arraycopy(s, 0, t, 0, at);
        t[at] = relationship;
        System.arraycopy(s, at, t, at + 1, s.length - at);
        ensure(block >>> GROUP_SHIFT)[block & (GROUP_BLOCKS - 1)] = t;
        return true;
    }

    /** Sets block {@code block}'s set to {@code relationships} (ascending, distinct); true when it changed. */
    boolean set(int block, int[] relationships) {
        if (Arrays.equals(of(block), relationships)) {
            return false;
        }
        ensure(block >>> GROUP_SHIFT)[block & (GROUP_BLOCKS - 1)] = relationships.length == 0 ? null : relationships;
        return true;
    }

    /** The relationship indices of the entries of block {@code block} of {@code reverse} (which reads it), ascending. */
    static int[] relationshipsOf(ReverseIndex reverse, int block) {
        var rels = new IntAVLTreeSet();
        int base = block << ReversePage.SHIFT;
        int last = -1;
        for (int i = 0; i < (1 << ReversePage.SHIFT); i++) {
            ReverseEntries l = reverse.get(base + i);
            for (int j = 0; l != null && j < l.size(); j++) {
                int r = (int) (l.getLong(j) >>> 32);
                if (r != last) { // most lists hold runs of one relationship
                    rels.add(r);
                    last = r;
                }
            }
        }
        return rels.toIntArray();
    }

    /** The keys of the summary pages the state must hold (every group read first, {@link #readAll}), ascending. */
    long[] keys(int targets) {
        readAll(targets);
        var out = new LongArrayList();
        for (int g = 0; g < groups.length; g++) {
            if (groups[g] != null && Arrays.stream(groups[g]).anyMatch(s -> s != null)) {
                out.add(KEY_BASE + g);
            }
        }
        return out.toLongArray();
    }

    /** The summary page of the group of page key {@code key}; false when the group has no block with entries (page removed). */
    boolean write(long key, Bytes.Writer w) {
        int[][] sets = key - KEY_BASE >= 0 && key - KEY_BASE <= Integer.MAX_VALUE ? group((int) (key - KEY_BASE)) : null;
        if (sets == null) {
            return false;
        }
        var ids = new Object2IntOpenHashMap<IntArrayList>();
        List<int[]> distinct = new ArrayList<>();
        int[] setOf = new int[GROUP_BLOCKS];
        int n = 0;
        for (int b = 0; b < GROUP_BLOCKS; b++) {
            if (sets[b] == null) {
                continue;
            }
            n++;
            var k = IntArrayList.wrap(sets[b]);
            int id = ids.getOrDefault(k, -1);
            if (id < 0) {
                id = distinct.size();
                ids.put(k, id);
                distinct.add(sets[b]);
            }
            setOf[b] = id;
        }
        if (n == 0) {
            return false;
        }
        w.varint(distinct.size());
        for (int[] s : distinct) {
            w.varint(s.length);
            int prev = -1;
            for (int r : s) {
                w.varint(r - prev - 1L);
                prev = r;
            }
        }
        w.varint(n);
        int prev = -1;
        for (int b = 0; b < GROUP_BLOCKS; b++) {
            if (sets[b] != null) {
                w.varint(b - prev - 1L);
                w.varint(setOf[b]);
                prev = b;
            }
        }
        return true;
    }

    /** The sets by block offset of summary page {@code key} from its body (sets shared by the blocks that have the same). */
    static int[][] read(long key, byte[] body) {
        Bytes.Reader r = new Bytes.Reader(body);
        int s = r.vcount(1);
        if (s == 0) {
            throw new CorruptionException("reverse summary page " + key + " holds no set");
        }
        int[][] distinct = new int[s][];
        for (int i = 0; i < s; i++) {
            int k = r.vcount(1);
            if (k == 0) {
                throw new CorruptionException("reverse summary page " + key + " holds an empty set");
            }
            int[] set = new int[k];
            long prev = -1;
            for (int j = 0; j < k; j++) {
                long v = prev + 1 + r.varint();
                if (v > Integer.MAX_VALUE) {
                    throw new CorruptionException("reverse summary page " + key + " names relationship index " + v);
                }
                set[j] = (int) v;
                prev = v;
            }
            distinct[i] = set;
        }
        int n = r.vcount(2);
        if (n == 0 || n > GROUP_BLOCKS) {
            throw new CorruptionException("reverse summary page " + key + " lists " + n + " blocks");
        }
        int[][] sets = new int[GROUP_BLOCKS][];
        long prev = -1;
        for (int i = 0; i < n; i++) {
            long b = prev + 1 + r.varint();
            long set = r.varint();
            if (b >= GROUP_BLOCKS || set >= s) {
                throw new CorruptionException("reverse summary page " + key + " gives block " + b + " set " + set);
            }
            sets[(int) b] = distinct[(int) set];
            prev = b;
        }
        if (r.remaining() != 0) {
            throw new CorruptionException("reverse summary page " + key + " holds " + r.remaining() + " bytes past its blocks");
        }
        return sets;
    }

    /** Summary pages read since the world was read. */
    long pagesRead() {
        return pagesRead;
    }
}
