package dev.quiver.storage;

/**
 * The type of one component member (Flecs meta primitive types). Every value is held in a column
 * as a raw 64-bit word ({@link #toRaw}/{@link #fromRaw}), except strings, which are held as
 * objects.
 */
public enum FieldType {
    F32("f32", 0), F64("f64", 1), I32("i32", 2), I64("i64", 3), BOOL("bool", 4), STRING("string", 5), ENTITY("entity", 6);

    private final String spelling;
    private final int code;

    FieldType(String spelling, int code) {
        this.spelling = spelling;
        this.code = code;
    }

    /**
     * The stable code the on-disk format writes for this type (never the enum position, so that
     * types can be added or reordered without changing what a world file means).
     */
    public int code() {
        return code;
    }

    /**
     * The type of a stable code.
     *
     * @return the type, or null for an unknown code (a corrupt or newer file)
     */
    public static FieldType ofCode(int code) {
        for (FieldType t : values()) {
            if (t.code == code) {
                return t;
            }
        }
        return null;
    }

    /** The Flecs Script spelling ({@code f32}, {@code string}, ...). */
    public String spelling() {
        return spelling;
    }

    /** Parses a spelling; throws {@link ValueException} for an unknown one. */
    public static FieldType parse(String s) {
        for (FieldType t : values()) {
            if (t.spelling.equals(s)) {
                return t;
            }
        }
        throw new ValueException("unknown member type '" + s + "' (expected f32, f64, i32, i64, bool, string or entity)");
    }

    /**
     * Converts a Java value (Number, Boolean, String, or for ENTITY a Long id) to the raw word.
     *
     * @throws ValueException when the value does not fit this type
     */
    public long toRaw(String field, Object v) {
        switch (this) {
            case F32:
                return Float.floatToRawIntBits(number(field, v).floatValue());
            case F64:
                return Double.doubleToRawLongBits(number(field, v).doubleValue());
            case I32: {
                Number n = integral(field, v);
                long l = n.longValue();
                if (l < Integer.MIN_VALUE || l > Integer.MAX_VALUE) {
                    throw new ValueException("field '" + field + "': " + l + " does not fit i32");
                }
                return l;
            }
            case I64:
            case ENTITY:
                return integral(field, v).longValue();
            case BOOL:
                if (v instanceof Boolean) {
                    return ((Boolean) v) ? 1 : 0;
                }
                throw new ValueException("field '" + field + "' is bool, got " + describe(v));
            default:
                throw new IllegalStateException("string fields have no raw word");
        }
    }

    /** The Java value of a raw word: Float, Double, Integer, Long, Boolean (ENTITY gives Long). */
    public Object fromRaw(long raw) {
        switch (this) {
            case F32:
                return Float.intBitsToFloat((int) raw);
            case F64:
                return Double.longBitsToDouble(raw);
            case I32:
                return (int) raw;
            case I64:
            case ENTITY:
                return raw;
            case BOOL:
                return raw != 0;
            default:
                throw new IllegalStateException("string fields have no raw word");
        }
    }

    private static Number number(String field, Object v) {
        if (v instanceof Number) {
            return (Number) v;
        }
        throw new ValueException("field '" + field + "' is a number, got " + describe(v));
    }

    private static Number integral(String field, Object v) {
        if (v instanceof Byte || v instanceof Short || v instanceof Integer || v instanceof Long) {
            return (Number) v;
        }
        if (v instanceof Number) {
            double d = ((Number) v).doubleValue();
            if (d == Math.rint(d) && Math.abs(d) < 9.2e18) {
                return (long) d;
            }
        }
        throw new ValueException("field '" + field + "' is an integer, got " + describe(v));
    }

    /** A value and its Java type, for error messages. */
    public static String describe(Object v) {
        return v == null ? "null" : v.getClass().getSimpleName() + " " + v;
    }
}
