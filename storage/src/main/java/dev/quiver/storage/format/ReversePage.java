package dev.quiver.storage.format;

import dev.quiver.error.CorruptionException;
import dev.quiver.index.ReverseIndex;
import dev.quiver.storage.tx.Changes;
import it.unimi.dsi.fastutil.longs.LongArrayList;

/** Codec of a {@code reverse} page: the reverse-index entries of 64 consecutive targets. */
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
        int n = 0;
        for (int i = 0; i < (1 << SHIFT); i++) {
            if (reverse.contains(base + i)) {
                n++;
            }
        }
        if (n == 0) {
            return false;
        }
        w.varint(n);
        for (int i = 0; i < (1 << SHIFT); i++) {
            LongArrayList l = reverse.get(base + i);
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

    static void read(ReverseIndex reverse, long key, byte[] b) {
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
            reverse.put((int) target, l);
        }
        if (r.remaining() != 0) {
            throw new CorruptionException("reverse page " + key + " holds " + r.remaining() + " bytes past its targets");
        }
    }
}
