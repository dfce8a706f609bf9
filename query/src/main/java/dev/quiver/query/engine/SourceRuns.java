package dev.quiver.query.engine;

import dev.quiver.storage.table.Table;

import java.util.Arrays;

/**
 * Where the sources of one backward closure ({@link Closure#down}) lie, in walk order: runs of
 * consecutive rows of one table, run {@code i} being rows {@code from[i] .. to[i] - 1} of the
 * table whose id is {@code tableIds[i]} (ids, not tables: a kept closure must not hold a world's
 * tables and their columns alive past the world's close; {@link DownCache} keys are weak). {@link TransitiveOps} finds them by looking the sources up as it hands them
 * out, then keeps them with the closure, so that a later evaluation while the world is unchanged
 * (its {@link dev.quiver.storage.World#writeCount()}: no table or row has moved) hands out the runs
 * without looking up an entity (Debian {@code (DependsOn, libc6)}: 49,540 sources in 32,481 runs,
 * 30% of a warm evaluation went into the lookups). Immutable once built.
 */
final class SourceRuns {
    final int[] tableIds;
    final int[] from;
    final int[] to;

    private SourceRuns(int[] tableIds, int[] from, int[] to) {
        this.tableIds = tableIds;
        this.from = from;
        this.to = to;
    }

    /** Number of runs. */
    int count() {
        return tableIds.length;
    }

    /** Entries this takes in a memo budget counted in entity indices (three per run). */
    long weight() {
        return 3L * tableIds.length + 4;
    }

    /**
     * Collects runs as a walk hands them out; reused from walk to walk ({@link #clear}). A walk
     * that stops early (its continuation returned false) is not {@link #build built}.
     */
    static final class Builder {
        private Table[] tables = new Table[64];
        private int[] from = new int[64];
        private int[] to = new int[64];
        private int n;

        void clear() {
            Arrays.fill(tables, 0, n, null); // hold no table past its walk
            n = 0;
        }

        /** Appends rows {@code f .. t - 1} of {@code table}. */
        void add(Table table, int f, int t) {
            if (n == tables.length) {
                int cap = n * 2;
                tables = Arrays.copyOf(tables, cap);
                from = Arrays.copyOf(from, cap);
                to = Arrays.copyOf(to, cap);
            }
            tables[n] = table;
            from[n] = f;
            to[n] = t;
            n++;
        }

        /** The runs added since the last {@link #clear}. */
        SourceRuns build() {
            int[] ids = new int[n];
            for (int i = 0; i < n; i++) {
                ids[i] = tables[i].id();
            }
            return new SourceRuns(ids, Arrays.copyOf(from, n), Arrays.copyOf(to, n));
        }
    }
}
