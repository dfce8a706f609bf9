package dev.quiver.query.iter;

import dev.quiver.storage.FieldType;
import dev.quiver.storage.table.Column;

import java.util.Objects;

/**
 * One member of a field's component over the rows of a {@link TableResult}: a typed view of the
 * table's column, without copying. Index {@code i} is the result's row {@code i} (0 to
 * {@link #size()} - 1). Each getter accepts the member types named in its Javadoc and throws
 * {@link FieldValueException} for others. Valid while the world is not written (see
 * {@link TableResult}).
 */
public final class MemberColumn {
    private final Column column;
    private final int member;
    private final FieldType type;
    private final String name;
    private final int offset;
    private final int size;

    MemberColumn(Column column, int member, int offset, int size) {
        this.column = column;
        this.member = member;
        this.type = column.schema().field(member).type();
        this.name = column.schema().field(member).name();
        this.offset = offset;
        this.size = size;
    }

    /** The member's type. */
    public FieldType type() {
        return type;
    }

    /** The member's name. */
    public String name() {
        return name;
    }

    /** Number of rows. */
    public int size() {
        return size;
    }

    private void expect(FieldType a, FieldType b) {
        if (type != a && type != b) {
            throw new FieldValueException("member '" + name + "' is " + type.spelling() + ", not " + a.spelling()
                    + (a == b ? "" : " or " + b.spelling()));
        }
    }

    /** An f64 or f32 member. */
    public double getDouble(int i) {
        long w = column.word(member, offset + Objects.checkIndex(i, size));
        if (type == FieldType.F64) {
            return Double.longBitsToDouble(w);
        }
        expect(FieldType.F64, FieldType.F32);
        return Float.intBitsToFloat((int) w);
    }

    /** An f32 member. */
    public float getFloat(int i) {
        expect(FieldType.F32, FieldType.F32);
        return Float.intBitsToFloat((int) column.word(member, offset + Objects.checkIndex(i, size)));
    }

    /** An i64, i32 or entity member. */
    public long getLong(int i) {
        if (type != FieldType.I64 && type != FieldType.ENTITY) {
            expect(FieldType.I64, FieldType.I32);
        }
        return column.word(member, offset + Objects.checkIndex(i, size));
    }

    /** An i32 member. */
    public int getInt(int i) {
        expect(FieldType.I32, FieldType.I32);
        return (int) column.word(member, offset + Objects.checkIndex(i, size));
    }

    /** A bool member. */
    public boolean getBoolean(int i) {
        expect(FieldType.BOOL, FieldType.BOOL);
        return column.word(member, offset + Objects.checkIndex(i, size)) != 0;
    }

    /** A string member. */
    public String getString(int i) {
        expect(FieldType.STRING, FieldType.STRING);
        return (String) column.value(member, offset + Objects.checkIndex(i, size));
    }

    /** Any member as a Java value (Float, Double, Integer, Long, Boolean, String; entity as Long). */
    public Object get(int i) {
        return column.value(member, offset + Objects.checkIndex(i, size));
    }
}
