package dev.quiver.query;

import dev.quiver.query.engine.Bindings;
import dev.quiver.query.engine.RowIds;
import dev.quiver.query.iter.ResultShape;
import dev.quiver.storage.table.Table;

/**
 * What the {@link QueryRow}s of one step of an iteration share, so that a row holds only its
 * {@code $this} entity, its index in the step and this: the query's shape (world, variable names,
 * field count), the {@code $this} table and the row of index 0 in it, the step's data in
 * {@link QueryRow}'s layout, the per-row ids, and, per field whose source is a variable other than
 * {@code $this}, the table and row the engine found that source in. Rows are made by the million
 * (RG-1 {@code (LocatedIn, $x)}: 6.5 million rows in 650,000 steps); a row that carried all of
 * this itself was 56 bytes, it is now 32. Immutable (nothing here is written after the step is
 * made).
 */
final class RowGroup {
    final ResultShape shape;
    /** The table of the rows' {@code $this} entities, or null when they were bound without it. */
    final Table table;
    /** The row in {@link #table} of the step's row 0. */
    final int offset;
    /** Variables, field ids, field sources, set bits, self bits ({@link QueryRow}'s layout). */
    final long[] data;
    /** Per field, the ids of the rows when they differ by row, else null; null when none do. */
    final RowIds[] rowIds;
    /** Per field, the table holding its (shared) source, or null; null when no field has one. */
    final Table[] sourceTables;
    /** Per field, the source's row in {@link #sourceTables}. */
    final int[] sourceRows;
    /** {@link dev.quiver.storage.World#writeCount()} when the step was made. */
    final long writeCount;

    RowGroup(ResultShape shape, Table table, int offset, long[] data, RowIds[] rowIds, Table[] sourceTables,
             int[] sourceRows) {
        this.shape = shape;
        this.table = table;
        this.offset = offset;
        this.data = data;
        this.rowIds = rowIds;
        this.sourceTables = sourceTables;
        this.sourceRows = sourceRows;
        this.writeCount = shape.world().writeCount();
    }

    /**
     * A group whose located sources are read from the bindings: for each field whose term's source
     * is a variable other than {@code $this} ({@link ResultShape#sourceSlots()}), the table and row
     * the engine bound that variable with, when it did and the field's source is that variable's
     * entity (a traversed field's source is another entity).
     */
    static RowGroup of(ResultShape shape, Bindings b, Table table, int offset, long[] data, RowIds[] rowIds) {
        int[] slots = shape.sourceSlots();
        Table[] tables = null;
        int[] rows = null;
        for (int f = 0; f < slots.length; f++) {
            int s = slots[f];
            if (s > 0 && b.fieldSet(f) && b.table(s) != null && b.value(s) == b.fieldSource(f)) {
                if (tables == null) {
                    tables = new Table[slots.length];
                    rows = new int[slots.length];
                }
                tables[f] = b.table(s);
                rows[f] = b.row(s);
            }
        }
        return new RowGroup(shape, table, offset, data, rowIds, tables, rows);
    }
}
