package dev.quiver.snapshots.export;

import dev.quiver.storage.FieldType;

/**
 * One column of an exported table: its name, its value kind and whether every row has a value.
 * Component fields are optional (an entity without the component has no value).
 *
 * @param name     the column name ({@code id}, {@code Position.x}, ...)
 * @param kind     the value kind
 * @param required true when no row leaves it empty
 */
public record ExportColumn(String name, Kind kind, boolean required) {
    /**
     * Value kinds, with their Parquet physical type: INT32, INT64, FLOAT, DOUBLE, BOOLEAN, and
     * BINARY annotated STRING (UTF-8).
     */
    public enum Kind {
        INT32, INT64, FLOAT, DOUBLE, BOOLEAN, STRING;

        /**
         * The kind a component field exports as: f32 FLOAT, f64 DOUBLE, i32 INT32, i64 INT64,
         * bool BOOLEAN, string STRING, and entity INT64 (the 64-bit entity id).
         */
        public static Kind of(FieldType type) {
            switch (type) {
                case F32: return FLOAT;
                case F64: return DOUBLE;
                case I32: return INT32;
                case I64:
                case ENTITY: return INT64;
                case BOOL: return BOOLEAN;
                case STRING: return STRING;
                default: throw new IllegalArgumentException("no export kind for " + type);
            }
        }
    }
}
