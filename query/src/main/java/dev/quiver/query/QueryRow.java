package dev.quiver.query;

import dev.quiver.query.iter.FieldColumn;
import dev.quiver.query.iter.FieldRead;
import dev.quiver.query.iter.FieldValueException;
import dev.quiver.query.iter.FieldValues;
import dev.quiver.query.iter.WorldChangedException;
import dev.quiver.storage.table.Table;

import java.util.Arrays;
import java.util.Map;

/**
 * One result of a {@link Query}: the {@code $this} entity, the value of each named variable and,
 * per field, the id it matched, the entity it matched on and whether it is set (Flecs v4 iterator
 * fields, 0-based; FEATURES.md QS-06). Immutable: a row kept after its callback (or collected by
 * {@link Query#rows(int)}) answers for its result as long as one likes, except the row that
 * {@link Query#eachReused} and {@link Query#forEachReused} hand out. Those pass one row object to
 * every call, set to each result in turn: it is valid only during the call it is passed to, and
 * afterwards answers for a later result or, once the iteration is over, possibly for none
 * ({@link #copy()} keeps one).
 *
 * <p>Fields correspond to the written terms, except that an Or chain {@code A || B} is one field
 * and a Not scope {@code !{...}} has none (QS-10). A field is not set for Not terms, for optional
 * terms that did not match, for dependent terms that were skipped and for equality terms.
 *
 * <p>Field data: {@link #get(int, Class)} reads a field's value from its source the way
 * {@link dev.quiver.storage.World#get(long, long)} does (inherited values included);
 * {@link #column(int)} reads it in place from the table the engine found the source in
 * ({@link #fieldTable(int)}, {@link #fieldRow(int)}), without looking the entity up.
 */
public final class QueryRow {
    /*
     * Not final: the reused row of Query.eachReused is set to each result by reset; every other
     * row is written once, by its constructor.
     */
    /** What the rows of this row's step share (shape, tables, data). */
    private RowGroup group;
    private long thisEntity;
    /** This row's index in its step: its row in the table is {@code group.offset + index}, its entry in the per-row ids. */
    private int index;

    QueryRow(RowGroup group, long thisEntity, int index) {
        this.group = group;
        this.thisEntity = thisEntity;
        this.index = index;
    }

    /** Sets the reused row of {@link Query#eachReused} to another result; returns this row. */
    QueryRow reset(RowGroup group, long thisEntity, int index) {
        this.group = group;
        this.thisEntity = thisEntity;
        this.index = index;
        return this;
    }

    /** Sets the reused row to no result when it answers from {@code g} (a group whose iteration ended). */
    void clearIfIn(RowGroup g) {
        if (group == g) {
            thisEntity = 0;
            index = 0;
        }
    }

    /**
     * This result as a row of its own, immutable, equal to this one: what a caller of
     * {@link Query#eachReused} keeps beyond its call (the row it was passed changes with the next
     * result). The copy shares what it can with this row (the step's data unless that is the
     * reused row's) and, like this row, reads the tables the result names, so its
     * {@link #column(int)} refuses once the world was written ({@link WorldChangedException}).
     */
    public QueryRow copy() {
        return new QueryRow(group.snapshot(), thisEntity, index);
    }

    /** Length of the data array of a row with these counts (the layout of {@link RowGroup#data}). */
    static int dataLength(int variables, int fields) {
        return variables + 2 * fields + 2 * ((fields + 63) / 64);
    }

    /** The {@code $this} entity; 0 when the query has no {@code $this} ({@link Query#hasThis()}). */
    public long thisEntity() {
        return thisEntity;
    }

    /**
     * The table holding {@link #thisEntity()} when the engine found it by walking tables (for
     * reading columns without a lookup), else null. Like every table and row a result names, valid
     * while the world is not written (rows move when it is).
     */
    public Table thisTable() {
        return group.table;
    }

    /** The row of {@link #thisEntity()} in {@link #thisTable()}; -1 when that is null. */
    public int thisRow() {
        return group.table == null ? -1 : group.offset + index;
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
        int i = group.shape.variableNames().indexOf(n);
        if (i < 0) {
            throw new IllegalArgumentException("query has no variable '$" + n + "'");
        }
        return group.variable(i);
    }

