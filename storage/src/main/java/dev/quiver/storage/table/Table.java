package dev.quiver.storage.table;

import dev.quiver.index.Capacity;
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
    /** Reads a chunk of rows when first touched ({@link #lazyRows}); null once every row is in memory, values included. */
    private ChunkReader chunkReader;
    /** The same reader while some row's entity is not in memory; null once every entity is. */
    private ChunkReader entityReader;
    /** log2 of the rows per chunk of a lazily read table. */
    private int chunkShift;
    /** One bit per chunk read whole, entities and values (while {@link #chunkReader} is set). */
    private long[] chunksRead;
    private int chunksLeft;
    /** One bit per chunk whose entities are in memory (while {@link #entityReader} is set). */
    private long[] entitiesRead;
    private int entityChunksLeft;
    /** The type holds Prefab / Disabled (queries leave such tables out unless they ask for them). */
    private final boolean prefab;
    private final boolean disabled;
    private final boolean companion;
    /** Bit i set when the type holds the plain id i (i below 64: the builtin tags, such as the traits). */
    private final long smallIds;
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
        companion = Arrays.binarySearch(type, Builtin.DISABLED_RELATIONSHIP) >= 0;
        long small = 0;
        for (long x : type) {
            if (x >= 0 && x < Long.SIZE) {
                small |= 1L << x;
            }
        }
        smallIds = small;
    }

    /** True when the type holds the Prefab tag (Flecs v4: prefab entities are left out of queries by default). */
    public boolean isPrefab() {
        return prefab;
    }

    /** True when the type holds the Disabled tag (Flecs v4: disabled entities are left out of queries by default). */
    public boolean isDisabled() {
        return disabled;
    }

    /**
     * True when the type holds {@link Builtin#DISABLED_RELATIONSHIP}: its entities are toggle
     * companions R~ ({@code rules.Toggles}), which stand for R's disabled pairs and are left out of
     * queries, like disabled entities, unless the query asks for them.
     */
    public boolean isToggleCompanion() {
        return companion;
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
     * Reads one chunk of a lazily read table's rows into place (storage only): rows
     * {@code [chunk << shift, min(count, (chunk + 1) << shift))}, through {@link #setEntityAt} and,
     * with {@code values}, the columns' setters too ({@link #columnsInPlace}); without, only the
     * rows' entities (a walk over entities never pays for their values).
     */
    @FunctionalInterface
    public interface ChunkReader {
        /** @throws dev.quiver.error.CorruptionException when the chunk's page is missing or damaged */
        void read(Table t, int chunk, boolean values);
    }

    /**
     * True when every row is in memory (false for a table read from a world whose rows have not
     * all been touched yet, {@link #lazyRows}).
     */
    public boolean rowsInMemory() {
        return chunkReader == null;
    }

    /** True when row {@code row}'s entity is in memory (its values may not be). */
    public boolean rowInMemory(int row) {
        return entityReader == null || (entitiesRead[row >>> chunkShift >>> 6] & 1L << (row >>> chunkShift)) != 0;
    }

    /**
     * Internal (storage only): the table's {@code count} rows are read chunk by chunk ({@code 1 <<
     * chunkShift} rows each) by {@code reader} the first time a row of the chunk is touched
     * ({@link #entity}, {@link #entities(int, int)}: the chunk's entities only), or all at once by
     * the whole-table accessors ({@link #entities()}: every entity; {@link #columns()},
     * {@link #column}: entities and values) and the mutators (open in place, issue 8 section 2);
     * {@link #count()} answers without reading. The columns' arrays take every row only when
     * values are first read. The table must be empty.
     */
    public void lazyRows(int count, int chunkShift, ChunkReader reader) {
        if (this.count != 0) {
            throw new IllegalStateException("table " + id + " already holds rows");
        }
        this.count = count;
        this.chunkShift = chunkShift;
        this.chunksLeft = count == 0 ? 0 : ((count - 1) >>> chunkShift) + 1;
        this.chunksRead = new long[(chunksLeft + 63) >>> 6];
        this.chunkReader = chunksLeft == 0 ? null : reader;
        this.entityChunksLeft = chunksLeft;
        this.entitiesRead = new long[chunksRead.length];
        this.entityReader = chunkReader;
    }

    /** Internal (storage only): reads every row now unless they are in memory. */
    public void loadRows() {
        if (chunkReader != null) {
            readChunks(0, count);
        }
    }

    /** Reads the chunks holding rows {@code [from, to)} that are not in memory yet, values included. */
    private void readChunks(int from, int to) {
        if (entities.length < count) { // the entity array takes every row at the first chunk read
            entities = Arrays.copyOf(entities, count);
        }
        if (chunksLeft == ((count - 1) >>> chunkShift) + 1) { // the columns take every row at the first chunk of values
            for (Column c : columns) {
                c.grow(entities.length); // as long as the entity array: append grows them together
            }
        }
        for (int ch = from >>> chunkShift, last = (Math.max(from, to - 1)) >>> chunkShift; ch <= last && chunkReader != null; ch++) {
            if ((chunksRead[ch >>> 6] & 1L << ch) == 0) {
                chunkReader.read(this, ch, true); // a failure leaves the chunk unread: the next touch reads it again
                chunksRead[ch >>> 6] |= 1L << ch;
                entityChunkRead(ch);
                if (--chunksLeft == 0) {
                    chunkReader = null;
                    chunksRead = null;
                }
            }
        }
    }

    /** Reads the entities of the chunks holding rows {@code [from, to)} that are not in memory yet (not their values). */
    private void readEntities(int from, int to) {
        if (entities.length < count) {
            entities = Arrays.copyOf(entities, count);
        }
        for (int ch = from >>> chunkShift, last = (Math.max(from, to - 1)) >>> chunkShift; ch <= last && entityReader != null; ch++) {
            if ((entitiesRead[ch >>> 6] & 1L << ch) == 0) {
                entityReader.read(this, ch, false);
                entityChunkRead(ch);
            }
        }
    }

    private void entityChunkRead(int ch) {
        if (entityReader != null && (entitiesRead[ch >>> 6] & 1L << ch) == 0) {
            entitiesRead[ch >>> 6] |= 1L << ch;
            if (--entityChunksLeft == 0) {
                entityReader = null;
                entitiesRead = null;
            }
        }
    }

    /** Internal (storage only): the entity of a row being read into place by a {@link ChunkReader}. */
    public void setEntityAt(int row, long entity) {
        entities[row] = entity;
    }

    /** Number of rows. */
    public int count() {
        return count;
    }

    /** The entity at a row. */
    public long entity(int row) {
        if (entityReader != null) {
            readEntities(row, row + 1);
        }
        return entities[row];
    }

    /** The entity array; valid up to {@link #count()}. Do not modify. */
    public long[] entities() {
        if (entityReader != null) {
            readEntities(0, count);
        }
        return entities;
    }

    /**
     * The entity array with at least rows {@code [from, to)} in memory (a lazily read table reads
     * only the chunks holding them); other rows may not be read yet. Do not modify.
     */
    public long[] entities(int from, int to) {
        if (entityReader != null) {
            readEntities(from, to);
        }
        return entities;
    }

    /**
     * True when the type holds {@code id} exactly (no wildcards): a bit test for an id below 64 (a
     * builtin tag: the trait checks of every add ask these), else a binary search.
     */
    public boolean hasId(long id) {
        if (id >= 0 && id < Long.SIZE) {
            return (smallIds >>> id & 1) != 0;
        }
        return Arrays.binarySearch(type, id) >= 0;
    }

    /** Position of an id in the type, or a negative value. */
    public int indexOf(long id) {
        return Arrays.binarySearch(type, id);
    }

    /** The column storing {@code id}, or null when the id has no data here. */
    public Column column(long id) {
        if (chunkReader != null) {
            readChunks(0, count);
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
        if (chunkReader != null) {
            readChunks(0, count);
        }
        return columns;
    }

    /** Internal (storage only): the columns as they are, without reading rows (for a {@link ChunkReader}). */
    public Column[] columnsInPlace() {
        return columns;
    }

    /** The ids of the columns, in column order, without reading the rows. Do not modify. */
    public long[] columnIds() {
        return columnIds;
    }

    /** Internal (storage only): appends a row with zeroed values and returns its index. */
    public int append(long entity) {
        int row = appendRow(entity);
        for (Column c : columns) {
            c.zero(row);
        }
        return row;
    }

    /**
     * Internal (storage only): appends a row holding the values of row {@code from} of this table
     * and returns its index (a prefab replica: each value written once, not zeroed first).
     */
    public int appendCopy(long entity, int from) {
        int row = appendRow(entity);
        for (Column c : columns) {
            c.copyRow(from, c, row);
        }
        return row;
    }

    private int appendRow(long entity) {
        if (chunkReader != null) {
            readChunks(0, count);
        }
        if (count == entities.length) {
            growTo(Capacity.grown(count, count + 1L)); // by an eighth when large: at most 12.5 % unused rows
        }
        entities[count] = entity;
        return count++;
    }

    /**
     * Internal (storage only): makes room for {@code more} rows beyond {@link #count()} at once (a
     * batch about to append that many: a prefab batch fills each of its tables with one row per
     * instance), so that appending them grows the arrays at most once instead of doubling step
     * by step. The room is what appending one row at a time would end with ({@link Capacity#grown}:
     * doubling while small, by an eighth when large), so the growth policy and the unused rows it
     * allows stay the same; no row or value changes.
     *
     * @param more rows about to be appended, at least 0
     * @throws IllegalArgumentException when {@code more} is negative
     * @throws IllegalStateException when the rows would pass {@link Capacity#MAX}
     */
    public void ensureCapacity(int more) {
        if (more < 0) {
            throw new IllegalArgumentException("rows to make room for: " + more);
        }
        if (chunkReader != null) {
            readChunks(0, count);
        }
        long needed = (long) count + more;
        int cap = entities.length;
        if (needed > cap) {
            while (cap < needed) { // the capacity appending one by one would reach
                cap = Capacity.grown(cap, Math.min(needed, cap + 1L));
            }
            growTo(cap);
        }
    }

    /** Gives the entity array and every column {@code cap} rows (at least {@link #count()}). */
    private void growTo(int cap) {
        entities = Arrays.copyOf(entities, cap);
        for (Column c : columns) {
            c.grow(cap);
        }
    }

    /** The rows the table's arrays hold now (at least {@link #count()} once its rows are read); for tests and statistics. */
    public int capacity() {
        return entities.length;
    }

    /**
     * Internal (storage only): removes a row by moving the last row into it.
     *
     * @return the entity that moved into {@code row}, or 0 when the last row was removed
     */
    public long removeSwap(int row) {
        if (chunkReader != null) {
            readChunks(0, count);
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
        if (chunkReader != null) { // nothing else to clear: a rollback reads the rows again
            chunkReader = null;
            chunksRead = null;
            entityReader = null;
            entitiesRead = null;
            entities = new long[4];
            for (Column c : columns) {
                c.reset(4);
            }
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
