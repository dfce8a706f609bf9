package dev.quiver.snapshots.export;

import java.util.Arrays;

/**
 * One row being written, reused for every row of a table (the export allocates nothing per row but
 * the strings it must produce). Non-string values are held as raw 64-bit words in the storage
 * encoding: INT32/INT64 the value, FLOAT {@code Float.floatToRawIntBits}, DOUBLE
 * {@code Double.doubleToRawLongBits}, BOOLEAN 0 or 1.
 */
final class RowBuffer {
    final long[] words;
    final String[] strings;
    final boolean[] set;

    RowBuffer(int columns) {
        words = new long[columns];
        strings = new String[columns];
        set = new boolean[columns];
    }

    /** Leaves every column empty. */
    void clear() {
        Arrays.fill(set, false);
    }

    void word(int column, long value) {
        words[column] = value;
        set[column] = true;
    }

    void string(int column, String value) {
        strings[column] = value;
        set[column] = value != null;
    }
}
