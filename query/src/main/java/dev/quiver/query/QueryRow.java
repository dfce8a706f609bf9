package dev.quiver.query;

import dev.quiver.storage.table.Table;

import java.util.Arrays;
import java.util.List;

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
    private final List<String> names;
    private final long thisEntity;
    private final Table thisTable;
    private final int thisRow;
    private final int fields;
    /**
     * One array per row (rows are made by the million): the variable values, then each field's
     * id, then each field's source, then the set flags as a bitset of {@code (fields + 63) / 64}
     * words.
     */
    private final long[] data;

    QueryRow(List<String> names, long thisEntity, Table thisTable, int thisRow, int fields, long[] data) {
        this.names = names;
        this.thisEntity = thisEntity;
        this.thisTable = thisTable;
        this.thisRow = thisRow;
        this.fields = fields;
        this.data = data;
    }

    /** Length of the data array of a row with these counts. */
    static int dataLength(int variables, int fields) {
        return variables + 2 * fields + (fields + 63) / 64;
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
        return fieldSet(i) ? data[vars() + i] : 0;
    }

    /** The entity field {@code i} matched on (its source); 0 when not set; {@code *} for a {@code _} source. */
    public long fieldSource(int i) {
        return fieldSet(i) ? data[vars() + fields + i] : 0;
    }

    /** True when field {@code i} is set. */
    public boolean fieldSet(int i) {
        if (i < 0 || i >= fields) {
            throw new IndexOutOfBoundsException("field " + i + " of " + fields);
        }
        return (data[vars() + 2 * fields + (i >>> 6)] & (1L << i)) != 0;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof QueryRow)) {
            return false;
        }
        QueryRow r = (QueryRow) o;
        return thisEntity == r.thisEntity && fields == r.fields && Arrays.equals(data, r.data);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(thisEntity) * 31 + Arrays.hashCode(data);
    }

    @Override
    public String toString() {
        return "QueryRow[this=" + thisEntity + ", vars=" + Arrays.toString(variables()) + ", fields="
            + Arrays.toString(Arrays.copyOfRange(data, vars(), vars() + fields)) + "]";
    }
}
