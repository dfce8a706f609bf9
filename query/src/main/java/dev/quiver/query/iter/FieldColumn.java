package dev.quiver.query.iter;

import dev.quiver.storage.Schema;
import dev.quiver.storage.table.Column;

import java.util.Map;
import java.util.Objects;

/**
 * The component data of one field over the rows of a {@link TableResult}, read from the table's
 * column without copying (pair data included: a pair's column holds the relationship's or the
 * target's schema, Flecs v4 pair type rules). Index {@code i} is the result's row {@code i}.
 * Valid while the world is not written (see {@link TableResult}).
 */
public final class FieldColumn {
    private final Column column;
    private final int offset;
    private final int size;
    private final String what;

    FieldColumn(Column column, int offset, int size, String what) {
        this.column = column;
        this.offset = offset;
        this.size = size;
        this.what = what;
    }

    /** The id the column stores (a component or a pair). */
    public long id() {
        return column.id();
    }

    /** The members. */
    public Schema schema() {
        return column.schema();
    }

    /** Number of rows. */
    public int size() {
        return size;
    }

    /**
     * A typed view of one member.
     *
     * @throws FieldValueException when the component has no such member
     */
    public MemberColumn member(String name) {
        return new MemberColumn(column, FieldValues.memberIndex(column.schema(), name, what), offset, size);
    }

    /** A typed view of member {@code index} (schema order). */
    public MemberColumn member(int index) {
        if (index < 0 || index >= column.schema().size()) {
            throw new FieldValueException(what + " has no member " + index + " (members: " + column.schema() + ")");
        }
        return new MemberColumn(column, index, offset, size);
    }

    /** Row {@code i}'s value as an ordered member map. */
    public Map<String, Object> row(int i) {
        return column.row(offset + Objects.checkIndex(i, size));
    }

    /**
     * Row {@code i}'s value as {@code type} ({@link FieldValues#convert}).
     *
     * @throws FieldValueException when the type does not fit
     */
    public <T> T get(int i, Class<T> type) {
        return FieldValues.convert(column.row(offset + Objects.checkIndex(i, size)), type, what);
    }
}
