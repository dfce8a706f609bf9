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
 * {@link Query#eachReused} call, which holds no copy of the row but reads the engine's bindings
 * while the row's callback runs ({@link #follow}; copying them for each row cost RG-1's join
 * about 14% while its code was not compiled by the JIT's second tier); {@link #snapshot} gives an
 * immutable copy.
 */
final class RowGroup {
    final ResultShape shape;
    /**
     * The table of the rows' {@code $this} entities, or null when they were bound without it
     * (set by {@link #follow} in a {@link #reusable} group).
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
    /** True for the group {@link #reusable} makes: it reads the bindings it {@link #follow}s. */
    final boolean reused;
    /**
     * The bindings a {@link #reusable} group answers from ({@link #follow}), or null: then
     * {@link #data} and the source arrays hold the answers.
     */
    private Bindings live;
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
    }

    /**
     * The one group of every located single row of a {@link Query#eachReused} call (a shape with
     * a field sourced on a variable other than {@code $this}): offset 0, no data of its own; each
     * row {@link #follow}s the engine's bindings. Made while the world refuses writes, so its
     * {@link #writeCount} holds for the whole call.
     */
    static RowGroup reusable(ResultShape shape) {
        long[] none = new long[QueryRow.dataLength(shape.variableSlots().length, shape.fieldCount())];
        return new RowGroup(shape, null, 0, none, null, null, null, -1, null, -1, shape.world().writeCount(), true);
    }

    /**
     * Makes this {@link #reusable} group answer for the single row the bindings hold now, as
     * {@link #of}{@code (shape, b, table, 0, captured data, null)} would: the {@code $this} table
     * (or null), the variables, fields and located sources read from {@code b} when asked, so
     * only while the row's callback runs (the engine goes on to other bindings after it, and
     * {@link #detach} ends it with the iteration). Copies and allocates nothing.
     */
    void follow(Bindings b, Table thisTable) {
        table = thisTable;
        live = b;
    }

    /**
     * Ends a {@link #reusable} group's reading of the bindings (the iteration is over, the engine
     * unbound them): it answers for no result from now on, every variable 0 and every field unset.
     */
    void detach() {
        table = null;
        live = null;
    }

    /** The value of variable {@code i} ({@link ResultShape#variableSlots()} order). */
    long variable(int i) {
        return live != null ? live.value(shape.variableSlots()[i]) : data[i];
    }

    /** The values of the variables, in {@link ResultShape#variableSlots()} order (a new array). */
    long[] variables() {
        if (live == null) {
            return java.util.Arrays.copyOf(data, vars);
        }
        long[] out = new long[vars];
        for (int i = 0; i < vars; i++) {
            out[i] = variable(i);
        }
        return out;
    }

    /** True when field {@code i} is set (a valid field index). */
    boolean fieldSet(int i) {
        return live != null ? live.fieldSet(i) : (data[vars + 2 * fields + (i >>> 6)] & (1L << i)) != 0;
    }

    /** The id set field {@code i} matched at row {@code index} of the step. */
    long fieldId(int i, int index) {
        if (live != null) {
            return live.fieldId(i);
        }
        return rowIds != null && rowIds[i] != null ? rowIds[i].id(index) : data[vars + i];
    }

    /** The source of set field {@code i} when it is not the row's {@code $this} ({@link #self}). */
    long fieldSource(int i) {
        return live != null ? live.fieldSource(i) : data[vars + fields + i];
    }

    /**
     * The table of set field {@code i}'s source ({@link QueryRow#fieldTable}): {@link #table} when
     * the source is the row's {@code $this}, else {@link #sourceTable}. Live, in one pass over the
     * bindings (a join reads it and {@link #fieldRow} for every row).
     */
    Table fieldTable(int i) {
        Bindings b = live;
        if (b == null) {
            return self(i) ? table : sourceTable(i);
        }
        int s = liveSource(b, i);
        return s < 0 ? table : s > 0 ? b.table(s) : null;
    }

    /**
     * The row of set field {@code i}'s source in {@link #fieldTable} ({@code thisRow} when that is
     * {@link #table}), -1 when that is null.
     */
    int fieldRow(int i, int thisRow) {
        Bindings b = live;
        if (b == null) {
            if (self(i)) {
                return thisRow;
            }
            return sourceTable(i) == null ? -1 : sourceRow(i);
        }
        int s = liveSource(b, i);
        return s < 0 ? thisRow : s > 0 ? b.row(s) : -1;
    }

    /**
     * Where set field {@code i}'s source was bound, read from the bindings {@code b} a
     * {@link #follow}ing group answers from: -1 when it is the row's {@code $this} (as
     * {@link TableResult#captureLocatedData} marks it), the slot of the variable other than
     * {@code $this} that was bound with its table when it is that variable's entity (as
     * {@link #locatedSource}), else 0 (no table known).
     */
    private int liveSource(Bindings b, int i) {
        long src = b.fieldSource(i);
        if (src != 0 && shape.thisSourced()[i] && shape.hasThis() && src == b.value(0)) {
            return -1;
        }
        int s = shape.sourceSlots()[i];
        return s > 0 && b.table(s) != null && b.value(s) == src ? s : 0;
    }

    /** True when set field {@code i}'s source is the row's {@code $this}. */
    boolean self(int i) {
        if (live != null) {
            return liveSource(live, i) < 0;
        }
        int words = (fields + 63) / 64;
        return (data[vars + 2 * fields + words + (i >>> 6)] & (1L << i)) != 0;
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
        if (live == null) { // detached: no result (data stays all zero)
            return new RowGroup(shape, null, 0, data.clone(), null, null, null);
        }
        return of(shape, live, table, 0, TableResult.captureLocatedData(shape, live), null);
    }

    /** The table the engine found field {@code f}'s (shared, non-self) source in, or null (a group not {@link #follow}ing). */
    private Table sourceTable(int f) {
        if (sourceTables != null) {
            return sourceTables[f];
        }
        return f == oneField ? oneTable : null;
    }

    /** The row of field {@code f}'s source in {@link #sourceTable}. */
    private int sourceRow(int f) {
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
