package dev.quiver.index;

import it.unimi.dsi.fastutil.longs.LongArrayList;

import java.util.Arrays;
import java.util.Objects;

/**
 * A read-only view of the entries pointing at one target in the {@link ReverseIndex}: entries
 * {@code (relationship index << 32) | source index}, in the index's order for that target. It
 * reads the index's own array (a block decoded flat, or a writer's list), so it holds no copy and
 * is valid until the next change of the index (a flat block never changes: a view of one stays
 * valid after that block is forgotten).
 */
public final class ReverseEntries {
    private final long[] entries;
    private final int from;
    private final int size;

    /**
     * The {@code size} entries {@code entries[from .. from + size)}, which the caller does not
     * change while the view is in use.
     *
     * @throws IndexOutOfBoundsException when the range lies outside the array
     */
    public ReverseEntries(long[] entries, int from, int size) {
        Objects.checkFromIndexSize(from, size, entries.length);
        this.entries = entries;
        this.from = from;
        this.size = size;
    }

    /** Number of entries (at least 1 for a view the index returns). */
    public int size() {
        return size;
    }

    /**
     * Entry {@code i} ({@code 0 <= i < size()}).
     *
     * @throws IndexOutOfBoundsException when {@code i} is out of range
     */
    public long getLong(int i) {
        return entries[from + Objects.checkIndex(i, size)];
    }

    /** A mutable copy of the entries, in order. */
    public LongArrayList toList() {
        return LongArrayList.wrap(Arrays.copyOfRange(entries, from, from + size));
    }

    /** True for a view of the same entries in the same order. */
    @Override
    public boolean equals(Object o) {
        return o instanceof ReverseEntries e && Arrays.equals(entries, from, from + size, e.entries, e.from, e.from + e.size);
    }

    @Override
    public int hashCode() {
        int h = 1;
        for (int i = from; i < from + size; i++) {
            h = 31 * h + Long.hashCode(entries[i]);
        }
        return h;
    }

    @Override
    public String toString() {
        return toList().toString();
    }
}
