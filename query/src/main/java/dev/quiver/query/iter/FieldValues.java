package dev.quiver.query.iter;

import dev.quiver.error.BadInputException;
import dev.quiver.storage.Schema;
import dev.quiver.storage.rules.Values;

import java.util.Collections;
import java.util.Map;

/**
 * Turns a component value (an ordered member map, as {@link dev.quiver.storage.World#get} gives it)
 * into the Java type a caller asks for: the map itself ({@code Map.class} or {@code Object.class}),
 * a record whose components are named like the members ({@link Values#toRecord}), or, for a
 * component with one member, that member's value (Float, Double, Integer, Long, Boolean, String;
 * an entity member is a Long). Primitive classes ({@code double.class}) stand for their boxes.
 */
public final class FieldValues {
    private FieldValues() {}

    /**
     * Converts a value.
     *
     * @param what names the field in messages, e.g. {@code "field 1 (Position)"}
     * @throws FieldValueException when the type does not fit
     */
    @SuppressWarnings("unchecked")
    public static <T> T convert(Map<String, Object> value, Class<T> type, String what) {
        if (type == Map.class || type == Object.class) {
            return (T) Collections.unmodifiableMap(value);
        }
        if (Record.class.isAssignableFrom(type)) {
            try {
                return (T) Values.toRecord(value, (Class<? extends Record>) type);
            } catch (BadInputException e) {
                throw new FieldValueException(what + " does not fit record " + type.getName() + ": " + e.getMessage(), e);
            }
        }
        if (value.size() == 1) {
            Object only = value.values().iterator().next();
            Class<?> box = box(type);
            if (box.isInstance(only)) {
                return (T) only;
            }
            throw new FieldValueException(what + " has one member of type " + typeName(only) + ", not " + type.getSimpleName());
        }
        throw new FieldValueException(what + " has members " + value.keySet() + "; ask for Map.class, a record with "
                + "those components, or one member by name");
    }

    /**
     * One member of a value.
     *
     * @throws FieldValueException when there is no such member or its type is not {@code type}
     */
    @SuppressWarnings("unchecked")
    public static <T> T member(Map<String, Object> value, String member, Class<T> type, String what) {
        if (!value.containsKey(member)) {
            throw new FieldValueException(what + " has no member '" + member + "' (members: " + value.keySet() + ")");
        }
        Object v = value.get(member);
        if (type == Object.class || box(type).isInstance(v)) {
            return (T) v;
        }
        throw new FieldValueException(what + " member '" + member + "' is " + typeName(v) + ", not " + type.getSimpleName());
    }

    /** The schema's member index of {@code member}. */
    static int memberIndex(Schema schema, String member, String what) {
        int i = schema.indexOf(member);
        if (i < 0) {
            throw new FieldValueException(what + " has no member '" + member + "' (members: " + schema + ")");
        }
        return i;
    }

    static Class<?> box(Class<?> c) {
        if (!c.isPrimitive()) {
            return c;
        }
        if (c == double.class) return Double.class;
        if (c == float.class) return Float.class;
        if (c == long.class) return Long.class;
        if (c == int.class) return Integer.class;
        if (c == boolean.class) return Boolean.class;
        return c;
    }

    private static String typeName(Object v) {
        return v == null ? "null" : v.getClass().getSimpleName();
    }
}
