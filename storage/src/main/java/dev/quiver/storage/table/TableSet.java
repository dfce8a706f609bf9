package dev.quiver.storage.table;

import dev.quiver.index.IdRecords;
import dev.quiver.index.Ids;
import dev.quiver.storage.Schema;
import dev.quiver.storage.tx.Changes;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.function.Consumer;

/**
 * Every table of a world (Flecs v4 archetypes), found by id, by type, and through the component
 * index ({@link IdRecords}: id to the tables holding it), plus the table graph: each table caches
 * its add and remove edges (the table an entity moves to when one id is added or removed), so that
 * a move costs one hash probe on a small map instead of hashing a whole type.
 *
 * <p>Table 0 is the root table (empty type). Dropped table ids are reused by new tables, so the
 * id space stays dense. Not thread-safe.
 */
public final class TableSet {
    private final Changes changes;
    private final Schemas schemas;
    private ArrayList<Table> tables = new ArrayList<>();
    private HashMap<TypeKey, Table> byType = new HashMap<>();
    private IntArrayList freeIds = new IntArrayList();
    private final IdRecords<Table> records = new IdRecords<>(Table::id);
    /** Add and remove edges per table id (null until the table has one). */
    private ArrayList<Long2ObjectOpenHashMap<Table>> addEdges = new ArrayList<>();
    private ArrayList<Long2ObjectOpenHashMap<Table>> removeEdges = new ArrayList<>();
    /** Rises whenever a table appears or disappears (see {@link #epoch()}). */
    private long epoch;
    /** Told of every table that appears or disappears ({@link #listen}); copied on change. */
    private TableListener[] listeners = new TableListener[0];

    /** Registers {@code l} (held strongly); the returned action unregisters it (idempotent). */
    public Runnable listen(TableListener l) {
        listeners = Arrays.copyOf(listeners, listeners.length + 1);
        listeners[listeners.length - 1] = l;
        return () -> listeners = Arrays.stream(listeners).filter(x -> x != l).toArray(TableListener[]::new);
    }

    private void tell(Table t, boolean created) {
        for (TableListener l : listeners) {
            if (created) {
                l.created(t);
            } else {
                l.deleted(t);
            }
        }
    }

    private record TypeKey(long[] type) {
        @Override
        public boolean equals(Object o) {
            return o instanceof TypeKey && Arrays.equals(((TypeKey) o).type, type);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(type);
        }
    }

    public TableSet(Changes changes, Schemas schemas) {
        this.changes = changes;
        this.schemas = schemas;
    }

    /**
     * A counter that rises whenever a table is created, restored, taken out or dropped, or every
     * table is forgotten (a reload). Cached queries compare it to know when to rematch; a table's
     * type never changes, so an unchanged epoch means an unchanged set of tables. In memory only.
     */
    public long epoch() {
        return epoch;
    }

    /** Forgets every table (before a reload). */
    public void clear() {
        epoch++;
        forEach(t -> tell(t, false));
        tables = new ArrayList<>();
        byType = new HashMap<>();
        freeIds = new IntArrayList();
        records.clear();
        clearEdges();
    }

    /** The table with id {@code id}, or null when it was dropped or never existed. */
    public Table get(int id) {
        return id < tables.size() ? tables.get(id) : null;
    }

    /** One past the highest table id. */
    public int size() {
        return tables.size();
    }

    /** The component index. */
    public IdRecords<Table> records() {
        return records;
    }

    /** Calls {@code action} with every table, in id order. */
    public void forEach(Consumer<Table> action) {
        for (Table t : tables) {
            if (t != null) {
                action.accept(t);
            }
        }
    }

    /** Every table, in id order. */
    public List<Table> all() {
        var out = new ArrayList<Table>(tables.size());
        forEach(out::add);
        return out;
    }

    /** The table of {@code from}'s type plus {@code id} (through the add edge). */
    public Table withId(Table from, long id) {
        return follow(addEdges, from, id, true);
    }

    /** The table of {@code from}'s type minus {@code id} (through the remove edge). */
    public Table withoutId(Table from, long id) {
        return follow(removeEdges, from, id, false);
    }

    private Table follow(ArrayList<Long2ObjectOpenHashMap<Table>> all, Table from, long id, boolean add) {
        Long2ObjectOpenHashMap<Table> edges = edges(all, from.id());
        Table to = edges.get(id);
        if (to == null) {
            to = forType(add ? Types.insert(from.type(), id) : Types.remove(from.type(), id));
            edges.put(id, to);
        }
        return to;
    }

