package dev.quiver.query;

import dev.quiver.query.engine.Bindings;
import dev.quiver.query.engine.RowIds;
import dev.quiver.query.iter.ResultShape;
import dev.quiver.query.iter.TableResult;
import dev.quiver.storage.table.Table;

/**
 * What the {@link QueryRow}s of one step of an iteration share, so that a row holds only its
 * {@code $this} entity, its index in the step and this: the query's shape (world, variable names,
 * field count), the {@code $this} table and the row of index 0 in it, the step's data in
 * {@link QueryRow}'s layout, the per-row ids, and, per field whose source is a variable other than
 * {@code $this}, the table and row the engine found that source in. Rows are made by the million
 * (RG-1 {@code (LocatedIn, $x)}: 6.5 million rows in 650,000 steps); a row that carried all of
 * this itself was 56 bytes, it is now 32. Immutable (nothing here is written after the step is
 * made), except a {@link #reusable} group: the one group of every located single row of a
 * {@link Query#eachReused} call, written again for each row ({@link #relocate}); {@link #snapshot}
 * gives an immutable copy.
 */
final class RowGroup {
    final ResultShape shape;
    /**
     * The table of the rows' {@code $this} entities, or null when they were bound without it
     * (written again by {@link #relocate} in a {@link #reusable} group).
     */
    Table table;
    /** The row in {@link #table} of the step's row 0. */
    final int offset;
    /** Variables, field ids, field sources, set bits, self bits ({@link QueryRow}'s layout). */
    final long[] data;
    /** Per field, the ids of the rows when they differ by row, else null; null when none do. */
    final RowIds[] rowIds;
    /**
     * Per field, the table holding its (shared) source, or null; null when at most one field has
     * one (that one is {@link #oneField}: a join's rows are single-row groups, two arrays fewer each).
     */
    final Table[] sourceTables;
    /** Per field, the source's row in {@link #sourceTables}. */
    final int[] sourceRows;
    /** The one field with a located source when {@link #sourceTables} is null, else -1. */
    final int oneField;
    /** {@link #oneField}'s source table and row. */
    final Table oneTable;
    final int oneRow;
    /** {@link dev.quiver.storage.World#writeCount()} when the step was made. */
    final long writeCount;
    /** True for the group {@link #reusable} makes: {@link #relocate} writes it again for each row. */
    final boolean reused;
    /**
     * The fields whose term's source is a variable other than {@code $this}
     * ({@link ResultShape#sourceSlots()} positive): the only ones {@link #relocate} can give a
     * located source.
     */
    private final int[] locatedFields;
    /** The shape's variable and field counts, read by every {@link QueryRow} accessor (one load instead of three). */
    final int vars;
    final int fields;

    RowGroup(ResultShape shape, Table table, int offset, long[] data, RowIds[] rowIds, Table[] sourceTables,
             int[] sourceRows) {
        this(shape, table, offset, data, rowIds, sourceTables, sourceRows, -1, null, -1, shape.world().writeCount(),
            false);
    }

    private RowGroup(ResultShape shape, Table table, int offset, long[] data, RowIds[] rowIds, Table[] sourceTables,
                     int[] sourceRows, int oneField, Table oneTable, int oneRow, long writeCount, boolean reused) {
        this.shape = shape;
        this.table = table;
        this.offset = offset;
        this.data = data;
        this.rowIds = rowIds;
        this.sourceTables = sourceTables;
        this.sourceRows = sourceRows;
        this.oneField = oneField;
        this.oneTable = oneTable;
        this.oneRow = oneRow;
        this.writeCount = writeCount;
        this.reused = reused;
        this.vars = shape.variableSlots().length;
        this.fields = shape.fieldCount();
        this.locatedFields = reused ? locatedFields(shape.sourceSlots()) : null;
    }

    /** The positions of the positive entries of {@code slots}. */
    private static int[] locatedFields(int[] slots) {
        return java.util.stream.IntStream.range(0, slots.length).filter(f -> slots[f] > 0).toArray();
    }

