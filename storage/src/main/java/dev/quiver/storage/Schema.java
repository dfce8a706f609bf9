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
 * defaults, and 0, false or "" where a field has none. A number field may also carry an
 * inclusive range (Flecs meta member {@code range}; FEATURES TEC-06: the CLI's schema-level
 * constraint): a value outside it is refused ({@link FieldRangeException}). A component without
 * a schema is a tag. Immutable.
 */
public final class Schema {
    /** One member. */
    public record Field(String name, FieldType type) {}

    /**
     * The inclusive range of a number field: {@code min <= value <= max}, either end infinite
     * when open. Integer values are compared as doubles (exact up to 2^53).
     */
    public record Range(double min, double max) {
        /** @throws ValueException when an end is NaN or {@code min > max} */
        public Range {
            if (Double.isNaN(min) || Double.isNaN(max) || min > max) {
                throw new ValueException("a range needs min <= max, got " + spelling(min, max));
            }
        }

        /** True when {@code v} lies in the range. */
        public boolean contains(double v) {
            return v >= min && v <= max;
        }

        @Override
        public String toString() {
            return spelling(min, max);
        }

        private static String spelling(double min, double max) {
            return "[" + end(min) + ".." + end(max) + "]";
        }

        private static String end(double x) {
            if (Double.isInfinite(x)) {
                return "";
            }
            return x == Math.rint(x) && Math.abs(x) < 1e15 ? Long.toString((long) x) : Double.toString(x);
        }
    }

    private final List<Field> fields;
    /** Per field: null (no default), the raw word (a Long) of a number field, or a String. */
    private final Object[] defaults;
    /** Per field: null (no range), or its range. */
    private final Range[] ranges;

    public Schema(List<Field> fields) {
        this(fields, null, null);
    }

    private Schema(List<Field> fields, Object[] defaults, Range[] ranges) {
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
        this.ranges = ranges == null ? new Range[this.fields.size()] : ranges;
        for (int f = 0; f < this.fields.size(); f++) {
            if (this.defaults[f] instanceof Long) {
                checkRaw(f, (Long) this.defaults[f], "the default of");
            }
        }
    }

    /**
     * This schema with an inclusive range on number field {@code field} (its other fields and
     * defaults as they are); an infinite end leaves that side open.
     *
     * @throws ValueException      for an unknown field, a field that is not a number (f32, f64,
     *                             i32, i64), or a malformed range
     * @throws FieldRangeException when the field's default lies outside the range
     */
    public Schema withRange(String field, double min, double max) {
        int f = indexOf(field);
        if (f < 0) {
            throw new ValueException("no field '" + field + "' to give a range (fields: " + this + ")");
        }
        FieldType t = fields.get(f).type();
        if (t == FieldType.BOOL || t == FieldType.STRING || t == FieldType.ENTITY) {
            throw new ValueException("field '" + field + "' is " + t.spelling() + ": only number fields take a range");
        }
        Range[] r = ranges.clone();
        r[f] = new Range(min, max);
        return new Schema(fields, defaults, r);
    }

    /** The range of field {@code f}, or null when it has none. */
    public Range range(int f) {
        return ranges[f];
    }

    /**
     * Checks a raw number word of field {@code f} against its range.
     *
     * @param what how to introduce the field in the message ("the default of", "set")
     * @throws FieldRangeException when it lies outside
     */
    public void checkRaw(int f, long raw, String what) {
        Range r = ranges[f];
        if (r == null) {
            return;
        }
        Object v = fields.get(f).type().fromRaw(raw);
        if (!r.contains(((Number) v).doubleValue())) {
            throw new FieldRangeException(what + " field '" + fields.get(f).name() + "': " + v + " lies outside its range " + r);
        }
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
        return new Schema(fields, d, ranges);
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
        return ofRaw(fields, rawDefaults, new Range[fields.size()]);
    }

    /** As {@link #ofRaw(List, Object[])}, with each field's range (null for none). */
    public static Schema ofRaw(List<Field> fields, Object[] rawDefaults, Range[] ranges) {
        Schema s = new Schema(fields);
        if (ranges.length != s.size()) {
            throw new ValueException(ranges.length + " ranges for " + s.size() + " fields");
        }
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
        for (int f = 0; f < ranges.length; f++) {
            FieldType t = s.field(f).type();
            if (ranges[f] != null && (t == FieldType.BOOL || t == FieldType.STRING || t == FieldType.ENTITY)) {
                throw new ValueException("field '" + s.field(f).name() + "' is " + t.spelling() + ": it cannot have a range");
            }
        }
        return new Schema(fields, rawDefaults.clone(), ranges.clone());
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
                && java.util.Arrays.equals(((Schema) o).defaults, defaults)
                && java.util.Arrays.equals(((Schema) o).ranges, ranges);
    }

    @Override
    public int hashCode() {
        return (fields.hashCode() * 31 + java.util.Arrays.hashCode(defaults)) * 31 + java.util.Arrays.hashCode(ranges);
    }

    @Override
    public String toString() {
        var sb = new StringBuilder("{");
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) sb.append(", ");
            sb.append(fields.get(i).name()).append(": ").append(fields.get(i).type().spelling());
            if (ranges[i] != null) {
                sb.append(' ').append(ranges[i]);
            }
            if (defaults[i] != null) {
                Object d = defaults[i];
                sb.append(" = ").append(d instanceof String ? "\"" + d + "\"" : fields.get(i).type().fromRaw((Long) d));
            }
        }
        return sb.append('}').toString();
    }
}
