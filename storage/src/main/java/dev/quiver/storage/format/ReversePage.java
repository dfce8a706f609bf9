package dev.quiver.storage.format;

import dev.quiver.error.CorruptionException;
import dev.quiver.index.ReverseIndex;
import dev.quiver.storage.tx.Changes;
import it.unimi.dsi.fastutil.longs.LongArrayList;

/** Codec of a {@code reverse} page: the reverse-index entries of 64 consecutive targets. */
final class ReversePage {
    static final int SHIFT = Changes.TARGET_BLOCK_SHIFT;

    private ReversePage() {}

    /** Writes block {@code key}; false when no target of the block has entries. */
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
        w.i32(n);
        for (int i = 0; i < (1 << SHIFT); i++) {
            LongArrayList l = reverse.get(base + i);
            if (l == null) {
                continue;
            }
            w.i32(base + i);
            w.i32(l.size());
            for (int j = 0; j < l.size(); j++) {
                w.i64(l.getLong(j));
            }
        }
        return true;
    }

    static void read(ReverseIndex reverse, long key, byte[] b) {
        Bytes.Reader r = new Bytes.Reader(b);
        long base = key << SHIFT;
        int targets = r.i32();
        if (targets < 0 || targets > (1 << SHIFT)) {
            throw new CorruptionException("reverse page holds " + targets + " targets");
        }
        for (int j = 0; j < targets; j++) {
            int target = r.i32();
            int n = r.count(8);
            if (target < base || target >= base + (1 << SHIFT) || n == 0) {
                throw new CorruptionException("reverse page holds " + n + " entries for target " + target);
            }
            var l = new LongArrayList(n);
            for (int i = 0; i < n; i++) {
                l.add(r.i64());
            }
            reverse.put(target, l);
        }
    }
}
