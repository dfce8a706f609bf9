package dev.quiver.query.iter;

import dev.quiver.index.Ids;
import dev.quiver.storage.Schema;
import dev.quiver.storage.World;
import dev.quiver.storage.table.Column;
import dev.quiver.storage.table.Table;

import java.util.Map;

/**
 * Reads a field's component value from its source entity: through {@link World#get(long, long)}
 * ({@link #value}), or in place from the source's table ({@link #column}).
 */
public final class FieldRead {
    private FieldRead() {}

    /**
     * The value of {@code id} on {@code source}.
     *
     * @param what names the field in messages
     * @throws FieldValueException when the id is a wildcard, carries no data, or the source has no value for it
     */
    public static Map<String, Object> value(World w, long source, long id, String what) {
        if (source == Ids.WILDCARD || Ids.isWildcard(id)) {
            throw new FieldValueException(what + " matched a wildcard, which has no value");
        }
        if (w.schema(id) == null) {
            throw new FieldValueException(what + " carries no data (a tag)");
        }
        Map<String, Object> m = w.get(source, id);
        if (m == null) {
            throw new FieldValueException(what + " has no value on " + w.idToString(source)
                    + " (a transitive or traversed id it does not own)");
        }
        return m;
    }

    /**
     * The data of {@code id} on {@code source} as a one-row column view, read in place from
     * {@code table} at {@code row} when the caller knows where the source lies (null table: looked
     * up through the entity index).
     *
     * @param what names the field in messages
     * @throws FieldValueException when the id is a wildcard, carries no data, or the source's table
     *     has no column for it (the source does not own it: inherited, traversed, transitive)
     * @throws dev.quiver.storage.DeadEntityException when the source is not alive (table looked up)
     */
    public static FieldColumn column(World w, Table table, int row, long source, long id, String what) {
        if (source == Ids.WILDCARD || Ids.isWildcard(id)) {
            throw new FieldValueException(what + " matched a wildcard, which has no value");
        }
        Table t = table;
        int r = row;
        if (t == null) {
            if (!w.isAlive(source)) {
                throw new dev.quiver.storage.DeadEntityException(what + ": its source " + source + " is not alive");
            }
            t = w.tableAccess().table(source);
            r = w.tableAccess().row(source);
        }
        Column c = t.column(id);
        if (c == null) {
            Schema s = w.schema(id);
            throw new FieldValueException(what + (s == null ? " carries no data (a tag)"
                    : " is not owned by " + w.idToString(source) + " (inherited, traversed or transitive):"
                    + " read it with get(field, type)"));
        }
        return new FieldColumn(c, r, 1, what);
    }
}
