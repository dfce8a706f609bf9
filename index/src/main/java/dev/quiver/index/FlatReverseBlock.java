package dev.quiver.index;

/**
 * The entries of one slice of {@link ReverseIndex#SLICE} consecutive targets as a block was read
 * (one stored reverse page), without an object per target: the entries of the slice's target
 * {@code i} are {@code entries[start[i] .. start[i + 1])}, in their order. Never changed: a
 * writer's change of one of its targets first turns the slice into per-target lists
 * ({@link ReverseIndex}).
 */
final class FlatReverseBlock {
    final long[] entries;
    /** {@link ReverseIndex#SLICE} + 1 ascending offsets into {@link #entries}, from 0 to its length. */
    final int[] start;
    /** Number of targets with at least one entry. */
    final int targets;

    /** @throws IllegalArgumentException when {@code start} is not as {@link #start} says */
    FlatReverseBlock(long[] entries, int[] start) {
        if (start.length != ReverseIndex.SLICE + 1 || start[0] != 0 || start[ReverseIndex.SLICE] != entries.length) {
            throw new IllegalArgumentException("a flat reverse block needs " + (ReverseIndex.SLICE + 1)
                    + " offsets from 0 to " + entries.length);
        }
        int n = 0;
        for (int i = 0; i < ReverseIndex.SLICE; i++) {
            if (start[i + 1] < start[i]) {
                throw new IllegalArgumentException("flat reverse block offsets descend at " + i);
            }
            if (start[i + 1] > start[i]) {
                n++;
            }
        }
        this.entries = entries;
        this.start = start;
        this.targets = n;
    }

    /** Number of entries of the slice's target {@code i}. */
    int size(int i) {
        return start[i + 1] - start[i];
    }

    /** A new mutable list of the entries of the slice's target {@code i}, in order, or null when it has none. */
    it.unimi.dsi.fastutil.longs.LongArrayList list(int i) {
        int n = size(i);
        if (n == 0) {
            return null;
        }
        var l = new it.unimi.dsi.fastutil.longs.LongArrayList(n);
        l.addElements(0, entries, start[i], n);
        return l;
    }
}