    private static Long2ObjectOpenHashMap<Table> edges(ArrayList<Long2ObjectOpenHashMap<Table>> all, int id) {
        while (all.size() <= id) {
            all.add(null);
        }
        Long2ObjectOpenHashMap<Table> m = all.get(id);
        if (m == null) {
            m = new Long2ObjectOpenHashMap<>(4);
            all.set(id, m);
        }
        return m;
    }

    private void clearEdges() {
        addEdges = new ArrayList<>();
        removeEdges = new ArrayList<>();
    }

    /** The entity indices of every entity in the tables {@link #matching} {@code id}, copied. */
    public int[] holders(long id) {
        var out = new it.unimi.dsi.fastutil.ints.IntArrayList();
        for (Table t : matching(id)) {
            for (int r = 0; r < t.count(); r++) {
                out.add(Ids.index(t.entity(r)));
            }
        }
        return out.toIntArray();
    }

    /**
     * The component index lookup behind {@code World.tables}: every table whose type holds
     * {@code id}, a plain id, a pair, or a wildcard record {@code (R,*)}, {@code (*,T)} ({@code _}
     * is read as {@code *}); {@code (*,*)} gives the tables holding any pair, {@code *} every table.
     * Unmodifiable.
     */
    public List<Table> matching(long id) {
        long key = id;
        if (Ids.isPair(id)) {
            int f = Ids.first(id), s = Ids.second(id);
            f = f == Ids.ANY_INDEX ? Ids.WILDCARD_INDEX : f;
            s = s == Ids.ANY_INDEX ? Ids.WILDCARD_INDEX : s;
            if (f == Ids.WILDCARD_INDEX && s == Ids.WILDCARD_INDEX) {
                var out = new ArrayList<Table>();
                forEach(t -> {
                    if (t.type().length > 0 && Ids.isPair(t.type()[0])) {
                        out.add(t);
                    }
                });
                return out;
            }
            key = Ids.pairOfIndices(f, s);
        } else if (id == Ids.WILDCARD || id == Ids.ANY) {
            return all();
        }
        return java.util.Collections.unmodifiableList(records.get(key));
    }

    /** Counts for statistics: {tables, non-empty tables, pairs held (pair ids times rows)}. */
    public long[] counts() {
        long[] c = new long[3];
        forEach(t -> {
            c[0]++;
            if (t.count() > 0) {
                c[1]++;
                long p = 0;
                for (long id : t.type()) {
                    if (Ids.isPair(id) && !Types.isMarker(id)) { // a sparse marker's pairs are counted by the sparse store
                        p++;
                    }
                }
                c[2] += p * t.count();
            }
        });
        return c;
    }

    /** The table of a type, created (and filed in the component index) when it is new. */
    public Table forType(long[] type) {
        Table t = byType.get(new TypeKey(type));
        if (t != null) {
            return t;
        }
        t = create(freeIds.isEmpty() ? tables.size() : freeIds.popInt(), type);
        changes.table(t.id());
        changes.meta();
        return t;
    }

    /** Creates table {@code id} of a type with columns for the ids that carry data, and files it. */
    public Table create(int id, long[] type) {
        var colIds = new LongArrayList();
        var colSchemas = new ArrayList<Schema>();
        for (long x : type) {
            Schema s = schemas.of(x);
            if (s != null) {
                colIds.add(x);
                colSchemas.add(s);
            }
        }
        Table t = new Table(id, type, colIds.toLongArray(), colSchemas.toArray(new Schema[0]));
        place(t);
        file(t);
        return t;
    }

    /**
     * Puts a table read from a committed state in its slot, without filing it in the component
     * index ({@link #file} or {@link #fileAll} does, once the tables are read).
     */
    public void restore(Table t) {
        place(t);
    }

    /** Files a table in the component index under every record of its type. */
    public void file(Table t) {
        long[] keys = new long[3 * t.type().length];
        for (int i = 0, n = Types.recordKeys(t.type(), keys); i < n; i++) {
            records.add(keys[i], t);
        }
    }

    /** Takes a table out of every component-index record of its type. */
    public void unfile(Table t) {
        long[] keys = new long[3 * t.type().length];
        for (int i = 0, n = Types.recordKeys(t.type(), keys); i < n; i++) {
            records.remove(keys[i], t);
        }
    }

