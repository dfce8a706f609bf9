package dev.quiver.storage.rules;

import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import java.util.BitSet;

/**
 * A set of entity indices that stays a small hash set while it is small and becomes a bit set
 * over the index space once it holds {@value #DENSE_AT} members: a cleanup that dooms a whole
 * subtree (RG-1's 111,111 entities) then marks and tests bits instead of hashing, while a delete
 * of one entity in a world of millions allocates no world-sized array. Not thread-safe.
 */
final class IndexSet {
    static final int DENSE_AT = 4096;

    private IntOpenHashSet sparse = new IntOpenHashSet();
    private BitSet dense;
    private int size;

    /** Adds {@code idx} (at least 0); true when it was not a member. */
    boolean add(int idx) {
        if (dense != null) {
            if (dense.get(idx)) {
                return false;
            }
            dense.set(idx);
            size++;
            return true;
        }
        if (!sparse.add(idx)) {
            return false;
        }
        if (++size == DENSE_AT) {
            dense = new BitSet();
            for (var it = sparse.iterator(); it.hasNext(); ) {
                dense.set(it.nextInt());
            }
            sparse = null;
        }
        return true;
    }

    /** True when {@code idx} is a member. */
    boolean contains(int idx) {
        return dense != null ? idx >= 0 && dense.get(idx) : sparse.contains(idx);
    }

    /** The number of members. */
    int size() {
        return size;
    }
}
