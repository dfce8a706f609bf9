package dev.quiver.query.iter;

import dev.quiver.query.engine.Bindings;
import dev.quiver.query.engine.RowIds;
import dev.quiver.storage.Schema;
import dev.quiver.storage.World;
import dev.quiver.storage.table.Column;
import dev.quiver.storage.table.Table;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One step of a query iteration (Flecs v4 {@code ecs_iter_t} after {@code ecs_query_next}):
 * {@link #count()} results that share everything but their {@code $this} entity, usually a whole
 * table's rows ({@link #table()}, rows {@link #offset()} to {@code offset() + count() - 1}),
 * a run of a table's rows, or one row. The engine hands out whole tables when the term that binds
 * {@code $this} walks the component index and every later term only reads the table's type; a
 * transitive walk from a fixed target hands out the sources it finds in consecutive rows of one
 * table together, and a transitive variable over a non-fragmenting relationship the consecutive
 * rows with the same target; results of variables bound per row and of traversal come one row at
 * a time. A query without {@code $this} has one result per step ({@link #entity(int)} is 0).
 *
 * <p>Per step: each field's id ({@link #fieldId}), whether it is set, and its source: a field is
 * <em>self</em> ({@link #fieldIsSelf}) when its source is each row's own entity, and then its data
 * can be read as a column ({@link #column}); otherwise it is shared by the rows and
 * {@link #fieldSource(int)} names the entity it matched on (Flecs: a non-$this source). Variables
 * are the same for all rows of a step.
 *
 * <p>A field's id is usually the same for all rows. A wildcard pair term over a non-fragmenting
 * relationship ({@code (R, *)} with R DontFragment, FEATURES TRT-16) matches in tables that hold
 * only the marker {@code (R, *)}, each row with its own pair: such a table still comes as one step,
 * and the field's id is per row ({@link #fieldIdPerRow}, {@link #fieldId(int, int)},
 * {@link #fieldIds(int)}). A row with several targets of R comes as one single-row step per target.
 *
 * <p>Validity: the entity array and the columns are the table's own arrays, not copies. Every
 * accessor that reads them checks that the world has not been written since the step was made and
 * throws {@link WorldChangedException} otherwise. Immutable otherwise.
 */
public final class TableResult {
    private static final long[] NO_ENTITY = {0};

    private final ResultShape shape;
    private final long writeCount;
    private final Table table;
    private final long[] entities;
    private final int offset;
    private final int count;
    /** Variables, then field ids, then field sources, then set bits, then self bits (bitsets of (fields + 63) / 64 words). */
    private final long[] data;
    /** Per field: the id of each row (entry i for row i) when it differs by row, else null; null when no field has per-row ids. */
    private final RowIds[] rowIds;

    private TableResult(ResultShape shape, Table table, long[] entities, int offset, int count, long[] data, RowIds[] rowIds) {
        this.shape = shape;
        this.writeCount = shape.world().writeCount();
        this.table = table;
        this.entities = entities;
        this.offset = offset;
        this.count = count;
        this.data = data;
        this.rowIds = rowIds;
    }

    /**
     * Internal (called by the query as the engine yields): copies the current bindings into a step.
     */
    public static TableResult capture(ResultShape shape, Bindings b) {
        int nf = shape.fieldCount();
        long[] data = captureData(shape, b);
        if (!shape.hasThis()) {
            return new TableResult(shape, null, NO_ENTITY, 0, 1, data, null);
        }
        long self = b.value(0);
        Table t = b.table(0);
        if (t != null && b.batchRows() > 0) {
            return new TableResult(shape, t, t.entities(b.batchOffset(), b.batchOffset() + b.batchRows()), b.batchOffset(),
                b.batchRows(), data, rowIds(b, nf));
        }
        int row = b.row(0);
        if (t != null && row >= 0 && row < t.count() && t.entity(row) == self) {
            return new TableResult(shape, t, t.entities(row, row + 1), row, 1, data, null);
        }
        return new TableResult(shape, null, new long[] {self}, 0, 1, data, null);
    }

    /**
     * Internal (for {@link dev.quiver.query.Query}'s row-by-row iteration, which builds rows from
     * the bindings without a step object): the current bindings in the layout of
     * {@link #sharedData}, a new array.
     */
    public static long[] captureData(ResultShape shape, Bindings b) {
        int nv = shape.variableSlots().length, nf = shape.fieldCount(), words = (nf + 63) / 64;
        return captureData(shape, b, new long[nv + 2 * nf + 2 * words]);
    }

    /**
     * {@link #captureData(ResultShape, Bindings)} into {@code out} (of that length, every entry
     * written), for a caller that keeps the previous step's array when the new one equals it. A
     * self field's source entry is 0 (the source is each row's entity), so that the data of
     * consecutive single rows matched the same way is equal.
     */
    public static long[] captureData(ResultShape shape, Bindings b, long[] out) {
        int nv = shape.variableSlots().length, nf = shape.fieldCount(), words = (nf + 63) / 64;
        long[] data = out;
        java.util.Arrays.fill(data, nv, data.length, 0L);
        for (int i = 0; i < nv; i++) {
            data[i] = b.value(shape.variableSlots()[i]);
        }
        long self = shape.hasThis() ? b.value(0) : 0;
        for (int f = 0; f < nf; f++) {
            if (!b.fieldSet(f)) {
                continue;
            }
            long src = b.fieldSource(f);
            data[nv + f] = b.fieldId(f);
            data[nv + 2 * nf + (f >>> 6)] |= 1L << f;
            if (self != 0 && src == self && shape.thisSourced()[f]) {
                data[nv + 2 * nf + words + (f >>> 6)] |= 1L << f;
            } else {
                data[nv + nf + f] = src;
            }
        }
        return data;
    }

    /**
     * {@link #captureData(ResultShape, Bindings)} for a single row of a shape with located variable
     * sources (a join's {@code Position($y)}), a new array. The same data as the walks' capture
     * (each entry written once, no clearing pass first), on purpose a method of its own: the JIT compiles the walks' capture for rows whose fields are
     * all sourced on {@code $this}, and a join's first row, with a field sourced on {@code $y},
     * would throw that compilation away (RG-1: in the join's first run, after trans and transvar).
     */
    public static long[] captureLocatedData(ResultShape shape, Bindings b) {
        int nv = shape.variableSlots().length, nf = shape.fieldCount(), words = (nf + 63) / 64;
        return captureLocatedData(shape, b, new long[nv + 2 * nf + 2 * words]);
    }

    /**
     * {@link #captureLocatedData(ResultShape, Bindings)} into {@code out} (of that length, every
     * entry written): the reused row of {@code Query.eachReused} captures each located row into
     * one array.
     */
    public static long[] captureLocatedData(ResultShape shape, Bindings b, long[] out) {
        // each entry written once, the bit words last (no clearing pass first: it runs once per
        // located row, RG-1 join 10,000 a run, mostly before the JIT's second tier)
        int[] slots = shape.variableSlots();
        int nv = slots.length, nf = shape.fieldCount(), words = (nf + 63) / 64;
        long[] data = out;
        for (int i = 0; i < nv; i++) {
            data[i] = b.value(slots[i]);
        }
        boolean[] thisSourced = shape.thisSourced();
        long self = shape.hasThis() ? b.value(0) : 0;
        long set = 0, selfBits = 0;
        for (int f = 0; f < nf; f++) {
            if (!b.fieldSet(f)) {
                data[nv + f] = 0;
                data[nv + nf + f] = 0;
            } else {
                long src = b.fieldSource(f);
                data[nv + f] = b.fieldId(f);
                set |= 1L << f;
                if (self != 0 && src == self && thisSourced[f]) {
                    selfBits |= 1L << f;
                    data[nv + nf + f] = 0;
                } else {
                    data[nv + nf + f] = src;
                }
            }
            if ((f & 63) == 63 || f == nf - 1) { // a word of bits complete
                data[nv + 2 * nf + (f >>> 6)] = set;
                data[nv + 2 * nf + words + (f >>> 6)] = selfBits;
                set = 0;
                selfBits = 0;
            }
        }
        return data;
    }

    /**
     * The per-row ids of a batch's fields (the engine's fresh arrays, not copied), or null when
     * every field has one id. Internal, like {@link #captureData}.
     */
    public static RowIds[] rowIds(Bindings b, int nf) {
        RowIds[] out = null;
        for (int f = 0; f < nf; f++) {
            RowIds ids = b.fieldRowIds(f);
            if (ids != null) {
                if (out == null) {
                    out = new RowIds[nf];
                }
                out[f] = ids;
            }
        }
        return out;
    }

    private void checkFresh() {
        if (shape.world().writeCount() != writeCount) {
            throw new WorldChangedException("the world was written after this query result was produced; "
                    + "its table rows may have moved (finish or close the iteration before writing)");
        }
    }

    /** Number of results in this step (rows of {@link #table()}, or 1). */
    public int count() {
        return count;
    }

    /**
     * The table holding the rows' {@code $this} entities, or null when {@code $this} was bound
     * without its table (single-row steps from reverse-index walks) or the query has no
     * {@code $this}.
     */
    public Table table() {
        return table;
    }

    /** The first row of this step in {@link #table()} (0 when that is null: {@link #entities()} then holds just this step's entity). */
    public int offset() {
        return offset;
    }

    /**
     * The {@code $this} entities: positions {@link #offset()} to {@code offset() + count() - 1}
     * of the returned array. The table's own array, not a copy: do not modify it.
     *
     * @throws WorldChangedException when the world was written since this step was made
     */
    public long[] entities() {
        checkFresh();
        return entities;
    }

    /** The {@code $this} entity of row {@code i} (0 to {@code count() - 1}); 0 when the query has no {@code $this}. */
    public long entity(int i) {
        checkFresh();
        return entities[offset + Objects.checkIndex(i, count)];
    }

    /**
     * Internal (for {@link dev.quiver.query.Query}'s rows, which share it instead of copying it per
     * row): checks that row {@code i} exists and that the world was not written since this step
     * was made, and returns the step's data in {@code QueryRow}'s layout: the variables, each
     * field's id, each field's source, the set bits, the self bits (a self field's source is the
     * row's entity). Do not modify it.
     *
     * @throws WorldChangedException when the world was written since this step was made
     */
    public long[] sharedData(int i) {
        checkFresh();
        Objects.checkIndex(i, count);
        return data;
    }

    /** Internal (with {@link #sharedData}): per field the ids of the rows when they differ by row, else null; null when none do. Do not modify. */
    public RowIds[] sharedRowIds() {
        return rowIds;
    }

    /** Internal (for {@link dev.quiver.query.Query}'s rows): what every result of the query shares. */
    public ResultShape shape() {
        return shape;
    }

    /** The reported variable names (no {@code $this}), in first-appearance order. */
    public List<String> variableNames() {
        return shape.variableNames();
    }

    /** The variable values, in {@link #variableNames()} order (0 = unbound). */
    public long[] variables() {
        return Arrays.copyOf(data, shape.variableSlots().length);
    }

    /**
     * The value of a named variable (the same for all rows of the step).
     *
     * @param name with or without {@code $}; {@code "this"} is not allowed here (use {@link #entity(int)})
     * @throws IllegalArgumentException when the query has no such variable or it is {@code $this}
     */
    public long variable(String name) {
        int i = shape.variableIndex(name);
        if (i < 0) {
            throw new IllegalArgumentException("$this differs per row: use entity(row)");
        }
        return data[i];
    }

    /** Number of fields. */
    public int fieldCount() {
        return shape.fieldCount();
    }

    private int nv() {
        return shape.variableSlots().length;
    }

    /** True when field {@code f} is set (false for Not terms, unmatched optional terms and equality terms). */
    public boolean fieldSet(int f) {
        shape.checkField(f);
        return (data[nv() + 2 * shape.fieldCount() + (f >>> 6)] & (1L << f)) != 0;
    }

    /** True when field {@code f} is set and its source is each row's own {@code $this} entity. */
    public boolean fieldIsSelf(int f) {
        shape.checkField(f);
        int words = (shape.fieldCount() + 63) / 64;
        return (data[nv() + 2 * shape.fieldCount() + words + (f >>> 6)] & (1L << f)) != 0;
    }

    /**
     * The id field {@code f} matched, the same for every row of the step (as
     * {@link dev.quiver.query.QueryRow#fieldId}); 0 when not set.
     *
     * @throws FieldValueException when the field's id differs by row ({@link #fieldIdPerRow}): read
     *     {@link #fieldId(int, int)} or {@link #fieldIds(int)}
     */
    public long fieldId(int f) {
        if (fieldIdPerRow(f)) {
            throw new FieldValueException("field " + f + " has an id per row in this step (a wildcard over"
                    + " non-fragmenting pairs): read fieldId(field, row) or fieldIds(field)");
        }
        return fieldSet(f) ? data[nv() + f] : 0;
    }

    /**
     * True when field {@code f}'s id differs by row in this step: a wildcard pair term such as
     * {@code (R, *)} over a non-fragmenting R, matched in a table that holds R's marker. False for
     * an unset field and for single-row steps.
     */
    public boolean fieldIdPerRow(int f) {
        shape.checkField(f);
        return rowIds != null && rowIds[f] != null;
    }

    /**
     * The id field {@code f} matched for row {@code i} (0 to {@code count() - 1}); 0 when not set.
     *
     * @throws IndexOutOfBoundsException when there is no such row or field
     */
    public long fieldId(int f, int i) {
        Objects.checkIndex(i, count);
        if (fieldIdPerRow(f)) {
            return rowIds[f].id(i);
        }
        return fieldSet(f) ? data[nv() + f] : 0;
    }

    /**
     * The ids field {@code f} matched, one per row: entry {@code i} is row {@code i}'s (length
     * {@link #count()}). For a per-row field ({@link #fieldIdPerRow}) the step's own array, not a
     * copy (do not modify it); otherwise a new array holding {@link #fieldId(int)} (0 when the
     * field is not set) in every entry.
     */
    public long[] fieldIds(int f) {
        if (fieldIdPerRow(f)) {
            return rowIds[f].toArray();
        }
        long[] out = new long[count];
        Arrays.fill(out, fieldSet(f) ? data[nv() + f] : 0);
        return out;
    }

    /**
     * The entity a shared field matched on; 0 for a self field (its source is each row's entity,
     * {@link #fieldSource(int, int)}) and for an unset field.
     */
    public long fieldSource(int f) {
        return fieldSet(f) && !fieldIsSelf(f) ? data[nv() + shape.fieldCount() + f] : 0;
    }

    /** The source of field {@code f} for row {@code i}: the row's entity for a self field; 0 when not set. */
    public long fieldSource(int f, int i) {
        if (!fieldSet(f)) {
            return 0;
        }
        return fieldIsSelf(f) ? entity(i) : data[nv() + shape.fieldCount() + f];
    }

    private String what(int f) {
        long id = fieldIdPerRow(f) ? 0 : fieldId(f);
        return "field " + f + (id == 0 ? "" : " (" + shape.world().idToString(id) + ")");
    }

    /**
     * The data of a self field as a column over this step's rows, read from the table without
     * copying.
     *
     * @throws FieldValueException when the field is not set, not self (its value is shared: use
     *     {@link #get(int, int, Class)}), or its id carries no data here
     * @throws WorldChangedException when the world was written since this step was made
     */
    public FieldColumn column(int f) {
        checkFresh();
        if (!fieldSet(f)) {
            throw new FieldValueException(what(f) + " is not set");
        }
        if (!fieldIsSelf(f)) {
            throw new FieldValueException(what(f) + " is matched on " + shape.world().idToString(fieldSource(f))
                    + ", not on each row's entity: read its one value with get(field, row, type)");
        }
        if (fieldIdPerRow(f)) {
            throw new FieldValueException(what(f) + " carries no data (a non-fragmenting pair, its id differs by row)");
        }
        long id = fieldId(f);
        Table t = table;
        int start = offset;
        if (t == null) {
            World w = shape.world();
            t = w.tableAccess().table(entities[0]);
            start = w.tableAccess().row(entities[0]);
        }
        Column c = t.column(id);
        if (c == null) {
            Schema s = shape.world().schema(id);
            throw new FieldValueException(what(f) + (s == null ? " carries no data (a tag)"
                    : " is not owned by these entities (inherited): read it with get(field, row, type)"));
        }
        return new FieldColumn(c, start, count, what(f));
    }

    /**
     * The component value of field {@code f} on its source for row {@code i}, as an ordered member
     * map (what {@link World#get(long, long)} gives, inherited values included).
     *
     * @throws FieldValueException when the field is not set or carries no value on its source
     */
    public Map<String, Object> value(int f, int i) {
        long src = fieldSource(f, i);
        if (src == 0) {
            throw new FieldValueException(what(f) + " is not set");
        }
        return FieldRead.value(shape.world(), src, fieldId(f, i), what(f));
    }

    /**
     * The component value of field {@code f} for row {@code i} as {@code type}: {@code Map.class},
     * a record, or for a one-member component the member's Java type ({@link FieldValues#convert}).
     *
     * @throws FieldValueException when the field has no value or the type does not fit
     */
    public <T> T get(int f, int i, Class<T> type) {
        return FieldValues.convert(value(f, i), type, what(f));
    }

    /**
     * One member of field {@code f}'s value for row {@code i}.
     *
     * @throws FieldValueException when there is no such member or it is not of {@code type}
     */
    public <T> T get(int f, int i, String member, Class<T> type) {
        return FieldValues.member(value(f, i), member, type, what(f));
    }

    @Override
    public String toString() {
        return "TableResult[" + (table == null ? "row" : table) + ", offset=" + offset + ", count=" + count + "]";
    }
}
