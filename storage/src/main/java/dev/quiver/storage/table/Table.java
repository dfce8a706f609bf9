package dev.quiver.storage.table;

import dev.quiver.storage.Builtin;
import dev.quiver.storage.Schema;

import java.util.Arrays;

/**
 * An archetype table: every entity whose type (sorted id vector) is exactly {@link #type()}.
 * Rows are entities; there is one {@link Column} per id in the type that carries data. Tables
 * are created the first time their type appears; a table left empty when a transaction
 * commits is dropped (Flecs v4 archetypes, with empty-table cleanup at commit). Read-only to other modules: only the
 * storage module calls the mutators ({@link #append}, {@link #removeSwap}).
 */
public final class Table {
    private final int id;
    private final long[] type;
    private final Column[] columns;
    private final long[] columnIds;
    private long[] entities;
    private int count;
    /** Reads the rows when first touched ({@link #lazyRows}); null once they are in memory. */
    private Runnable rowReader;
    /** The type holds Prefab / Disabled (queries leave such tables out unless they ask for them). */
    private final boolean prefab;
    private final boolean disabled;
    /** Internal: tables are created by the world's table set ({@link TableSet}). */
    public Table(int id, long[] type, long[] columnIds, Schema[] schemas) {
        this.id = id;
        this.type = type;
        this.columnIds = columnIds;
        this.columns = new Column[columnIds.length];
        int cap = 4;
        for (int i = 0; i < columnIds.length; i++) {
            columns[i] = new Column(columnIds[i], schemas[i], cap);
        }
        entities = new long[cap];
        prefab = Arrays.binarySearch(type, Builtin.PREFAB) >= 0;
        disabled = Arrays.binarySearch(type, Builtin.DISABLED) >= 0;
    }

    /** True when the type holds the Prefab tag (Flecs v4: prefab entities are left out of queries by default). */
    public boolean isPrefab() {
        return prefab;
    }

    /** True when the type holds the Disabled tag (Flecs v4: disabled entities are left out of queries by default). */
    public boolean isDisabled() {
        return disabled;
    }

    /** Table id, stable across reopen. Table 0 is the root table (empty type). */
    public int id() {
        return id;
    }

    /** The sorted id vector. Do not modify. */
    public long[] type() {
        return type;
    }

    /**
     * True when the table's rows are in memory (false for a table read from a world whose rows
     * have not been touched yet, {@link #lazyRows}).
     */
    public boolean rowsInMemory() {
        return rowReader == null;
    }

    /**
     * Internal (storage only): the table's {@code count} rows are read by {@code reader} (which
     * {@link #append}s them) the first time its entities or columns are touched (open in place,
     * issue 8 section 2); {@link #count()} answers without reading them. The table must be empty.
     */
    public void lazyRows(int count, Runnable reader) {
        if (this.count != 0) {
            throw new IllegalStateException("table " + id + " already holds rows");
        }
        this.count = count;
        this.rowReader = reader;
    }

    /** Internal (storage only): reads the rows now unless they are in memory. */
    public void loadRows() {
        if (rowReader != null) {
            readRows();
        }
    }

    private void readRows() {
        Runnable reader = rowReader;
        int expect = count;
        rowReader = null;
        count = 0;
        try {
            reader.run();
        } catch (RuntimeException | Error e) {
            dropRows();
            count = expect;
            rowReader = reader;
            throw e;
        }
        if (count != expect) {
            int found = count;
            dropRows();
            count = expect;
            rowReader = reader;
            throw new dev.quiver.error.CorruptionException("table " + id + " holds " + found
                    + " rows in its row pages, its table page says " + expect);
        }
    }

    private void dropRows() {
        for (int r = 0; r < count; r++) {
            entities[r] = 0;
            for (Column c : columns) {
                c.clear(r);
            }
        }
        count = 0;
    }

    /** Number of rows. */
    public int count() {
        return count;
    }

    /** The entity at a row. */
    public long entity(int row) {
        if (rowReader != null) {
            readRows();
        }
        return entities[row];
    }

    /** The entity array; valid up to {@link #count()}. Do not modify. */
    public long[] entities() {
        if (rowReader != null) {
            readRows();
        }
        return entities;
    }

    /** True when the type holds {@code id} exactly (binary search; no wildcards). */
    public boolean hasId(long id) {
        return Arrays.binarySearch(type, id) >= 0;
    }

    /** Position of an id in the type, or a negative value. */
    public int indexOf(long id) {
        return Arrays.binarySearch(type, id);
    }

    /** The column storing {@code id}, or null when the id has no data here. */
    public Column column(long id) {
        if (rowReader != null) {
            readRows();
        }
        for (int i = 0; i < columnIds.length; i++) {
            if (columnIds[i] == id) {
                return columns[i];
            }
        }
        return null;
    }

    /** All columns, in type order. Do not modify. */
    public Column[] columns() {
        if (rowReader != null) {
            readRows();
        }
        return columns;
    }

    /** The ids of the columns, in column order, without reading the rows. Do not modify. */
    public long[] columnIds() {
        return columnIds;
    }

    /** Internal (storage only): appends a row with zeroed values and returns its index. */
    public int append(long entity) {
        if (rowReader != null) {
            readRows();
        }
        if (count == entities.length) {
            int cap = Math.max(8, count * 2);
            entities = Arrays.copyOf(entities, cap);
            for (Column c : columns) {
                c.grow(cap);
            }
        }
        entities[count] = entity;
        for (Column c : columns) {
            c.zero(count);
        }
        return count++;
    }

    /**
     * Internal (storage only): removes a row by moving the last row into it.
     *
     * @return the entity that moved into {@code row}, or 0 when the last row was removed
     */
    public long removeSwap(int row) {
        if (rowReader != null) {
            readRows();
        }
        int last = --count;
        long moved = 0;
        if (row != last) {
            moved = entities[last];
            entities[row] = moved;
            for (Column c : columns) {
                c.copyRow(last, c, row);
            }
        }
        entities[last] = 0;
        for (Column c : columns) {
            c.clear(last);
        }
        return moved;
    }

    /** Internal (storage only): removes every row (a rollback reads them again). */
    public void truncate() {
        if (rowReader != null) { // nothing in memory to clear
            rowReader = null;
            count = 0;
            return;
        }
        for (int r = 0; r < count; r++) {
            entities[r] = 0;
            for (Column c : columns) {
                c.clear(r);
            }
        }
        count = 0;
    }

    @Override
    public String toString() {
        return "Table#" + id + Arrays.toString(type);
    }
}
