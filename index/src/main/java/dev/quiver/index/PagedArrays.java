package dev.quiver.index;

import java.util.Arrays;

/**
 * Growth of paged arrays: world-sized arrays kept as a spine of fixed-size pages of
 * {@link #PAGE} slots (element {@code i} is {@code spine[i >>> SHIFT][i & MASK]}), so that
 * growing by one slot never copies the slots already held (issue 8, load: an array grown by an
 * eighth past {@link Capacity#GEOMETRIC} copied its whole length at each step, about nine copies
 * of every element; that was 20-25 % of the bytes an RG-1 load allocated). Every page but the last
 * holds {@link #PAGE} slots; the last page grows by doubling up to {@link #PAGE} (or exactly to
 * what a single request asks), so at most half a page is unused and an element is copied at most
 * about twice, within its page. Used by the entity index, the sparse store and table columns.
 */
public final class PagedArrays {
    /** log2 of the slots per page. */
    public static final int SHIFT = 14;
    /** Slots per page (16,384: 64 KiB of ints, 128 KiB of longs). */
    public static final int PAGE = 1 << SHIFT;
    /** Bits of an index that choose the slot within its page. */
    public static final int MASK = PAGE - 1;

    private PagedArrays() {
    }

    /** The slots {@code spine} holds: {@link #PAGE} per page but the last, plus the last's length. */
    public static int capacity(Object[] spine) {
        int n = spine.length;
        return n == 0 ? 0 : (n - 1) * PAGE + java.lang.reflect.Array.getLength(spine[n - 1]);
    }

    /**
     * A spine holding at least {@code needed} slots: {@code spine} itself when it does, else a
     * spine sharing its full pages, whose slots keep their values and new slots hold 0.
     *
     * @param needed the slots that must fit, at most {@link Capacity#MAX}
     * @throws IllegalStateException when {@code needed} passes {@link Capacity#MAX}
     */
    public static int[][] grow(int[][] spine, long needed) {
        return grow(spine, needed, int[]::new, a -> a.length, Arrays::copyOf);
    }

    /** As {@link #grow(int[][], long)}, for a spine of longs. */
    public static long[][] grow(long[][] spine, long needed) {
        return grow(spine, needed, long[]::new, a -> a.length, Arrays::copyOf);
    }

    /** As {@link #grow(int[][], long)}, for a spine of Strings (new slots hold null). */
    public static String[][] grow(String[][] spine, long needed) {
        return grow(spine, needed, String[]::new, a -> a.length, Arrays::copyOf);
    }

    /** A copy of page {@code P} with a new length ({@code Arrays.copyOf} of its element type). */
    @FunctionalInterface
    private interface Resize<P> {
        P copyOf(P page, int length);
    }

    /** {@link #grow(int[][], long)} for pages of type {@code P}, made by {@code make} and {@code resize}. */
    private static <P> P[] grow(P[] spine, long needed, java.util.function.IntFunction<P> make,
                                java.util.function.ToIntFunction<P> length, Resize<P> resize) {
        P[] s = spine;
        int last = lastPage(s, needed);
        if (last < 0) {
            return s;
        }
        if (s.length <= last) {
            s = Arrays.copyOf(s, last + 1);
        }
        for (int p = 0; p <= last; p++) {
            int len = pageLength(s[p] == null ? -1 : length.applyAsInt(s[p]), p, last, needed);
            if (s[p] == null) {
                s[p] = make.apply(len);
            } else if (length.applyAsInt(s[p]) < len) {
                s[p] = resize.copyOf(s[p], len);
            }
        }
        return s;
    }

    /** The page {@code needed} slots end in, or -1 when {@code spine} holds them already. */
    private static int lastPage(Object[] spine, long needed) {
        if (needed > Capacity.MAX) {
            throw new IllegalStateException("an array holds at most " + Capacity.MAX + " slots (" + needed + " needed)");
        }
        if (needed <= capacity(spine)) {
            return -1;
        }
        return (int) ((needed - 1) >>> SHIFT);
    }

    /**
     * The length page {@code p} of length {@code now} (-1: missing) takes: a full page below the
     * last; the last page at least the slots it must hold and, when it must grow, at least twice
     * its length, at most {@link #PAGE}.
     */
    private static int pageLength(int now, int p, int last, long needed) {
        if (p < last) {
            return PAGE;
        }
        int inPage = (int) (needed - ((long) last << SHIFT));
        if (now >= inPage) {
            return now;
        }
        return Math.min(PAGE, Math.max(inPage, 2 * now));
    }
}
