package dev.quiver.storage;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The member layout of a component: named, typed fields in declaration order (Flecs meta
 * struct), each with an optional default value (Tecs {@code defaults}, FEATURES TEC-05): a
 * component added without a value, or set with some fields left out when it is new, takes the
 * defaults, and 0, false or "" where a field has none. A component without a schema is a tag.
 * Immutable.
 */
public final class Schema {
    /** One member. */
    public record Field(String name, FieldType type) {}

    private final List<Field> fields;
    /** Per field: null (no default), the raw word (a Long) of a number field, or a String. */
    private final Object[] defaults;

    public Schema(List<Field> fields) {
        this(fields, null);
    }

    private Schema(List<Field> fields, Object[] defaults) {
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
        this.defaults = defaults == null ? new Object[this.fields.size()] : defaults;
    }

    /**
     * This schema with default values for the named fields (the others keep theirs): numbers as
     * any {@link Number}, bool as Boolean, strings as String, entities as a Long id.
     *
     * @throws ValueException for an unknown field or a value that does not fit its type
     */
    public Schema withDefaults(Map<String, ?> values) {
        Object[] d = defaults.clone();
        for (Map.Entry<String, ?> en : values.entrySet()) {
            int f = indexOf(en.getKey());
            if (f < 0) {
                throw new ValueException("no field '" + en.getKey() + "' to give a default (fields: " + this + ")");
            }
            d[f] = raw(fields.get(f), en.getValue());
        }
        return new Schema(fields, d);
    }

    private static Object raw(Field f, Object v) {
        if (v == null) {
            throw new ValueException("field '" + f.name() + "': a default cannot be null");
        }
        if (f.type() == FieldType.STRING) {
            if (!(v instanceof String)) {
                throw new ValueException("field '" + f.name() + "' is a string, got " + FieldType.describe(v));
            }
            return v;
        }
        return f.type().toRaw(f.name(), v);
    }

    /**
     * Internal (storage codecs): a schema with raw defaults, per field null, a Long raw word or a
     * String, as {@link #defaultRaw} gives them.
     *
     * @throws ValueException when a raw default does not fit its field
     */
    public static Schema ofRaw(List<Field> fields, Object[] rawDefaults) {
        Schema s = new Schema(fields);
        if (rawDefaults.length != s.size()) {
            throw new ValueException(rawDefaults.length + " defaults for " + s.size() + " fields");
        }
        for (int f = 0; f < rawDefaults.length; f++) {
            Object d = rawDefaults[f];
            boolean string = s.field(f).type() == FieldType.STRING;
            if (d != null && (string ? !(d instanceof String) : !(d instanceof Long))) {
                throw new ValueException("field '" + s.field(f).name() + "': raw default " + d + " does not fit");
            }
        }
        return new Schema(fields, rawDefaults.clone());
    }

    /** The default of field {@code f}: null when it has none, else a Long raw word or a String. */
    public Object defaultRaw(int f) {
        return defaults[f];
    }

    /** True when some field has a default. */
    public boolean hasDefaults() {
        for (Object d : defaults) {
            if (d != null) {
                return true;
            }
        }
        return false;
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

    /** The value a component gets when added without one: each field's default, else its zero value. */
    public Map<String, Object> initial() {
        var m = new LinkedHashMap<String, Object>();
        for (int f = 0; f < fields.size(); f++) {
            Field fd = fields.get(f);
            Object d = defaults[f];
            if (fd.type() == FieldType.STRING) {
                m.put(fd.name(), d == null ? "" : d);
            } else {
                m.put(fd.name(), fd.type().fromRaw(d == null ? 0 : (Long) d));
            }
        }
        return Collections.unmodifiableMap(m);
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
        return o instanceof Schema && ((Schema) o).fields.equals(fields)
                && java.util.Arrays.equals(((Schema) o).defaults, defaults);
    }

    @Override
    public int hashCode() {
        return fields.hashCode() * 31 + java.util.Arrays.hashCode(defaults);
    }

    @Override
    public String toString() {
        var sb = new StringBuilder("{");
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) sb.append(", ");
            sb.append(fields.get(i).name()).append(": ").append(fields.get(i).type().spelling());
            if (defaults[i] != null) {
                Object d = defaults[i];
                sb.append(" = ").append(d instanceof String ? "\"" + d + "\"" : fields.get(i).type().fromRaw((Long) d));
            }
        }
        return sb.append('}').toString();
    }
}
