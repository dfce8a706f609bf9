package dev.quiver.storage.format;

import dev.quiver.error.CorruptionException;
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

    /** Writes the lists of a block's 1024 targets ({@code lists} by offset, null: none) as {@link #write} does. */
    private static boolean write(IntFunction<LongArrayList> lists, Bytes.Writer w) {
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
            LongArrayList l = lists.apply(i);
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
     * Puts the lists of block {@code key} (none in {@code reverse} yet) from a page body into
     * {@code reverse} as they are decoded, without a block-sized array between; a malformed body
     * leaves none of them.
     */
    static void read(ReverseIndex reverse, long key, byte[] b) {
        int base = (int) key << SHIFT;
        int[] last = {-1};
        try {
            readLists(key, b, (offset, l) -> {
                reverse.put(base + offset, l);
                last[0] = offset;
            });
        } catch (RuntimeException e) {
            for (int i = 0; i <= last[0]; i++) {
                reverse.removeAll(base + i);
            }
            throw e;
        }
    }

    /** The lists of block {@code key} by target offset (null: none) from a page body. */
    private static LongArrayList[] readLists(long key, byte[] b) {
        var lists = new LongArrayList[1 << SHIFT];
        readLists(key, b, (offset, l) -> lists[offset] = l);
        return lists;
    }

    /** Receives a block's lists as a page body is decoded: the target's offset in the block, its list. */
    @FunctionalInterface
    private interface ListSink {
        void accept(int offset, LongArrayList list);
    }

    /**
     * Decodes the lists of block {@code key} from a page body, in ascending target order, into
     * {@code sink}; the whole body is checked (a malformed one throws, possibly after some lists
     * went to the sink: the caller's block read then fails and is undone).
     */
    private static void readLists(long key, byte[] b, ListSink sink) {
        Bytes.Reader r = new Bytes.Reader(b);
        long base = key << SHIFT;
        int targets = r.varint(1 << SHIFT);
        int last = -1;
        for (int j = 0; j < targets; j++) {
            int offset = r.varint((1 << SHIFT) - 1);
            int n = r.vcount(1);
            long target = base + offset;
            if (offset <= last || n == 0 || target > Integer.MAX_VALUE) {
                throw new CorruptionException("reverse page holds " + n + " entries for target " + target);
            }
            last = offset;
            var l = new LongArrayList(n);
            long e = 0;
            for (int i = 0; i < n; i++) {
                e += r.zigzag();
                l.add(e);
            }
            sink.accept(offset, l);
        }
        if (r.remaining() != 0) {
            throw new CorruptionException("reverse page " + key + " holds " + r.remaining() + " bytes past its targets");
        }
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
        if (!write(i -> lists[i], w)) {
            return null;
        }
        return PageCompression.seal(w.buffer(), w.size());
    }
}
