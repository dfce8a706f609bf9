package dev.quiver.index;

/**
 * How the world-sized arrays grow (issue 8, memory: the resident set follows the data): doubling
 * while small, then by an eighth, so that a large array holds at most 12.5 % unused slots. RG-1
 * at depth 6 (1.1M entities in one table) left about 1M unused rows in its largest table and in
 * the entity index when both doubled (about 40 MiB of the live heap). Appending n items one by one
 * still copies each a bounded number of times on average (about 9 above {@link #GEOMETRIC}).
 * Used by a table's entity array ({@code storage.table.Table}); the entity index, the sparse store
 * and table columns are paged instead ({@link PagedArrays}), which copies no full page.
 */
public final class Capacity {
    /** Below this many slots an array doubles. */
    public static final int GEOMETRIC = 1 << 16;
    /** The largest array length every JVM allows. */
    public static final int MAX = Integer.MAX_VALUE - 8;

    private Capacity() {
    }

    /**
     * The length a full array of {@code length} slots grows to: at least {@code min} (8 when
     * smaller), twice {@code length} below {@link #GEOMETRIC}, else {@code length + length / 8}.
     *
     * @param length the array's length now, at least 0
     * @param needed the slots that must fit, at most {@link #MAX}
     * @return a length of at least {@code needed} and at most {@link #MAX}
     * @throws IllegalStateException when {@code needed} passes {@link #MAX}
     */
    public static int grown(int length, long needed) {
        if (needed > MAX) {
            throw new IllegalStateException("an array holds at most " + MAX + " slots (" + needed + " needed)");
        }
        long cap = length < GEOMETRIC ? 2L * length : length + (length >>> 3);
        return (int) Math.min(MAX, Math.max(Math.max(8L, needed), cap));
    }
}
