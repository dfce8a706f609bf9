package dev.quiver.query.engine;

import dev.quiver.storage.World;
import dev.quiver.storage.table.Table;

/**
 * The entity, table and row of a window of pair targets (up to {@link #WINDOW}), looked up in the
 * order of their entity indices rather than in the order asked: the targets of a table's pairs are
 * scattered over the whole entity index (RG-1 join: 10,000 Likes targets among a million
 * entities), and lookups in index order read the entity records page after page, where lookups in
 * row order pay a cache and translation miss each. The answers are kept in the order asked. One per
 * evaluator and step, reused; the arrays stay valid until the next {@link #of}.
 */
final class TargetLocations {
    /** Targets looked up per call at most. */
    static final int WINDOW = 16_384;
    /** Fewer targets than this are looked up in the order asked (nothing to gain from sorting). */
    static final int SORT_FROM = 64;
    /** Least bucket width of the sort: indices that share {@code index >>> BUCKET_SHIFT} (64 entries) are one bucket. */
    static final int BUCKET_SHIFT = 6;

    long[] ids = new long[0];
    Table[] tables = new Table[0];
    int[] rows = new int[0];
    private int[] order = new int[0];
    private int[] sorted = new int[0];
    private long[] sortedIds = new long[0];
    private Table[] sortedTables = new Table[0];
    private int[] sortedRows = new int[0];
    private int[] buckets = new int[0];

    /**
     * Looks up entity indices {@code indices[0 .. n)} ({@code n} at most {@link #WINDOW}): afterwards
     * {@code ids[i]} is the live entity of {@code indices[i]} (0 when not alive or not positive),
     * {@code tables[i]} its table and {@code rows[i]} its row (null and -1 for 0).
     */
    void of(World world, int[] indices, int n) {
        if (n > WINDOW) {
            throw new IllegalArgumentException("at most " + WINDOW + " targets at once, not " + n);
        }
        grow(n);
        if (n < SORT_FROM) {
            world.tableAccess().locate(indices, 0, n, ids, tables, rows);
            return;
        }
        sortByBucket(indices, n);
        for (int k = 0; k < n; k++) {
            sorted[k] = indices[order[k]];
        }
        world.tableAccess().locate(sorted, 0, n, sortedIds, sortedTables, sortedRows);
        for (int k = 0; k < n; k++) {
            int i = order[k];
            ids[i] = sortedIds[k];
            tables[i] = sortedTables[k];
            rows[i] = sortedRows[k];
        }
    }

    /** {@code order}: the positions {@code 0 .. n)} by bucket of their index (counting sort; non-positive indices first). */
    private void sortByBucket(int[] indices, int n) {
        int max = 0;
        for (int i = 0; i < n; i++) {
            max = Math.max(max, indices[i]);
        }
        int shift = BUCKET_SHIFT; // at most about 4n buckets, however far apart the indices lie
        while ((max >>> shift) > 4 * n) {
            shift++;
        }
        int nb = (max >>> shift) + 2;
        if (buckets.length < nb) {
            buckets = new int[nb];
        } else {
            java.util.Arrays.fill(buckets, 0, nb, 0);
        }
        for (int i = 0; i < n; i++) {
            buckets[bucket(indices[i], shift)]++;
        }
        int sum = 0;
        for (int b = 0; b < nb; b++) {
            int c = buckets[b];
            buckets[b] = sum;
            sum += c;
        }
        for (int i = 0; i < n; i++) {
            order[buckets[bucket(indices[i], shift)]++] = i;
        }
    }

    private static int bucket(int index, int shift) {
        return index <= 0 ? 0 : (index >>> shift) + 1;
    }

    private void grow(int n) {
        if (ids.length >= n) {
            return;
        }
        ids = new long[n];
        tables = new Table[n];
        rows = new int[n];
        order = new int[n];
        sorted = new int[n];
        sortedIds = new long[n];
        sortedTables = new Table[n];
        sortedRows = new int[n];
    }
}
