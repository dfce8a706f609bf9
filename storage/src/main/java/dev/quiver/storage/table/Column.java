package dev.quiver.storage.table;

import dev.quiver.index.PagedArrays;
import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The data of one component (or data-carrying pair) in one table: one array per schema field,
 * indexed by row. Numeric, bool and entity fields are raw 64-bit words ({@link FieldType#toRaw});
 * string fields are String arrays. The arrays are paged ({@link PagedArrays}: row r of field f is
 * {@code words[f][r >>> SHIFT][r & MASK]}), so that growing a large table copies none of its full
 * pages (issue 8, load).
 */
public final class Column {
    private final long id;
    private final Schema schema;
    private static final int SHIFT = PagedArrays.SHIFT, MASK = PagedArrays.MASK;
    /** By field: the rows' raw words as pages, or null for a string field. */
    private final long[][][] words;
    /** By field: the rows' strings as pages, or null for a non-string field. */
    private final String[][][] strings;
    /** The first field stored as words (not a string), or -1 when none: what {@link #touch} reads. */
    private final int firstWordField;
    /** Per field, what a new row holds: the schema's default, else 0 or "". */
    private final long[] initialWords;
    private final String[] initialStrings;
    /** Bumped by every write to a value of this column ({@link #version}). */
    private long version;

    /** Internal: columns are created with their table. */
    public Column(long id, Schema schema, int capacity) {
        this.id = id;
        this.schema = schema;
        int n = schema.size();
        words = new long[n][][];
        strings = new String[n][][];
        initialWords = new long[n];
        initialStrings = new String[n];
        for (int f = 0; f < n; f++) {
            Object d = schema.defaultRaw(f);
            if (schema.field(f).type() == FieldType.STRING) {
                initialStrings[f] = d == null ? "" : (String) d;
            } else if (d != null) {
                initialWords[f] = (Long) d;
            }
            if (schema.field(f).type() == FieldType.STRING) {
                strings[f] = PagedArrays.grow(new String[0][], capacity);
            } else {
                words[f] = PagedArrays.grow(new long[0][], capacity);
            }
        }
        int w = 0;
        while (w < n && words[w] == null) {
            w++;
        }
        firstWordField = w < n ? w : -1;
    }

    /** The id this column stores (a component or a pair). */
    public long id() {
        return id;
    }

    public Schema schema() {
        return schema;
    }

    /**
     * A number that changes whenever a value of this column may have changed: every set, zero,
     * clear and row copy into it (reads that cache a snapshot of a row, such as an inherited
     * value shared by many instances, are valid while it is unchanged). Never decreases.
     */
    public long version() {
        return version;
    }

    /** Raw word of a non-string field. */
    public long word(int field, int row) {
        return words[field][row >>> SHIFT][row & MASK];
    }

    /**
     * Reads row {@code row}'s first word field (0 when every field is a string, or there is none)
     * and returns it: a read ahead of the row's use that brings its data into the processor's cache
     * (a join's located targets, query engine {@code LocatedCheck}).
     */
    public long touch(int row) {
        return firstWordField < 0 ? 0 : words[firstWordField][row >>> SHIFT][row & MASK];
    }

    /** An f64 field as double (no type check; the hot path of numeric queries). */
    public double f64(int field, int row) {
        return Double.longBitsToDouble(words[field][row >>> SHIFT][row & MASK]);
    }

    /** A field as a Java value (Float, Double, Integer, Long, Boolean, String). */
    public Object value(int field, int row) {
        FieldType t = schema.field(field).type();
        return t == FieldType.STRING ? strings[field][row >>> SHIFT][row & MASK] : t.fromRaw(words[field][row >>> SHIFT][row & MASK]);
    }

    /** The whole row as an ordered field-name map. */
    public Map<String, Object> row(int row) {
        var m = new LinkedHashMap<String, Object>();
        for (int f = 0; f < schema.size(); f++) {
            m.put(schema.field(f).name(), value(f, row));
        }
        return m;
    }

    /** Internal (storage only): sets a raw word field. */
    public void setWord(int field, int row, long w) {
        version++;
        words[field][row >>> SHIFT][row & MASK] = w;
    }

    /** Internal (storage only): sets a string field. */
    public void setString(int field, int row, String s) {
        version++;
        strings[field][row >>> SHIFT][row & MASK] = s;
    }

    /**
     * Internal (storage only): makes every field hold at least {@code capacity} rows (the rows
     * held keep their values; full pages are not copied).
     */
    public void grow(int capacity) {
        for (int f = 0; f < words.length; f++) {
            if (words[f] != null) {
                words[f] = PagedArrays.grow(words[f], capacity);
            } else {
                strings[f] = PagedArrays.grow(strings[f], capacity);
            }
        }
    }

    /**
     * Internal (storage only): drops every row and keeps room for {@code capacity} rows, each
     * holding 0 or null (a table truncated before its rows are read again).
     */
    public void reset(int capacity) {
        version++;
        for (int f = 0; f < words.length; f++) {
            if (words[f] != null) {
                words[f] = PagedArrays.grow(new long[0][], capacity);
            } else {
                strings[f] = PagedArrays.grow(new String[0][], capacity);
            }
        }
    }

    /**
     * Internal (storage only): gives a new row its initial value: each field's schema default, else
     * 0 (strings "").
     */
    public void zero(int row) {
        version++;
        for (int f = 0; f < words.length; f++) {
            if (words[f] != null) {
                words[f][row >>> SHIFT][row & MASK] = initialWords[f];
            } else {
                strings[f][row >>> SHIFT][row & MASK] = initialStrings[f];
            }
        }
    }

    /** Internal (storage only): copies row {@code from} into row {@code to} of {@code dst} (same schema). */
    public void copyRow(int from, Column dst, int to) {
        dst.version++;
        for (int f = 0; f < words.length; f++) {
            if (words[f] != null) {
                dst.words[f][to >>> SHIFT][to & MASK] = words[f][from >>> SHIFT][from & MASK];
            } else {
                dst.strings[f][to >>> SHIFT][to & MASK] = strings[f][from >>> SHIFT][from & MASK];
            }
        }
    }

    /** Internal (storage only): drops the references a vacated row holds. */
    public void clear(int row) {
        version++;
        for (int f = 0; f < strings.length; f++) {
            if (strings[f] != null) {
                strings[f][row >>> SHIFT][row & MASK] = null;
            }
        }
    }
}
