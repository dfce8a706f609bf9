package dev.quiver.storage.format;

import dev.quiver.error.CorruptionException;
import dev.quiver.storage.table.SparseStore;

/**
 * Codec of a {@code sparse} page (page format 13): the forward half of one non-fragmenting
 * relationship's pairs for {@value SparseStore#BLOCK} consecutive source indices, so that a world
 * opened in place reads the targets of a source when first asked, one page, instead of building
 * every sparse pair from the reverse pages at the first sparse check (which read all of them: 1,086
 * pages for RG-1 depth 6). The reverse pages hold the same pairs by target; that both agree is the
 * checker's.
 *
 * <p>Key: {@code (relationship index << 22) | block}, block = source index / 1024 (below 2^22,
 * since an index is below 2^32). Body: varint n sources (1 to 1024) in ascending order, each:
 * varint its offset in the block minus the previous source's minus 1 (the first from -1), zz its
 * first (smallest) target index minus the previous source's first target (the first from 0),
 * varint m the number of its further targets, then m varints, each a target minus the previous
 * one minus 1 (ascending). Nothing follows.
 */
public final class SparsePage {
    /** Bits of a key below the relationship index: the block. */
    public static final int KEY_SHIFT = 22;

    private SparsePage() {}

    /** The key of the page of relationship index {@code rel} and source block {@code block}. */
    public static long key(int rel, int block) {
        return ((long) rel << KEY_SHIFT) | block;
    }

    /** The relationship index of page key {@code key}. */
    public static int relationship(long key) {
        return (int) (key >>> KEY_SHIFT);
    }

    /** The source block of page key {@code key}. */
    public static int block(long key) {
        return (int) (key & ((1 << KEY_SHIFT) - 1));
    }

    /** Writes page {@code key} of {@code store}; false when no source of its block holds a target. */
    static boolean write(SparseStore store, long key, Bytes.Writer w) {
        int rel = relationship(key);
        int from = block(key) << SparseStore.BLOCK_SHIFT;
        int[] firsts = new int[SparseStore.BLOCK];
        int n = store.blockFirsts(rel, block(key), firsts);
        if (n == 0) {
            return false;
        }
        w.varint(n);
        int prevOffset = -1, prevFirst = 0;
        for (int i = 0; i < SparseStore.BLOCK; i++) {
            int f = firsts[i];
            if (f == 0) {
                continue;
            }
            w.varint(i - prevOffset - 1);
            w.zigzag((long) f - prevFirst);
            int[] more = store.more(rel, from + i);
            w.varint(more == null ? 0 : more.length);
            int prev = f;
            if (more != null) {
                for (int t : more) {
                    w.varint((long) t - prev - 1);
                    prev = t;
                }
            }
            prevOffset = i;
            prevFirst = f;
        }
        return true;
    }

    /**
     * Puts the pairs of page {@code key} into {@code store} ({@link SparseStore#load}: not logged).
     *
     * @throws CorruptionException when the body is malformed (the pairs read before the damage may be in the store)
     */
    static void read(SparseStore store, long key, byte[] b) {
        int rel = relationship(key);
        long from = (long) block(key) << SparseStore.BLOCK_SHIFT;
        Bytes.Reader r = new Bytes.Reader(b);
        int n = r.varint(SparseStore.BLOCK);
        if (n == 0) {
            throw new CorruptionException("sparse page " + key + " holds no source");
        }
        long offset = -1, first = 0;
        for (int j = 0; j < n; j++) {
            offset += r.varint(SparseStore.BLOCK) + 1L;
            first += r.zigzag();
            if (offset >= SparseStore.BLOCK || from + offset > Integer.MAX_VALUE || first <= 0 || first > Integer.MAX_VALUE) {
                throw new CorruptionException("sparse page " + key + " holds source offset " + offset + " with first target " + first);
            }
            int src = (int) (from + offset);
            store.load(rel, src, (int) first);
            int m = r.vcount(1);
            long t = first;
            for (int k = 0; k < m; k++) {
                t += r.varint() + 1;
                if (t <= 0 || t > Integer.MAX_VALUE) {
                    throw new CorruptionException("sparse page " + key + " holds target " + t + " of source " + src);
                }
                store.load(rel, src, (int) t);
            }
        }
        if (r.remaining() != 0) {
            throw new CorruptionException("sparse page " + key + " holds " + r.remaining() + " bytes past its sources");
        }
    }
}
