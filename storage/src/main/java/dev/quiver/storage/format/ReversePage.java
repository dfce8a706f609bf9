package dev.quiver.storage.format;

import dev.quiver.error.CorruptionException;
import dev.quiver.index.ReverseEntries;
import dev.quiver.index.ReverseIndex;
import dev.quiver.storage.tx.Changes;
import it.unimi.dsi.fastutil.longs.LongArrayList;

import java.util.List;
import java.util.function.IntFunction;

/**
 * Codec of a {@code reverse} page: the reverse-index entries of 1024 consecutive targets (64 before page format 8). A commit
 * logs what it did to a block's lists as a delta ({@link #writeDelta}: the adds and removes in the
 * order they ran), applied to the page by whoever reads it and sealed into a whole page at a
 * checkpoint ({@link #applyDelta}), so that a commit costs what it changed: the block of a prefab
 * lists every instance's {@code (IsA, prefab)}, and rewriting it whole made each instantiation
 * cost O(instances) (page format 7).
 */
final class ReversePage {
    static final int SHIFT = Changes.TARGET_BLOCK_SHIFT;

    private ReversePage() {}

    /**
     * Writes block {@code key}; false when no target of the block has entries. Layout: varint n
     * targets in ascending order, each: varint target minus the block's first target, varint k
     * (at least 1), k entries {@code (relationship index << 32) | source index} in their order, each
     * as the zigzag of its difference from the previous one (the first from 0).
     */
    static boolean write(ReverseIndex reverse, long key, Bytes.Writer w) {
        int base = (int) key << SHIFT;
        return write(i -> reverse.get(base + i), w);
    }

    /** Writes the entries of a block's 1024 targets ({@code lists} by offset, null: none) as {@link #write} does. */
    private static boolean write(IntFunction<ReverseEntries> lists, Bytes.Writer w) {
        int n = 0;
        for (int i = 0; i < (1 << SHIFT); i++) {
            if (lists.apply(i) != null) {
                n++;
            }
        }
        if (n == 0) {
            return false;
        }
        w.varint(n);
        for (int i = 0; i < (1 << SHIFT); i++) {
            ReverseEntries l = lists.apply(i);
            if (l == null) {
                continue;
            }
            w.varint(i);
            w.varint(l.size());
            long prev = 0;
            for (int j = 0; j < l.size(); j++) {
                w.zigzag(l.getLong(j) - prev);
                prev = l.getLong(j);
            }
        }
        return true;
    }

    /**
     * Puts the entries of block {@code key} from a page body into {@code reverse}, flat
     * ({@link ReverseIndex#putBlock}: one array of entries and one of offsets, no object per
     * target), replacing what the block held; a malformed body changes nothing.
     */
    static void read(ReverseIndex reverse, long key, byte[] b) {
        int[] start = new int[(1 << SHIFT) + 1];
        long[] entries = readFlat(key, b, start);
        reverse.putBlock((int) key, entries, start);
    }

    /** The lists of block {@code key} by target offset (null: none) from a page body. */
    private static LongArrayList[] readLists(long key, byte[] b) {
        int[] start = new int[(1 << SHIFT) + 1];
        long[] entries = readFlat(key, b, start);
        var lists = new LongArrayList[1 << SHIFT];
        for (int i = 0; i < (1 << SHIFT); i++) {
            int n = start[i + 1] - start[i];
            if (n > 0) {
                lists[i] = new ReverseEntries(entries, start[i], n).toList();
            }
        }
        return lists;
    }

    /**
     * Decodes the entries of block {@code key} from a page body: returns them all, target after
     * target in ascending order, and sets {@code start[i] .. start[i + 1]} (a {@code 1025}-long
     * array) to the range of the block's target {@code i}. The array is sized from the body
     * before decoding (every varint of the body ends in the one byte of it below 0x80, so a
     * well-formed body of n targets holds that count minus {@code 1 + 2n} entries): one
     * allocation, no copy. The whole body is checked.
     *
     * @throws CorruptionException when the body is malformed
     */
    private static long[] readFlat(long key, byte[] b, int[] start) {
        Bytes.Reader r = new Bytes.Reader(b);
        long base = key << SHIFT;
        int targets = r.varint(1 << SHIFT);
        int varints = 0;
        for (byte x : b) {
            if (x >= 0) {
                varints++;
            }
        }
        long[] entries = new long[Math.max(0, varints - 1 - 2 * targets)];
        int at = 0;
        int next = 0; // the first target offset whose start is not set yet
        for (int j = 0; j < targets; j++) {
            int offset = r.varint((1 << SHIFT) - 1);
            int n = r.vcount(1);
            long target = base + offset;
            if (offset < next || n == 0 || target > Integer.MAX_VALUE || n > entries.length - at) {
                throw new CorruptionException("reverse page holds " + n + " entries for target " + target);
            }
            while (next <= offset) {
                start[next++] = at;
            }
            long e = 0;
            for (int i = 0; i < n; i++) {
                e += r.zigzag();
                entries[at++] = e;
            }
        }
        while (next <= 1 << SHIFT) {
            start[next++] = at;
        }
        if (r.remaining() != 0) { // none left: the body was all varints, so the array is full (at == entries.length)
            throw new CorruptionException("reverse page " + key + " holds " + r.remaining() + " bytes past its targets");
        }
        return entries;
    }