    /**
     * The one group of every located single row of a {@link Query#eachReused} call (a shape with
     * a field sourced on a variable other than {@code $this}): offset 0, its data array and
     * per-field source tables and rows made once and written for each row by {@link #relocate}.
     * Made while the world refuses writes, so its {@link #writeCount} holds for the whole call.
     */
    static RowGroup reusable(ResultShape shape) {
        int fields = shape.fieldCount();
        long[] data = new long[QueryRow.dataLength(shape.variableSlots().length, fields)];
        int[] rows = new int[fields];
        java.util.Arrays.fill(rows, -1); // the fields that never have a located source keep no table and row -1
        return new RowGroup(shape, null, 0, data, null, new Table[fields], rows, -1, null, -1,
            shape.world().writeCount(), true);
    }

    /**
     * Writes this {@link #reusable} group for the single row the bindings hold, as
     * {@link #of}{@code (shape, b, table, 0, captured data, null)} would make it: the {@code $this}
     * table (or null), the data and the located sources. Allocates nothing.
     */
    void relocate(Bindings b, Table thisTable) {
        table = thisTable;
        TableResult.captureLocatedData(shape, b, data);
        int[] slots = shape.sourceSlots();
        for (int f : locatedFields) { // the other fields keep no table and row -1 (reusable)
            int s = slots[f];
            if (locatedSource(b, s, f)) {
                sourceTables[f] = b.table(s);
                sourceRows[f] = b.row(s);
            } else {
                sourceTables[f] = null;
                sourceRows[f] = -1;
            }
        }
    }

    /**
     * This group when it is immutable; for a {@link #reusable} one, an immutable copy of what it
     * holds now (its data and sources copied, the same {@link #writeCount}), for
     * {@link QueryRow#copy()}.
     */
    RowGroup snapshot() {
        if (!reused) {
            return this;
        }
        return new RowGroup(shape, table, offset, data.clone(), rowIds, sourceTables.clone(), sourceRows.clone(), -1,
            null, -1, writeCount, false);
    }

    /** The table the engine found field {@code f}'s (shared, non-self) source in, or null. */
    Table sourceTable(int f) {
        if (sourceTables != null) {
            return sourceTables[f];
        }
        return f == oneField ? oneTable : null;
    }

    /** The row of field {@code f}'s source in {@link #sourceTable}. */
    int sourceRow(int f) {
        return sourceTables != null ? sourceRows[f] : oneRow;
    }

    /**
     * True when field {@code f}, whose term's source is variable slot {@code s}
     * ({@link ResultShape#sourceSlots()}), has a located source: the field is set, the engine bound
     * that variable ({@code s > 0}, not {@code $this}) with a table, and the field's source is that
     * variable's entity (a traversed field's source is another entity).
     */
    private static boolean locatedSource(Bindings b, int s, int f) {
        return s > 0 && b.fieldSet(f) && b.table(s) != null && b.value(s) == b.fieldSource(f);
    }

    /**
     * A group whose located sources are read from the bindings: for each field whose term's source
     * is a variable other than {@code $this} ({@link ResultShape#sourceSlots()}), the table and row
     * the engine bound that variable with, when it did and the field's source is that variable's
     * entity (a traversed field's source is another entity). For shapes that can have such a field
     * ({@link ResultShape#sourceSlots()} has a variable): the groups of the others are made with
     * the constructor, so that the JIT compiles this for located rows alone (RG-1: a join after the
     * walks had thrown away the walks' compilation, whose loop never found a located source).
     */
    static RowGroup of(ResultShape shape, Bindings b, Table table, int offset, long[] data, RowIds[] rowIds) {
        int[] slots = shape.sourceSlots();
        Table[] tables = null;
        int[] rows = null;
        int one = -1;
        for (int f = 0; f < slots.length; f++) {
            int s = slots[f];
            if (locatedSource(b, s, f)) {
                if (one < 0 && tables == null) {
                    one = f;
                    continue;
                }
                if (tables == null) {
                    tables = new Table[slots.length];
                    rows = new int[slots.length];
                    tables[one] = b.table(slots[one]);
                    rows[one] = b.row(slots[one]);
                }
                tables[f] = b.table(s);
                rows[f] = b.row(s);
            }
        }
        if (tables == null && one >= 0) {
            return new RowGroup(shape, table, offset, data, rowIds, null, null, one, b.table(slots[one]), b.row(slots[one]),
                shape.world().writeCount(), false);
        }
        return new RowGroup(shape, table, offset, data, rowIds, tables, rows);
    }
}
