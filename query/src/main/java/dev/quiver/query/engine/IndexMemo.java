package dev.quiver.query.engine;

import java.util.Arrays;

/**
 * Closures memoised by entity index for one {@link Closure}: a directory of pages of
 * {@value #PAGE} entries, a page allocated when an index in its range is first stored. In place
 * of a hash map because the walks of a whole relationship ({@code (LocatedIn, $x)}) look up one
 * closure per run of rows and one per parent: entity indices are dense and neighbours are
 * looked up together, so a page read is two array loads that stay in cache, where hashing
 * scattered them (a profile of RG-1 transvar spent about a fifth of its time in hash lookups
 * and rehashing).
 */
final class IndexMemo {
    private static final int SHIFT = 10;
    private static final int PAGE = 1 << SHIFT;
    private static final int[][][] NO_PAGES = new int[0][][];

    private int[][][] pages = NO_PAGES;

    /** The closure stored for entity index {@code i} (not negative), or null. */
    int[] get(int i) {
        int p = i >>> SHIFT;
        if (p >= pages.length) {
            return null;
        }
        int[][] page = pages[p];
        return page == null ? null : page[i & (PAGE - 1)];
    }

    /** Stores {@code value} for entity index {@code i} (not negative). */
    void put(int i, int[] value) {
        int p = i >>> SHIFT;
        if (p >= pages.length) {
            pages = Arrays.copyOf(pages, Math.max(p + 1, pages.length * 2));
        }
        int[][] page = pages[p];
        if (page == null) {
            page = new int[PAGE][];
            pages[p] = page;
        }
        page[i & (PAGE - 1)] = value;
    }
}
