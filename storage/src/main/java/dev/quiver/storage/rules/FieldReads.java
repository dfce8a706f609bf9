package dev.quiver.storage.rules;

import dev.quiver.storage.FieldType;
import dev.quiver.storage.ValueException;
import dev.quiver.storage.table.Column;

/**
 * Reads one number field of an owned or inherited component value without building a field map
 * or allocating (the hot path of pipelines that read numbers; Flecs' {@code get<T>} returns a
 * pointer). The value is found as {@link Values#get} finds it: the entity's own, else the nearest
 * IsA base's for an Inherit id. Not thread-safe (one scratch cell, like the world it serves).
 */
public final class FieldReads {
    private final Values values;
    private final Paths paths;
    private final Column[] cell = new Column[1];

    public FieldReads(Values values, Paths paths) {
        this.values = values;
        this.paths = paths;
    }

    /**
     * Field {@code field} of id {@code id}'s value on entity index {@code idx} as a double (f32,
     * f64, i32 and i64 convert).
     *
     * @throws ValueException when there is no value, no such field, or it is not a number field
     */
    public double getDouble(int idx, long e, long id, int field) {
        int row = values.locate(idx, id, cell);
        FieldType t = fieldType(e, id, row, field);
        switch (t) {
            case F64:
                return Double.longBitsToDouble(cell[0].word(field, row));
            case F32:
                return Float.intBitsToFloat((int) cell[0].word(field, row));
            case I32:
            case I64:
                return cell[0].word(field, row);
            default:
                throw new ValueException("field " + field + " of " + paths.idToString(id) + " is " + t + ", not a number");
        }
    }

    /**
     * Field {@code field} as a long (i32, i64, bool as 0/1, entity).
     *
     * @throws ValueException as {@link #getDouble}, or when the field is a float or string field
     */
    public long getLong(int idx, long e, long id, int field) {
        int row = values.locate(idx, id, cell);
        FieldType t = fieldType(e, id, row, field);
        if (t == FieldType.F32 || t == FieldType.F64 || t == FieldType.STRING) {
            throw new ValueException("field " + field + " of " + paths.idToString(id) + " is " + t + ", not integral");
        }
        return cell[0].word(field, row);
    }

    private FieldType fieldType(long e, long id, int row, int field) {
        if (row < 0) {
            throw new ValueException(paths.idToString(e) + " has no value of " + paths.idToString(id));
        }
        var fields = cell[0].schema().fields();
        if (field < 0 || field >= fields.size()) {
            throw new ValueException(paths.idToString(id) + " has no field " + field + " (it has " + fields.size() + ")");
        }
        return fields.get(field).type();
    }
}