    /**
     * A delta of a block from its operations ({@link Changes#reverseOps}: pairs of longs
     * {@code (target offset << 1) | op} (op 0: add, 1: remove) and the entry), or null when there
     * are none. Layout: varint n operations, each: varint {@code (offset << 1) | op}, zigzag of the
     * entry's difference from the previous operation's entry (the first from 0). Written in
     * {@code w} (reset first), copied out.
     */
    static byte[] writeDelta(LongArrayList ops, Bytes.Writer w) {
        int n = ops.size() / 2;
        if (n == 0) {
            return null;
        }
        w.reset();
        w.varint(n);
        long prev = 0;
        long[] a = ops.elements();
        for (int k = 0; k < 2 * n; k += 2) {
            w.varint(a[k]);
            long e = a[k + 1];
            w.zigzag(e - prev);
            prev = e;
        }
        return w.toBytes();
    }

    /**
     * The stored blob of block {@code key} once {@code deltas} (oldest first, {@link #writeDelta})
     * are applied to the stored blob {@code base} (null: no page); null when the block ends empty.
     * Each operation runs as {@link ReverseIndex#add} and {@link ReverseIndex#remove} ran it (an
     * add appends; a remove swaps the last entry into the place of the entry's last occurrence; a
     * list left empty is dropped), so the page ends exactly as the writer's lists were.
     *
     * @throws CorruptionException when the page or a delta is malformed
     */
    static byte[] applyDelta(long key, byte[] base, List<byte[]> deltas) {
        if (key < 0 || key > (Integer.MAX_VALUE >>> SHIFT)) {
            throw new CorruptionException("reverse page " + key + " is no block of targets");
        }
        LongArrayList[] lists = base == null ? new LongArrayList[1 << SHIFT]
                : readLists(key, PageCompression.open("reverse", key, base));
        // the adds per target first, so that each list is sized once: a block sealed from the
        // deltas of a bulk load (a million adds, ten per target) spent most of its time growing
        // lists of 2, 3, 4, 6, 9... entries (RG-1's first trans pass after the load)
        int[] adds = new int[1 << SHIFT];
        for (byte[] d : deltas) {
            Bytes.Reader r = new Bytes.Reader(d);
            for (int k = 0, n = r.vcount(2); k < n; k++) {
                int op = r.varint(((1 << SHIFT) << 1) - 1);
                r.zigzag();
                if ((op & 1) == 0) {
                    adds[op >>> 1]++;
                }
            }
        }
        for (byte[] d : deltas) {
            Bytes.Reader r = new Bytes.Reader(d);
            int n = r.vcount(2);
            long e = 0;
            for (int k = 0; k < n; k++) {
                int op = r.varint(((1 << SHIFT) << 1) - 1);
                e += r.zigzag();
                int offset = op >>> 1;
                LongArrayList l = lists[offset];
                if ((op & 1) == 0) {
                    if (l == null) {
                        l = new LongArrayList(Math.max(2, adds[offset]));
                        lists[offset] = l;
                    } else if (adds[offset] > 0) {
                        l.ensureCapacity(l.size() + adds[offset]);
                    }
                    adds[offset] = 0; // sized: a list emptied and filled again grows as it may
                    l.add(e);
                } else if (l != null) {
                    int p = l.lastIndexOf(e);
                    if (p >= 0) {
                        l.set(p, l.getLong(l.size() - 1));
                        l.removeLong(l.size() - 1);
                    }
                    if (l.isEmpty()) {
                        lists[offset] = null;
                    }
                }
            }
            if (r.remaining() != 0) {
                throw new CorruptionException("reverse delta of block " + key + " holds " + r.remaining() + " bytes past its operations");
            }
        }
        Bytes.Writer w = new Bytes.Writer(64);
        if (!write(i -> lists[i] == null ? null : new ReverseEntries(lists[i].elements(), 0, lists[i].size()), w)) {
            return null;
        }
        return PageCompression.seal(w.buffer(), w.size());
    }
}
