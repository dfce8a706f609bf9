package dev.quiver.storage;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The member layout of a component: named, typed fields in declaration order (Flecs meta
 * struct). A component without a schema is a tag.
 */
public final class Schema {
    /** One member. */
    public record Field(String name, FieldType type) {}

    private final List<Field> fields;

    public Schema(List<Field> fields) {
        if (fields.isEmpty()) {
            throw new ValueException("a component schema needs at least one field");
        }
        var seen = new java.util.HashSet<String>();
        for (Field f : fields) {
            if (!seen.add(f.name())) {
                throw new ValueException("duplicate field '" + f.name() + "'");
            }
        }
        this.fields = List.copyOf(fields);
    }

    /** Builds a schema from alternating name/type arguments: {@code of("x", F64, "y", F64)}. */
    public static Schema of(Object... nameTypePairs) {
        var list = new ArrayList<Field>();
        for (int i = 0; i + 1 < nameTypePairs.length; i += 2) {
            list.add(new Field((String) nameTypePairs[i], (FieldType) nameTypePairs[i + 1]));
        }
        return new Schema(list);
    }

    /**
     * The schema of a Java record: one field per record component, mapped by Java type (float f32,
     * double f64, int i32, long i64, boolean bool, String string).
     *
     * @throws ValueException for a component of another type
     */
    public static Schema ofRecord(Class<? extends Record> type) {
        var list = new ArrayList<Field>();
        for (var rc : type.getRecordComponents()) {
            list.add(new Field(rc.getName(), javaType(rc.getName(), rc.getType())));
        }
        return new Schema(list);
    }

    static FieldType javaType(String name, Class<?> c) {
        if (c == float.class || c == Float.class) return FieldType.F32;
        if (c == double.class || c == Double.class) return FieldType.F64;
        if (c == int.class || c == Integer.class) return FieldType.I32;
        if (c == long.class || c == Long.class) return FieldType.I64;
        if (c == boolean.class || c == Boolean.class) return FieldType.BOOL;
        if (c == String.class) return FieldType.STRING;
        throw new ValueException("record component '" + name + "' has unsupported type " + c.getName());
    }

    public List<Field> fields() {
        return fields;
    }

    public int size() {
        return fields.size();
    }

    public Field field(int i) {
        return fields.get(i);
    }

    /** Index of a field by name, or -1. */
    public int indexOf(String name) {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** A value with every field at its zero value (0, false, ""), in field order. */
    public Map<String, Object> zero() {
        var m = new LinkedHashMap<String, Object>();
        for (Field f : fields) {
            m.put(f.name(), f.type() == FieldType.STRING ? "" : f.type().fromRaw(0));
        }
        return Collections.unmodifiableMap(m);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Schema && ((Schema) o).fields.equals(fields);
    }

    @Override
    public int hashCode() {
        return fields.hashCode();
    }

    @Override
    public String toString() {
        var sb = new StringBuilder("{");
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) sb.append(", ");
            sb.append(fields.get(i).name()).append(": ").append(fields.get(i).type().spelling());
        }
        return sb.append('}').toString();
    }
}
