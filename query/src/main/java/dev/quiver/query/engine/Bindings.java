package dev.quiver.query.engine;

import dev.quiver.storage.table.Table;

/**
 * The state of one evaluation at the moment a result is yielded: the value of every variable slot
 * and every field. Valid only inside {@link Evaluator.Sink#accept}; copy what you keep.
 */
public final class Bindings {
    final long[] values;
    final Table[] tables;
    final int[] rows;
    final long[] fieldIds;
    final long[] fieldSources;
    final boolean[] fieldSet;
    /** Rows of {@code tables[0]} this result stands for (from {@link #batchOffset}); 0 for one row ({@link #batchRows()}). */
    int batchRows;
    /** The first row of a batch in {@code tables[0]} ({@link #batchOffset()}). */
    int batchOffset;
    /** The entities of a batch's rows when the step knew them, else null ({@link #batchEntities()}). */
    long[] batchEntities;
    /** Per field: the ids of a batch's rows when they differ by row, else null ({@link #fieldRowIds}). */
    final RowIds[] rowIds;

    Bindings(int slots, int fields) {
        values = new long[slots];
        tables = new Table[slots];
        rows = new int[slots];
        fieldIds = new long[fields];
        fieldSources = new long[fields];
        fieldSet = new boolean[fields];
        rowIds = new RowIds[fields];
    }

    /** The entity bound to a slot, 0 when unbound. */
    public long value(int slot) {
        return values[slot];
    }

    /** The table the slot's entity was found in, or null when it was bound another way. */
    public Table table(int slot) {
        return tables[slot];
    }

    /** The row of the slot's entity in {@link #table(int)}; meaningless when that is null. */
    public int row(int slot) {
        return rows[slot];
    }

    /**
     * In a table-at-a-time run ({@link Evaluator#runTables}): when positive, this result stands for
     * rows {@link #batchOffset()} to {@code batchOffset() + batchRows() - 1} of
     * {@link #table(int) table(0)}, with {@code $this} bound to the first of them here; every field
     * whose source is {@code $this} has that row's entity as its source, a field with
     * {@link #fieldRowIds} has an id per row, and everything else is the same for each row. 0 when
     * the result is the one row {@link #row(int) row(0)}.
     */
    public int batchRows() {
        return batchRows;
    }

    /** The first row of a batch ({@link #batchRows()}) in {@link #table(int) table(0)}; 0 outside batches. */
    public int batchOffset() {
        return batchRows > 0 ? batchOffset : 0;
    }

    /**
     * For a batch ({@link #batchRows()}): the entities of its rows when the step that made it knew
     * them without reading the table ({@code batchEntities()[i]} that of row
     * {@code batchOffset() + i}; a transitive walk's sources, found in the entity index), so that
     * a table read lazily from a stored world need not read its rows; null otherwise (read them
     * from the table) and always null outside batches. Valid only during the yield: the engine
     * reuses the array.
     */
    public long[] batchEntities() {
        return batchRows > 0 ? batchEntities : null;
    }

    /**
     * For a batch ({@link #batchRows()}): the id field {@code field} matched on each of its rows,
     * {@link RowIds#id id(i)} for row {@code batchOffset() + i}, when the ids differ by row (a
     * wildcard pair term over non-fragmenting pairs, whose table holds only the marker
     * {@code (R, *)}); null when the field has the one id {@link #fieldId}, and always null outside
     * batches. A new object per batch, not reused by the engine: a sink may keep it.
     */
    public RowIds fieldRowIds(int field) {
        return batchRows > 0 && fieldSet[field] ? rowIds[field] : null;
    }

    /** The id matched by a field (0 when not set). */
    public long fieldId(int field) {
        return fieldSet[field] ? fieldIds[field] : 0;
    }

    /** The entity a field matched on (0 when not set). */
    public long fieldSource(int field) {
        return fieldSet[field] ? fieldSources[field] : 0;
    }

    /** True when the field is set (false for Not, unmatched Optional and equality terms). */
    public boolean fieldSet(int field) {
        return fieldSet[field];
    }
}