    /** Values of the named variables, in {@link Query#variableNames()} order (0 = unbound). */
    public long[] variables() {
        return group.variables();
    }

    /** Number of fields. */
    public int fieldCount() {
        return group.fields;
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
        return group.fieldId(i, index);
    }

    /** The entity field {@code i} matched on (its source); 0 when not set; {@code *} for a {@code _} source. */
    public long fieldSource(int i) {
        if (!fieldSet(i)) {
            return 0;
        }
        return group.self(i) ? thisEntity : group.fieldSource(i);
    }

    /** True when field {@code i} is set. */
    public boolean fieldSet(int i) {
        int fields = group.fields;
        if (i < 0 || i >= fields) {
            throw new IndexOutOfBoundsException("field " + i + " of " + fields);
        }
        return group.fieldSet(i);
    }

    /**
     * The table holding field {@code i}'s source when the engine found the source with its table,
     * so that its data can be read without looking the entity up: {@link #thisTable()} for a field
     * matched on {@code $this}; for a field matched on another variable (the {@code $y} of
     * {@code (Likes, $y), Position($y)}), the table the engine bound that variable with. Null when
     * the field is not set or its source was bound without its table (a fixed source, a traversed
     * or inherited match, a row made from a {@link dev.quiver.query.iter.TableResult}). The table
     * may not hold the field's id as a column (a tag, an inherited component). Valid while the
     * world is not written.
     *
     * @throws IndexOutOfBoundsException when there is no such field
     */
    public Table fieldTable(int i) {
        if (!fieldSet(i)) {
            return null;
        }
        return group.fieldTable(i);
    }

    /**
     * The row of field {@code i}'s source in {@link #fieldTable(int)}; -1 when that is null. (The
     * same tests as fieldTable's, made once: a join reads both for every row.)
     *
     * @throws IndexOutOfBoundsException when there is no such field
     */
    public int fieldRow(int i) {
        if (!fieldSet(i)) {
            return -1;
        }
        return group.fieldRow(i, thisRow());
    }

    /**
     * The data of field {@code i} on its source as a one-row column view (index 0), read from the
     * source's table without copying: {@link FieldColumn#member(String)} gives typed access
     * ({@code row.column(1).member("x").getDouble(0)}), pair data included. The table and row are
     * {@link #fieldTable(int)}'s when the engine located the source, else looked up.
     *
     * @throws FieldValueException when the field is not set, matched a wildcard, has an id per row
     *     (a non-fragmenting pair), carries no data (a tag), or its source does not own it
     *     (inherited, traversed or transitive: read it with {@link #get(int, Class)})
     * @throws WorldChangedException when the world was written since this row was made
     */
    public FieldColumn column(int i) {
        if (group.shape.world().writeCount() != group.writeCount) {
            throw new WorldChangedException("the world was written after this query row was produced; "
                    + "its table rows may have moved (read columns during the iteration)");
        }
        if (!fieldSet(i)) {
            throw new FieldValueException(what(i) + " is not set");
        }
        if (group.rowIds != null && group.rowIds[i] != null) {
            throw new FieldValueException(what(i) + " carries no data (a non-fragmenting pair, its id differs by row)");
        }
        return FieldRead.column(group.shape.world(), fieldTable(i), fieldRow(i), fieldSource(i), fieldId(i), what(i));
    }

    private String what(int i) {
        long id = fieldId(i);
        return "field " + i + (id == 0 ? "" : " (" + group.shape.world().idToString(id) + ")");
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
        return FieldRead.value(group.shape.world(), fieldSource(i), fieldId(i), what(i));
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
        int fields = fieldCount();
        if (thisEntity != r.thisEntity || fields != r.fieldCount() || !Arrays.equals(variables(), r.variables())) {
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
        for (int f = 0, fields = fieldCount(); f < fields; f++) {
            h = h * 31 + (fieldSet(f) ? Long.hashCode(fieldId(f) * 31 + fieldSource(f)) : 1);
        }
        return h;
    }

    @Override
    public String toString() {
        long[] ids = new long[fieldCount()];
        for (int f = 0; f < ids.length; f++) {
            ids[f] = fieldSet(f) ? fieldId(f) : 0;
        }
        return "QueryRow[this=" + thisEntity + ", vars=" + Arrays.toString(variables()) + ", fields="
            + Arrays.toString(ids) + "]";
    }
}