    /**
     * Rebuilds the component index from the tables' types (after a world's tables were read): the
     * index is a function of the types, so the world does not store it. The records are built when
     * first read ({@link IdRecords}): a reader that runs one query scans the tables for the few
     * keys it touches, and the first change builds the whole index.
     */
    public void fileAll() {
        records.rebuildFrom(new IdRecords.TableSource<>() {
            @Override
            public int size() {
                return tables.size();
            }

            @Override
            public Table get(int id) {
                return tables.get(id);
            }

            @Override
            public boolean holds(Table t, long key) {
                return Types.holdsRecordKey(t.type(), key);
            }

            @Override
            public int keys(Table t, long[][] out) {
                out[0] = ensure(out[0], t.type().length);
                return Types.recordKeys(t.type(), out[0]);
            }
        });
    }

    private static long[] ensure(long[] buf, int typeLength) {
        return buf.length >= 3 * typeLength ? buf : new long[Math.max(3 * typeLength, 2 * buf.length)];
    }

    private void place(Table t) {
        records.build(); // the index must not be built from a table list that already has t
        int id = t.id();
        if (id < 0) {
            throw new IllegalArgumentException("table id " + id);
        }
        while (tables.size() <= id) {
            tables.add(null);
        }
        if (tables.get(id) != null) {
            throw new IllegalStateException("table id " + id + " twice");
        }
        tables.set(id, t);
        byType.put(new TypeKey(t.type()), t);
        epoch++;
        tell(t, true);
    }

    /**
     * Takes table {@code id} out (a rollback of the transaction that created it, or of one that
     * reused its id); its component-index records are read again by the caller.
     */
    public void unplace(int id) {
        records.build();
        Table t = get(id);
        if (t != null) {
            tables.set(id, null);
            byType.remove(new TypeKey(t.type()));
            epoch++;
            tell(t, false);
        }
    }

    /** After a rollback: table ids at and past {@code count} no longer exist; the graph is forgotten. */
    public void truncate(int count) {
        for (int id = tables.size() - 1; id >= count; id--) {
            unplace(id);
            tables.remove(id);
        }
        clearEdges();
    }

    /** Before loading: table ids below {@code count} may be restored. */
    public void reserve(int count) {
        while (tables.size() < count) {
            tables.add(null);
        }
    }

    /** After loading: every slot below {@code count} without a table is free for reuse. */
    public void restoreFreeIds(int count) {
        while (tables.size() < count) {
            tables.add(null);
        }
        freeIds = new IntArrayList();
        for (int i = 1; i < tables.size(); i++) {
            if (tables.get(i) == null) {
                freeIds.add(i);
            }
        }
    }

    /** Drops the tables among {@code ids} that are empty (the root table stays). */
    public void dropEmpty(IntOpenHashSet ids) {
        if (ids.isEmpty()) {
            return;
        }
        var empty = new ArrayList<Table>();
        for (int id : ids) {
            Table t = get(id);
            if (t != null && id != 0 && t.count() == 0) {
                empty.add(t);
            }
        }
        drop(empty);
    }

    /**
     * Drops the tables whose type names one of the {@code doomed} entities (given with the
     * generation they had), found through the component index. They must be empty.
     */
    public void dropReferring(long[] doomed) {
        var seen = new IntOpenHashSet();
        var drop = new ArrayList<Table>();
        for (long e : doomed) {
            int x = Ids.index(e);
            for (long key : new long[] {e, Ids.pairOfIndices(x, Ids.WILDCARD_INDEX), Ids.pairOfIndices(Ids.WILDCARD_INDEX, x)}) {
                for (Table t : records.get(key)) {
                    if (seen.add(t.id())) {
                        drop.add(t);
                    }
                }
            }
        }
        drop(drop);
    }

    /** Drops empty tables from the table list, the type map, the component index and the graph. */
    public void drop(List<Table> drop) {
        if (drop.isEmpty()) {
            return;
        }
        records.build();
        epoch++;
        var dropped = new IntOpenHashSet();
        var keys = new LongOpenHashSet(); // records holding a dropped table
        for (Table t : drop) {
            if (t.count() != 0) {
                throw new IllegalStateException("table " + t + " still has rows after cleanup");
            }
            dropped.add(t.id());
            tables.set(t.id(), null);
            freeIds.add(t.id());
            byType.remove(new TypeKey(t.type()));
            changes.table(t.id());
            keys.addAll(Types.recordKeys(t.type()));
            tell(t, false);
        }
        changes.meta();
        if (drop.size() <= 16) {
            for (Table t : drop) { // a binary search per record and table beats a scan of big records
                unfile(t);
            }
        } else {
            for (long k : keys) {
                records.removeIf(k, t -> dropped.contains(t.id()));
            }
        }
        clearEdges();
    }
}
