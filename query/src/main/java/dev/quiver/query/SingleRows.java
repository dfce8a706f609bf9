package dev.quiver.query;

import dev.quiver.query.engine.Bindings;
import dev.quiver.query.iter.ResultShape;
import dev.quiver.query.iter.TableResult;
import dev.quiver.storage.table.Table;

import java.util.Arrays;

/**
 * How the rows of one {@link Query#each} (or {@link Query#eachReused}) call are made: the
 * single-row results (a transitive walk to a fixed target hands out most of its sources one at a
 * time: Debian {@code (DependsOn, libc6)}, 49,540 rows) and the groups rows share. Rows matched the
 * same way in the same table share one {@link RowGroup} whose row 0 is the table's row 0 (a row's
 * own part is its entity and row), so a row costs one small object, and nothing when the caller
 * does not keep it (the JIT removes it). The groups of the last few tables are kept (one each),
 * since a walk goes back and forth between a few tables. Batches without per-row ids share them too
 * ({@link #shared}). A query whose fields can have a located variable source (a join's
 * {@code Position($y)}) cannot share: its rows differ by row ({@link #locatedRow}).
 *
 * <p>For {@link Query#eachReused} every row is one {@link QueryRow} object ({@link #row}), reset
 * for each result, and a located row's data and sources are written into one group of its own
 * ({@link RowGroup#reusable}): nothing is allocated per row (RG-1 join: 10,000 rows, about 220
 * bytes each as new rows).
 */
final class SingleRows {
    /** Groups kept: a walk's sources lie in a few tables (Debian: four). */
    private static final int KEPT = 4;
    private final ResultShape shape;
    /** No field of the shape has a located source: rows matched alike can share their group. */
    final boolean shareable;
    private final long[] scratch;
    private final RowGroup[] kept = new RowGroup[KEPT];
    private int nextKept;
    /** The one row handed out for every result when rows are reused, else null (a new row per result). */
    private final QueryRow reused;
    /** The group of every located single row when rows are reused (not {@link #shareable}), else null. */
    private final RowGroup located;

    /**
     * @param shape the query's shape
     * @param reuse true for {@link Query#eachReused}: one row object for every result
     */
    SingleRows(ResultShape shape, boolean reuse) {
        this.shape = shape;
        this.shareable = shareable(shape);
        this.scratch = new long[QueryRow.dataLength(shape.variableSlots().length, shape.fieldCount())];
        this.reused = reuse ? new QueryRow(null, 0, 0) : null;
        this.located = reuse && !shareable ? RowGroup.reusable(shape) : null;
    }

    /** True when no field of {@code shape} can have a located variable source: its rows matched alike can share their group. */
    static boolean shareable(ResultShape shape) {
        for (int s : shape.sourceSlots()) {
            if (s > 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Row {@code index} of group {@code g} with {@code $this} entity {@code thisEntity}: a new row,
     * or the reused one set to it.
     */
    QueryRow row(RowGroup g, long thisEntity, int index) {
        return reused == null ? new QueryRow(g, thisEntity, index) : reused.reset(g, thisEntity, index);
    }

    /**
     * The one result the bindings hold (not a table batch), as {@link Query}'s rows of a step would
     * give it, for a shape without located sources ({@link #shareable}): consecutive rows matched
     * alike share their group ({@link #shared}).
     */
    QueryRow sharedRow(Bindings b) {
        Table table = thisTable(b);
        return row(shared(b, table), b.value(0), table != null ? b.row(0) : 0);
    }

    /**
     * {@link #sharedRow} for a shape with located sources (not {@link #shareable}): they differ by
     * row, so nothing is shared; the data is captured straight into the row's own array, or, when
     * rows are reused, into the one reused group.
     */
    QueryRow locatedRow(Bindings b) {
        Table table = thisTable(b);
        int row = table != null ? b.row(0) : 0;
        if (located != null) {
            located.follow(b, table);
            return reused.reset(located, b.value(0), row);
        }
        // its own capture: the walks' compiled capture never saw a field sourced on another variable
        RowGroup g = RowGroup.of(shape, b, table, 0, TableResult.captureLocatedData(shape, b), null);
        return new QueryRow(g, b.value(0), row);
    }

    /**
     * The iteration is over: the reused row, if it answers from the bindings (a located row), now
     * answers for no result ({@link RowGroup#detach}), not from bindings the engine unbound.
     */
    void finish() {
        if (located != null) {
            located.detach();
            reused.clearIfIn(located);
        }
    }

    /**
     * The table {@code $this} was bound with, when its row there still holds it; else null. A row
     * whose entity is not in memory yet (a table read lazily from a stored world) is taken as
     * bound: its binder did not read it from the table, so it found it in the entity index
     * (a transitive walk's source), and the world does not change while a query runs.
     */
    private static Table thisTable(Bindings b) {
        Table t = b.table(0);
        int row = b.row(0);
        return t != null && row >= 0 && row < t.count() && (!t.rowInMemory(row) || t.entity(row) == b.value(0)) ? t : null;
    }

    /**
     * The group of offset 0 for rows of {@code table} (or null) matched as the bindings say,
     * one kept or a new one; null when the query's groups cannot be shared (located sources).
     * Only for rows without per-row ids.
     */
    RowGroup shared(Bindings b, Table table) {
        if (!shareable) {
            return null;
        }
        TableResult.captureData(shape, b, scratch);
        int slot = nextKept;
        for (int k = 0, at = nextKept; k < KEPT; k++) { // the most recent first
            at = at == 0 ? KEPT - 1 : at - 1;
            RowGroup g = kept[at];
            if (g == null) {
                break;
            }
            if (g.table == table) { // one group kept per table: one comparison when the data changes by batch
                if (Arrays.equals(g.data, scratch)) {
                    return g;
                }
                slot = at;
                break;
            }
        }
        RowGroup g = new RowGroup(shape, table, 0, scratch.clone(), null, null, null); // no located sources (shareable)
        kept[slot] = g;
        if (slot == nextKept) {
            nextKept = (nextKept + 1) % KEPT;
        }
        return g;
    }
}
