package dev.quiver.query;

import dev.quiver.query.engine.RowIds;
import dev.quiver.query.iter.FieldRead;
import dev.quiver.query.iter.FieldValueException;
import dev.quiver.query.iter.FieldValues;
import dev.quiver.storage.World;
import dev.quiver.storage.table.Table;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * One result of a {@link Query}: the {@code $this} entity, the value of each named variable and,
 * per field, the id it matched, the entity it matched on and whether it is set (Flecs v4 iterator
 * fields, 0-based; FEATURES.md QS-06). Immutable.
 *
 * <p>Fields correspond to the written terms, except that an Or chain {@code A || B} is one field
 * and a Not scope {@code !{...}} has none (QS-10). A field is not set for Not terms, for optional
 * terms that did not match, for dependent terms that were skipped and for equality terms.
 */
public final class QueryRow {
    private final World world;
    private final List<String> names;
    private final long thisEntity;
    private final Table thisTable;
    private final int thisRow;
    private final int fields;
    /**
     * Shared by the rows of one query step (rows are made by the million; the array is never
     * written after the step is made): the variable values, then each field's id, then each
     * field's source, then the set flags and the self flags as bitsets of {@code (fields + 63) / 64}
     * words each. A self field's source is the row's {@code $this}.
     */
    private final long[] data;
    /** Per field, the ids of the step's rows when they differ by row, else null; null when none do. */
    private final RowIds[] rowIds;
    /** This row's position in {@link #rowIds}. */
    private final int rowIndex;

    QueryRow(World world, List<String> names, long thisEntity, Table thisTable, int thisRow, int fields, long[] data,
             RowIds[] rowIds, int rowIndex) {
        this.world = world;
        this.names = names;
        this.thisEntity = thisEntity;
        this.thisTable = thisTable;
        this.thisRow = thisRow;
        this.fields = fields;
        this.data = data;
        this.rowIds = rowIds;
        this.rowIndex = rowIndex;
    }

    /** Length of the data array of a row with these counts (the layout of {@link #data}). */
    static int dataLength(int variables, int fields) {
        return variables + 2 * fields + 2 * ((fields + 63) / 64);
    }

    private int vars() {
        return names.size();
    }

    /** The {@code $this} entity; 0 when the query has no {@code $this} ({@link Query#hasThis()}). */
    public long thisEntity() {
        return thisEntity;
    }

    /**
     * The table holding {@link #thisEntity()} when the engine found it by walking tables (for
     * reading columns without a lookup), else null.
     */
    public Table thisTable() {
        return thisTable;
    }

    /** The row of {@link #thisEntity()} in {@link #thisTable()}; -1 when that is null. */
    public int thisRow() {
        return thisTable == null ? -1 : thisRow;
    }

    /**
     * The value of a variable.
     *
     * @param name a variable of the query, with or without '$' ({@code "this"} gives
     *     {@link #thisEntity()})
     * @return the bound entity, 0 when the variable is not bound in this result
     * @throws IllegalArgumentException when the query has no such variable
     */
    public long variable(String name) {
        String n = name.startsWith("$") ? name.substring(1) : name;
        if (n.equals("this") || n.equals("This")) {
            return thisEntity;
        }
        int i = names.indexOf(n);
        if (i < 0) {
            throw new IllegalArgumentException("query has no variable '$" + n + "'");
        }
        return data[i];
    }

    /** Values of the named variables, in {@link Query#variableNames()} order (0 = unbound). */
    public long[] variables() {
        return Arrays.copyOf(data, vars());
    }

    /** Number of fields. */
    public int fieldCount() {
        return fields;
    }

    /**
     * The id field {@code i} matched, for example {@code (KindOf, canine_n_02)} for
     * {@code (KindOf, $x)} or the stored pair for {@code (R, *)}; for a transitive term the pair
     * (R, target); {@code _} positions report {@code *}. 0 when the field is not set.
     */
    public long fieldId(int i) {
        if (!fieldSet(i)) {
            return 0;
        }
        return rowIds != null && rowIds[i] != null ? rowIds[i].id(rowIndex) : data[vars() + i];
    }

    /** The entity field {@code i} matched on (its source); 0 when not set; {@code *} for a {@code _} source. */
    public long fieldSource(int i) {
        if (!fieldSet(i)) {
            return 0;
        }
        int words = (fields + 63) / 64;
        return (data[vars() + 2 * fields + words + (i >>> 6)] & (1L << i)) != 0 ? thisEntity : data[vars() + fields + i];
    }

    /** True when field {@code i} is set. */
    public boolean fieldSet(int i) {
        if (i < 0 || i >= fields) {
            throw new IndexOutOfBoundsException("field " + i + " of " + fields);
        }
        return (data[vars() + 2 * fields + (i >>> 6)] & (1L << i)) != 0;
    }

    private String what(int i) {
        long id = fieldId(i);
        return "field " + i + (id == 0 ? "" : " (" + world.idToString(id) + ")");
    }

    /**
     * The component value of field {@code i}: the value of its id on its source, read from the
     * world ({@link World#get(long, long)}, so an inherited value reads the IsA base's), as an
     * ordered member map. Pairs carry data too (the relationship's or the target's schema).
     *
     * @throws FieldValueException when the field is not set, matched a wildcard, carries no data (a
     *     tag), or its source does not own or inherit it (a transitive field's (R, target) pair)
     * @throws dev.quiver.storage.DeadEntityException when the source was deleted since
     */
    public Map<String, Object> value(int i) {
        if (!fieldSet(i)) {
            throw new FieldValueException(what(i) + " is not set");
        }
        return FieldRead.value(world, fieldSource(i), fieldId(i), what(i));
    }

    /**
     * The component value of field {@code i} as {@code type}: {@code Map.class} (member map), a
     * record whose components are named like the members, or, for a component with one member,
     * that member's Java type (Double for f64, Float, Integer, Long, Boolean, String; Long for an
     * entity member; primitive classes allowed).
     *
     * @throws FieldValueException as {@link #value(int)}, or when the type does not fit
     */
    public <T> T get(int i, Class<T> type) {
        return FieldValues.convert(value(i), type, what(i));
    }

    /**
     * One member of field {@code i}'s value, e.g. {@code get(0, "x", Double.class)}.
     *
     * @throws FieldValueException as {@link #value(int)}, when there is no such member, or when it
     *     is not of {@code type}
     */
    public <T> T get(int i, String member, Class<T> type) {
        return FieldValues.member(value(i), member, type, what(i));
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof QueryRow)) {
            return false;
        }
        QueryRow r = (QueryRow) o;
        if (thisEntity != r.thisEntity || fields != r.fields || !Arrays.equals(variables(), r.variables())) {
            return false;
        }
        for (int f = 0; f < fields; f++) {
            if (fieldSet(f) != r.fieldSet(f) || fieldId(f) != r.fieldId(f) || fieldSource(f) != r.fieldSource(f)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        int h = Long.hashCode(thisEntity) * 31 + Arrays.hashCode(variables());
        for (int f = 0; f < fields; f++) {
            h = h * 31 + (fieldSet(f) ? Long.hashCode(fieldId(f) * 31 + fieldSource(f)) : 1);
        }
        return h;
    }

    @Override
    public String toString() {
        long[] ids = new long[fields];
        for (int f = 0; f < fields; f++) {
            ids[f] = fieldSet(f) ? fieldId(f) : 0;
        }
        return "QueryRow[this=" + thisEntity + ", vars=" + Arrays.toString(variables()) + ", fields="
            + Arrays.toString(ids) + "]";
    }
}
