package dev.quiver.storage;

import dev.quiver.index.Ids;
import dev.quiver.index.PagedMap;
import dev.quiver.error.QuiverException;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongConsumer;

/**
 * A Quiver world: a directory on disk holding entities with components, tags and pairs
 * {@code (relationship, target)}.
 *
 * <p>The world keeps an in-memory mirror of every persistent structure (archetype tables, entity
 * index, component index, reverse relationship index, name index, component schemas) and writes
 * the pages a transaction touched to the journal and then to the Chronicle Map files when the
 * transaction commits ({@link Journal}). Every mutating call is one transaction unless it runs
 * inside {@link #transaction(Consumer)}; a failing transaction changes nothing (the mirror is
 * reloaded from the committed files).
 *
 * <p>Semantics follow Flecs v4: pairs of an Exclusive relationship replace each other, Symmetric
 * relationships add the mirror pair, {@code (With, X)} adds X too, ChildOf and IsA are acyclic,
 * IsA to a Final entity is refused, and deleting an entity applies the cleanup policies
 * {@code (OnDelete|OnDeleteTarget, Remove|Delete|Panic)} (default Remove) recursively as one
 * transaction. Not thread-safe: one thread uses a world at a time.
 */
public final class World implements AutoCloseable {
    private static final int PAGE_SHIFT = 10;
    private static final int PAGE_SIZE = 1 << PAGE_SHIFT;
    private static final int CHUNK_SHIFT = 10;
    /** Tables are persisted in groups: the tables whose ids share {@code id >>> TABLE_GROUP_SHIFT} share a page. */
    private static final int TABLE_GROUP_SHIFT = 6;
    /**
     * A table of at most this many rows keeps its rows in its group page; a larger one keeps them
     * in row chunks of {@code 1 << CHUNK_SHIFT} rows (one page each) in the rows map.
     */
    static final int INLINE_ROWS = 64;
    /** Component-index records naming 64 consecutive entity indices share a page (per key kind). */
    private static final int COMPONENT_SHIFT = 6;
    /** Reverse-index lists of 64 consecutive target indices share a page. */
    private static final int REVERSE_SHIFT = 6;
    private static final byte FREE_NEVER = 0, ALIVE = 1, DEAD = 2;

    private Store store;
    private final Path dir;
    private final boolean readOnly;

    // entity index
    private int[] gens = new int[0];
    private byte[] state = new byte[0];
    private int[] tableOf = new int[0];
    private int[] rowOf = new int[0];
    private String[] names = new String[0];
    private int nextIndex;
    private IntArrayList free = new IntArrayList();

    // tables and indices
    private ArrayList<Table> tables = new ArrayList<>();
    private HashMap<TypeKey, Table> tableByType = new HashMap<>();
    /** Ids of dropped tables, reused by new tables so that the table list stays dense. */
    private IntArrayList freeTableIds = new IntArrayList();
    private Long2ObjectOpenHashMap<ArrayList<Table>> componentIndex = new Long2ObjectOpenHashMap<>();
    private ReverseIndex reverse = new ReverseIndex();
    private NameIndex nameIndex = new NameIndex(i -> names[i]);
    private Int2ObjectOpenHashMap<Schema> schemas = new Int2ObjectOpenHashMap<>();

    // transaction state
    private int txDepth;
    /** Tables that lost rows in this transaction: dropped at commit when empty. */
    private final IntOpenHashSet shrunk = new IntOpenHashSet();
    private final LongOpenHashSet[] dirty = new LongOpenHashSet[Store.MAP_NAMES.length];

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

    /** One persistent page, for snapshots: the map it belongs to, its key and its blob. */
    public record Page(String mapName, long key, byte[] blob) {}

    /** Receives persistent pages ({@link #forEachPage}). */
    @FunctionalInterface
    public interface PageVisitor {
        void visit(String mapName, long key, byte[] blob);
    }

    private World(Store store, boolean readOnly) {
        this.store = store;
        this.dir = store.dir;
        this.readOnly = readOnly;
        for (int i = 0; i < dirty.length; i++) {
            dirty[i] = new LongOpenHashSet();
        }
    }

    // ------------------------------------------------------------------ lifecycle

    /**
     * Creates a new, empty world in {@code dir} (created if missing; must be empty) and opens it
     * for writing.
     *
     * @throws WorldExistsException when {@code dir} is a file or a non-empty directory
     * @throws dev.quiver.error.StorageIOException when it cannot be written
     */
    public static World create(Path dir) {
        // built whole in a temporary sibling and renamed into place: never half made
        Store.create(dir, st -> new World(st, false).bootstrap());
        return open(dir);
    }

    /**
     * Opens an existing world for writing. One writer process per world directory: a second gets
     * {@link WorldLockedException} naming the live holders' pids (writer and readers told apart). A
     * world whose last opener died is recovered first (map files, then the journal).
     *
     * @throws NoWorldException when {@code dir} holds no world
     * @throws dev.quiver.error.CorruptionException when its files are corrupt
     */
    public static World open(Path dir) {
        return openStore(Store.open(dir, false), false);
    }

    /**
     * Opens an existing world for reading; mutations throw {@link ReadOnlyException}. Any number of
     * readers may open a world while no writer holds it. On read-only media (a read-only file system
     * or a directory this process may not write) the reader neither locks nor registers, and since
     * Chronicle Map needs writable mappings it reads copies of the map files made in a temporary
     * directory (java.io.tmpdir, deleted at close); a world there that needs recovery is refused.
     */
    public static World openReadOnly(Path dir) {
        return openStore(Store.open(dir, true), true);
    }

    /** Opens the world in {@code dir} for writing, creating it when {@code dir} holds none. */
    public static World openOrCreate(Path dir) {
        return exists(dir) ? open(dir) : create(dir);
    }

    /** True when {@code dir} holds a world. */
    public static boolean exists(Path dir) {
        return Store.isWorld(dir);
    }

    private static World openStore(Store st, boolean readOnly) {
        World w = new World(st, readOnly);
        try {
            w.load();
        } catch (QuiverException e) {
            w.close();
            throw e;
        } catch (RuntimeException e) {
            w.close();
            throw new dev.quiver.error.CorruptionException("corrupt world " + st.dir + ": " + e, e);
        }
        return w;
    }

    /** The world directory. */
    public Path directory() {
        return dir;
    }

    /** True when opened with {@link #openReadOnly}. */
    public boolean isReadOnly() {
        return readOnly;
    }

    /** Closes the files and releases the lock. Idempotent. */
    @Override
    public void close() {
        if (store != null) {
            store.close();
            store = null;
        }
    }

    private void ensureOpen() {
        if (store == null) {
            throw new IllegalStateException("world " + dir + " is closed");
        }
    }

    // ------------------------------------------------------------------ transactions

    /**
     * Runs {@code body} as one transaction: every change it makes commits together (journal
     * forced to disk, then the map files), or, when it throws, none does and the exception is
     * rethrown. Nested calls join the outer transaction.
     */
    public void transaction(Consumer<World> body) {
        transactionResult(w -> {
            body.accept(w);
            return null;
        });
    }

    /** Like {@link #transaction(Consumer)}, returning the body's result. */
    public <T> T transactionResult(Function<World, T> body) {
        ensureOpen();
        if (txDepth > 0) {
            return body.apply(this);
        }
        checkWritable();
        txDepth++;
        try {
            T r = body.apply(this);
            commit();
            return r;
        } catch (RuntimeException | Error e) {
            rollback();
            throw e;
        } finally {
            txDepth = 0;
        }
    }

    private void mutate(Runnable r) {
        transactionResult(w -> {
            r.run();
            return null;
        });
    }

    private void checkWritable() {
        if (readOnly) {
            throw new ReadOnlyException("world " + dir + " is open read-only");
        }
    }

    private void commit() {
        if (!shrunk.isEmpty()) {
            var empty = new ArrayList<Table>();
            for (int id : shrunk) {
                Table t = id < tables.size() ? tables.get(id) : null;
                if (t != null && id != 0 && t.count() == 0) {
                    empty.add(t);
                }
            }
            shrunk.clear();
            dropTables(empty);
        }
        long[] groups = markLayoutChanges();
        var entries = new ArrayList<Journal.Entry>();
        for (int m = 0; m < dirty.length; m++) {
            var keys = dirty[m].toLongArray();
            Arrays.sort(keys);
            for (long k : keys) {
                entries.add(new Journal.Entry(m, k, serialize(m, k)));
            }
            dirty[m].clear();
        }
        for (long g : groups) {
            forEachTableOfGroup(g, t -> t.chunkedOnDisk = t.count() > INLINE_ROWS);
        }
        store.commit(entries);
    }

    private void rollback() {
        shrunk.clear();
        for (LongOpenHashSet d : dirty) {
            d.clear();
        }
        resetMirror();
        load();
    }

    /** The buffer pages are serialized into (toBytes copies each page out). */
    private final Bytes.Writer pageWriter = new Bytes.Writer(1 << 16);

    /** The component-index keys of each component page (kept in step with {@link #componentIndex}). */
    private Long2ObjectOpenHashMap<LongOpenHashSet> componentPageKeys = new Long2ObjectOpenHashMap<>();

    /**
     * The page of a component-index record. Records are grouped by the entity they name, 64
     * consecutive entity indices a page and one page family per kind of key (plain id,
     * {@code (R, T)} by T, {@code (R, *)} by R, {@code (*, T)} by T), so that the tables a
     * transaction adds for new entities touch pages of those entities, not every page.
     */
    private static long componentPage(long key) {
        if (!Ids.isPair(key)) {
            return Ids.index(key) >>> COMPONENT_SHIFT;
        }
        int f = Ids.first(key), s = Ids.second(key);
        if (s == Ids.WILDCARD_INDEX) {
            return (2L << 40) | (f >>> COMPONENT_SHIFT);
        }
        return (f == Ids.WILDCARD_INDEX ? 3L << 40 : 1L << 40) | (s >>> COMPONENT_SHIFT);
    }

    /** A new component-index record: file its key under its page. */
    private void recordAdded(long key) {
        componentPageKeys.computeIfAbsent(componentPage(key), x -> new LongOpenHashSet()).add(key);
    }

    private void recordRemoved(long key) {
        long page = componentPage(key);
        LongOpenHashSet keys = componentPageKeys.get(page);
        if (keys != null && keys.remove(key) && keys.isEmpty()) {
            componentPageKeys.remove(page);
        }
    }

    private void markDirty(int map, long key) {
        dirty[map].add(key);
    }

    // ------------------------------------------------------------------ entities and names

    /** Creates an anonymous entity. */
    public long entity() {
        return transactionResult(w -> newEntity(null, 0));
    }

    /**
     * Looks up the entity at a {@code .}-separated path ({@code ::} accepted), creating it and any
     * missing parents (each child gets {@code (ChildOf, parent)}). Flecs v4 {@code ecs_entity}
     * semantics.
     *
     * @throws IdException when a name is empty or holds characters outside {@code [A-Za-z0-9_-]}
     */
    public long entity(String path) {
        String[] parts = splitPath(path);
        long found = lookupParts(parts);
        if (found != 0) {
            return found;
        }
        if (parts.length == 1) {
            // a root name just looked up and absent: create it without looking it up again
            return transactionResult(w -> {
                checkName(parts[0]);
                return newEntity(parts[0], 0);
            });
        }
        return transactionResult(w -> {
            long parent = 0;
            for (String part : parts) {
                long e = child(parent, part);
                if (e == 0) {
                    checkName(part);
                    e = newEntity(part, parent);
                }
                parent = e;
            }
            return parent;
        });
    }

    /** The entity at a path, or 0 when there is none. Builtins resolve by plain name. */
    public long lookup(String path) {
        if (path == null || path.isEmpty()) {
            return 0;
        }
        return lookupParts(splitPath(path));
    }

    /**
     * The entity at a path.
     *
     * @throws UnknownNameException when there is none
     */
    public long resolve(String path) {
        long e = lookup(path);
        if (e == 0) {
            throw new UnknownNameException("unknown entity '" + path + "'");
        }
        return e;
    }

    private long lookupParts(String[] parts) {
        if (parts.length == 1) {
            String p = parts[0];
            if (!p.isEmpty() && allDigits(p)) {
                try {
                    return entityOfIndex(Integer.parseInt(p));
                } catch (NumberFormatException e) {
                    return 0;
                }
            }
            long a = Builtin.alias(p);
            if (a != 0) {
                return a;
            }
        }
        long parent = 0;
        for (String part : parts) {
            parent = child(parent, part);
            if (parent == 0) {
                return 0;
            }
        }
        return parent;
    }

    private static boolean allDigits(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (!Character.isDigit(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static String[] splitPath(String path) {
        if (path == null) {
            throw new IdException("null path");
        }
        return path.replace("::", ".").split("\\.", -1);
    }

    private static void checkName(String name) {
        if (name.isEmpty()) {
            throw new IdException("empty name in path");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c == '_' || c == '-' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) {
                throw new IdException("invalid character '" + c + "' in name '" + name + "' (allowed: A-Z a-z 0-9 _ -)");
            }
        }
        if (allDigits(name)) {
            throw new IdException("name '" + name + "' is all digits (digits refer to entity ids)");
        }
    }

    private long child(long parent, String name) {
        return nameIndex.get(Ids.index(parent), name);
    }

    /** The entity's own name, or null when it is anonymous. */
    public String name(long e) {
        int i = aliveIndex(e);
        return names[i];
    }

    /**
     * The entity's path: the names from the root down, joined by {@code .}. An anonymous entity
     * prints as {@code #<index>}.
     */
    public String path(long e) {
        int i = aliveIndex(e);
        if (names[i] == null) {
            return "#" + i;
        }
        int p = parentIndex(i);
        if (p == 0) {
            return names[i];
        }
        return path(entityOfIndex(p)) + "." + names[i];
    }

    /** The parent (target of ChildOf), or 0 for a root entity. */
    public long parent(long e) {
        int p = parentIndex(aliveIndex(e));
        return p == 0 ? 0 : entityOfIndex(p);
    }

    private int parentIndex(int i) {
        return parentOf(tables.get(tableOf[i]).type());
    }

    private static int parentOf(long[] t) {
        int cf = Ids.index(Builtin.CHILD_OF);
        for (long id : t) {
            if (Ids.isPair(id) && Ids.first(id) == cf) {
                return Ids.second(id);
            }
        }
        return 0;
    }

    /** True when the id names a live entity of the current generation (wildcards count as alive). */
    public boolean isAlive(long e) {
        if (Ids.isPair(e)) {
            return false;
        }
        int i = Ids.index(e);
        return i > 0 && i < nextIndex && state[i] == ALIVE && gens[i] == Ids.generation(e);
    }

    /** The live entity id for an entity index (as found in a pair), or 0 when that index is dead. */
    public long entityOfIndex(int index) {
        if (index <= 0 || index >= nextIndex || state[index] != ALIVE) {
            return 0;
        }
        return Ids.entity(index, gens[index]);
    }

    private int aliveIndex(long e) {
        if (!isAlive(e)) {
            throw new DeadEntityException("entity " + describe(e) + " is not alive");
        }
        return Ids.index(e);
    }

    private String describe(long e) {
        if (Ids.isPair(e)) {
            return idToString(e);
        }
        int i = Ids.index(e);
        if (i > 0 && i < nextIndex && state[i] == ALIVE && names[i] != null && gens[i] == Ids.generation(e)) {
            return names[i];
        }
        return "#" + i + (Ids.generation(e) != 0 ? "v" + Ids.generation(e) : "");
    }

    /** Number of alive entities, builtins excluded. */
    public int entityCount() {
        int n = 0;
        for (int i = Builtin.FIRST_USER_INDEX; i < nextIndex; i++) {
            if (state[i] == ALIVE) {
                n++;
            }
        }
        return n;
    }

    private void ensureCapacity(int n) {
        if (n <= gens.length) {
            return;
        }
        int cap = Math.max(n, Math.max(1024, gens.length * 2));
        gens = Arrays.copyOf(gens, cap);
        state = Arrays.copyOf(state, cap);
        tableOf = Arrays.copyOf(tableOf, cap);
        rowOf = Arrays.copyOf(rowOf, cap);
        names = Arrays.copyOf(names, cap);
    }

    private long newEntity(String name, long parent) {
        int idx;
        if (!free.isEmpty()) {
            idx = free.popInt();
        } else {
            if (nextIndex == Integer.MAX_VALUE) {
                throw new IdException("entity index space exhausted");
            }
            idx = nextIndex++;
            ensureCapacity(nextIndex);
        }
        markDirty(Store.META, 0);
        return placeNew(idx, name, parent);
    }

    private long placeNew(int idx, String name, long parent) {
        state[idx] = ALIVE;
        names[idx] = name;
        long e = Ids.entity(idx, gens[idx]);
        Table root = tables.get(0);
        tableOf[idx] = 0;
        rowOf[idx] = root.append(e);
        dirtyRow(root, rowOf[idx]);
        markDirty(Store.ENTITIES, idx >>> PAGE_SHIFT);
        if (name != null) {
            putName(Ids.index(parent), name, e);
        }
        if (parent != 0) {
            addInternal(idx, Ids.pair(Builtin.CHILD_OF, parent));
        }
        return e;
    }

    private void putName(int parentIndex, String name, long e) {
        long replaced = nameIndex.put(parentIndex, name, e);
        markDirty(Store.NAMES, Ids.index(e) >>> PAGE_SHIFT);
        if (replaced != 0) {
            markDirty(Store.NAMES, Ids.index(replaced) >>> PAGE_SHIFT);
        }
    }

    private void removeName(int parentIndex, String name) {
        long removed = nameIndex.remove(parentIndex, name);
        if (removed != 0) {
            markDirty(Store.NAMES, Ids.index(removed) >>> PAGE_SHIFT);
        }
    }

    // ------------------------------------------------------------------ ids

    /** The pair {@code (relationship, target)} ({@link Ids#pair}). */
    public long pair(long relationship, long target) {
        try {
            return Ids.pair(relationship, target);
        } catch (IllegalArgumentException e) {
            throw new IdException(e.getMessage());
        }
    }

    /**
     * Parses an id: a path ({@code Position}, {@code a.b}) or a pair {@code (R, T)} whose elements
     * are paths, {@code *} or {@code _}.
     *
     * @throws UnknownNameException when a name resolves to nothing
     * @throws IdException          when the text is malformed
     */
    public long id(String text) {
        return parseId(text, false);
    }

    /** Like {@link #id(String)}, creating named entities that are missing. */
    public long ensureId(String text) {
        return parseId(text, true);
    }

    private long parseId(String text, boolean create) {
        String s = text == null ? "" : text.trim();
        if (s.startsWith("(")) {
            if (!s.endsWith(")")) {
                throw new IdException("malformed pair '" + text + "': missing ')'");
            }
            String inner = s.substring(1, s.length() - 1);
            int comma = inner.indexOf(',');
            if (comma < 0 || inner.indexOf(',', comma + 1) >= 0) {
                throw new IdException("malformed pair '" + text + "': expected (relationship, target)");
            }
            long r = element(inner.substring(0, comma).trim(), create, text);
            long t = element(inner.substring(comma + 1).trim(), create, text);
            return pair(r, t);
        }
        if (s.isEmpty()) {
            throw new IdException("empty id");
        }
        if (s.contains("(") || s.contains(")") || s.contains(",")) {
            throw new IdException("malformed id '" + text + "'");
        }
        return element(s, create, text);
    }

    private long element(String s, boolean create, String whole) {
        if (s.isEmpty()) {
            throw new IdException("malformed pair '" + whole + "': empty element");
        }
        if (s.equals("*")) {
            return Ids.WILDCARD;
        }
        if (s.equals("_")) {
            return Ids.ANY;
        }
        return create ? entity(s) : resolve(s);
    }

    /** An id as text: an entity's path, or {@code (R,T)} for a pair. */
    public String idToString(long id) {
        if (Ids.isPair(id)) {
            return "(" + elementName(Ids.first(id)) + "," + elementName(Ids.second(id)) + ")";
        }
        return elementName(Ids.index(id));
    }

    private String elementName(int index) {
        if (index == 0) {
            return "0";
        }
        long e = entityOfIndex(index);
        return e == 0 ? "#" + index : path(e);
    }

    // ------------------------------------------------------------------ structure

    /**
     * Adds an id (tag, component or pair) to an entity; adding an id it has changes nothing.
     * Applies the traits of the relationship: Exclusive replaces, Symmetric mirrors, With adds
     * more, ChildOf/IsA refuse cycles, IsA refuses Final targets, OneOf checks the target's parent.
     *
     * @throws DeadEntityException when the entity or an element of the id is not alive
     * @throws IdException         when the id holds a wildcard
     * @throws ConstraintException when a trait refuses the pair
     */
    public void add(long e, long id) {
        int idx = aliveIndex(e);
        checkConcreteId(id);
        mutate(() -> addInternal(idx, id));
    }

    /**
     * Adds several ids in one transaction. Ids whose relationship has no write-time traits
     * (Exclusive, Symmetric, With, OneOf, ChildOf, IsA) move the entity once, straight to its
     * final table, which is what bulk loaders want.
     */
    public void add(long e, long... ids) {
        int idx = aliveIndex(e);
        for (long id : ids) {
            checkConcreteId(id);
        }
        mutate(() -> {
            long[] type = tables.get(tableOf[idx]).type();
            var rest = new LongArrayList();
            for (long id : ids) {
                if (isPlainAdd(id)) {
                    type = insert(type, id);
                } else {
                    rest.add(id);
                }
            }
            setType(idx, type);
            for (int i = 0; i < rest.size(); i++) {
                addInternal(idx, rest.getLong(i));
            }
        });
    }

    /** True when adding {@code id} has no effect beyond the id itself (no write-time trait). */
    private boolean isPlainAdd(long id) {
        int subject = Ids.isPair(id) ? Ids.first(id) : Ids.index(id);
        if (Ids.isPair(id) && (subject == Ids.index(Builtin.CHILD_OF) || subject == Ids.index(Builtin.IS_A))) {
            return false;
        }
        int with = Ids.index(Builtin.WITH), oneOf = Ids.index(Builtin.ONE_OF);
        for (long t : tables.get(tableOf[subject]).type()) {
            if (t == Builtin.EXCLUSIVE || t == Builtin.SYMMETRIC || t == Builtin.ONE_OF) {
                return false;
            }
            if (Ids.isPair(t) && (Ids.first(t) == with || Ids.first(t) == oneOf)) {
                return false;
            }
        }
        return true;
    }

    private void checkConcreteId(long id) {
        if (id == 0) {
            throw new IdException("the null id cannot be added");
        }
        if (Ids.isWildcard(id)) {
            throw new IdException("cannot add the wildcard id " + idToString(id));
        }
        if (Ids.isPair(id)) {
            if (entityOfIndex(Ids.first(id)) == 0) {
                throw new DeadEntityException("pair relationship #" + Ids.first(id) + " is not alive");
            }
            if (entityOfIndex(Ids.second(id)) == 0) {
                throw new DeadEntityException("pair target #" + Ids.second(id) + " is not alive");
            }
        } else if (!isAlive(id)) {
            throw new DeadEntityException("id " + describe(id) + " is not alive");
        }
    }

    private boolean hasIndexTrait(int entityIndex, long trait) {
        return tables.get(tableOf[entityIndex]).hasId(trait);
    }

    private void addInternal(int idx, long id) {
        Table t = tables.get(tableOf[idx]);
        if (t.hasId(id)) {
            return;
        }
        long[] type = t.type();
        var replaced = new LongArrayList();
        if (Ids.isPair(id)) {
            int rel = Ids.first(id), tgt = Ids.second(id);
            checkPairConstraints(idx, rel, tgt);
            if (hasIndexTrait(rel, Builtin.EXCLUSIVE)) {
                var keep = new LongArrayList(type.length);
                for (long old : type) {
                    if (Ids.isPair(old) && Ids.first(old) == rel) {
                        replaced.add(old);
                    } else {
                        keep.add(old);
                    }
                }
                type = keep.toLongArray();
            }
            if (rel == Ids.index(Builtin.CHILD_OF) && names[idx] != null) {
                long other = child(entityOfIndex(tgt), names[idx]);
                if (other != 0 && other != Ids.entity(idx, gens[idx])) {
                    throw new ConstraintException("cannot move '" + names[idx] + "' under " + path(entityOfIndex(tgt))
                            + ": a child with that name exists");
                }
            }
        }
        setType(idx, insert(type, id));
        if (Ids.isPair(id)) {
            int rel = Ids.first(id), tgt = Ids.second(id);
            boolean symmetric = hasIndexTrait(rel, Builtin.SYMMETRIC);
            if (symmetric) {
                for (int k = 0; k < replaced.size(); k++) {
                    int oldTgt = Ids.second(replaced.getLong(k));
                    if (oldTgt != idx && state[oldTgt] == ALIVE) {
                        removeInternal(oldTgt, Ids.pairOfIndices(rel, idx));
                    }
                }
                if (tgt != idx) {
                    addInternal(tgt, Ids.pairOfIndices(rel, idx));
                }
            }
            applyWith(idx, rel, tgt);
        } else {
            applyWith(idx, Ids.index(id), -1);
        }
    }

    private void applyWith(int idx, int idIndex, int target) {
        int with = Ids.index(Builtin.WITH);
        for (long w : tables.get(tableOf[idIndex]).type()) {
            if (Ids.isPair(w) && Ids.first(w) == with) {
                int x = Ids.second(w);
                long add = target < 0 ? entityOfIndex(x) : Ids.pairOfIndices(x, target);
                if (add != 0 && !tables.get(tableOf[idx]).hasId(add)) {
                    addInternal(idx, add);
                }
            }
        }
    }

    private void checkPairConstraints(int idx, int rel, int tgt) {
        int childOf = Ids.index(Builtin.CHILD_OF), isA = Ids.index(Builtin.IS_A);
        if (rel == childOf || rel == isA) {
            if (tgt == idx || reaches(tgt, rel, idx)) {
                throw new ConstraintException("cannot add (" + elementName(rel) + ", " + elementName(tgt) + ") to "
                        + elementName(idx) + ": it would make a cycle (" + elementName(rel) + " is Acyclic)");
            }
        }
        if (rel == isA && hasIndexTrait(tgt, Builtin.FINAL)) {
            throw new ConstraintException("cannot add (IsA, " + elementName(tgt) + "): " + elementName(tgt) + " is Final");
        }
        if (hasIndexTrait(rel, Builtin.ONE_OF) || hasOneOfPair(rel) != 0) {
            int scope = hasIndexTrait(rel, Builtin.ONE_OF) ? rel : hasOneOfPair(rel);
            if (parentIndex(tgt) != scope) {
                throw new ConstraintException("cannot add (" + elementName(rel) + ", " + elementName(tgt) + "): "
                        + elementName(rel) + " is OneOf and the target is not a child of " + elementName(scope));
            }
        }
    }

    private int hasOneOfPair(int rel) {
        int oneOf = Ids.index(Builtin.ONE_OF);
        for (long id : tables.get(tableOf[rel]).type()) {
            if (Ids.isPair(id) && Ids.first(id) == oneOf) {
                return Ids.second(id);
            }
        }
        return 0;
    }

    /** True when {@code to} is reachable from {@code from} over {@code rel} pairs. */
    private boolean reaches(int from, int rel, int to) {
        var seen = new IntOpenHashSet();
        var stack = new IntArrayList();
        stack.add(from);
        while (!stack.isEmpty()) {
            int x = stack.popInt();
            if (!seen.add(x)) {
                continue;
            }
            for (long id : tables.get(tableOf[x]).type()) {
                if (Ids.isPair(id) && Ids.first(id) == rel) {
                    int t = Ids.second(id);
                    if (t == to) {
                        return true;
                    }
                    stack.add(t);
                }
            }
        }
        return false;
    }

    /**
     * Removes an id from an entity. A pair with wildcards removes every matching pair. Removing
     * never triggers cleanup policies (Flecs v4, Tecs: remove never cascades). Symmetric pairs lose
     * their mirror too.
     */
    public void remove(long e, long id) {
        int idx = aliveIndex(e);
        if (id == 0) {
            throw new IdException("the null id cannot be removed");
        }
        mutate(() -> {
            if (Ids.isWildcard(id)) {
                for (long have : tables.get(tableOf[idx]).type()) {
                    if (matches(id, have)) {
                        removeInternal(idx, have);
                    }
                }
            } else {
                removeInternal(idx, id);
            }
        });
    }

    private void removeInternal(int idx, long id) {
        Table t = tables.get(tableOf[idx]);
        int pos = t.indexOf(id);
        if (pos < 0) {
            return;
        }
        if (Ids.isPair(id) && Ids.first(id) == Ids.index(Builtin.CHILD_OF) && names[idx] != null) {
            long other = child(0, names[idx]);
            if (other != 0 && other != Ids.entity(idx, gens[idx])) {
                throw new ConstraintException("cannot remove the parent of " + path(Ids.entity(idx, gens[idx]))
                        + ": a root entity named '" + names[idx] + "' exists");
            }
        }
        long[] nt = new long[t.type().length - 1];
        System.arraycopy(t.type(), 0, nt, 0, pos);
        System.arraycopy(t.type(), pos + 1, nt, pos, nt.length - pos);
        setType(idx, nt);
        if (Ids.isPair(id)) {
            int rel = Ids.first(id), tgt = Ids.second(id);
            if (tgt != idx && state[tgt] == ALIVE && hasIndexTrait(rel, Builtin.SYMMETRIC)) {
                removeInternal(tgt, Ids.pairOfIndices(rel, idx));
            }
        }
    }

    /** True when a concrete id matches a pattern id that may hold {@code *} or {@code _}. */
    public static boolean matches(long pattern, long id) {
        if (pattern == id) {
            return true;
        }
        if (!Ids.isPair(pattern)) {
            return pattern == Ids.WILDCARD || pattern == Ids.ANY;
        }
        if (!Ids.isPair(id)) {
            return false;
        }
        int pf = Ids.first(pattern), ps = Ids.second(pattern);
        boolean f = pf == Ids.WILDCARD_INDEX || pf == Ids.ANY_INDEX || pf == Ids.first(id);
        boolean s = ps == Ids.WILDCARD_INDEX || ps == Ids.ANY_INDEX || ps == Ids.second(id);
        return f && s;
    }

    /** True when the entity owns the id; a pair may hold {@code *} or {@code _} (any match). */
    public boolean has(long e, long id) {
        int idx = aliveIndex(e);
        Table t = tables.get(tableOf[idx]);
        if (!Ids.isWildcard(id)) {
            return t.hasId(id);
        }
        for (long have : t.type()) {
            if (matches(id, have)) {
                return true;
            }
        }
        return false;
    }

    /** A copy of the entity's type: its sorted id vector. */
    public long[] type(long e) {
        return tables.get(tableOf[aliveIndex(e)]).type().clone();
    }

    /** The targets T of every pair {@code (relationship, T)} the entity owns, in id order. */
    public long[] targets(long e, long relationship) {
        int idx = aliveIndex(e);
        int rel = Ids.index(relationship);
        var out = new LongArrayList();
        for (long id : tables.get(tableOf[idx]).type()) {
            if (Ids.isPair(id) && Ids.first(id) == rel) {
                out.add(entityOfIndex(Ids.second(id)));
            }
        }
        return out.toLongArray();
    }

    /** The table holding the entity. */
    public Table table(long e) {
        return tables.get(tableOf[aliveIndex(e)]);
    }

    /** The entity's row in its table. */
    public int row(long e) {
        return rowOf[aliveIndex(e)];
    }

    private static long[] insert(long[] type, long id) {
        int pos = Arrays.binarySearch(type, id);
        if (pos >= 0) {
            return type;
        }
        pos = -pos - 1;
        long[] nt = new long[type.length + 1];
        System.arraycopy(type, 0, nt, 0, pos);
        nt[pos] = id;
        System.arraycopy(type, pos, nt, pos + 1, type.length - pos);
        return nt;
    }

    /** Moves entity {@code idx} to the table of {@code newType}, keeping indices in step. */
    private void setType(int idx, long[] newType) {
        Table src = tables.get(tableOf[idx]);
        long[] old = src.type();
        Table dst = tableFor(newType);
        if (dst == src) {
            return;
        }
        long e = Ids.entity(idx, gens[idx]);
        // reverse index and name index follow the pair changes
        int i = 0, j = 0;
        while (i < old.length || j < newType.length) {
            long a = i < old.length ? old[i] : Long.MAX_VALUE;
            long b = j < newType.length ? newType[j] : Long.MAX_VALUE;
            if (i < old.length && (j >= newType.length || a < b)) {
                pairRemoved(idx, a);
                i++;
            } else if (j < newType.length && (i >= old.length || b < a)) {
                pairAdded(idx, b);
                j++;
            } else {
                i++;
                j++;
            }
        }
        if (names[idx] != null) {
            int op = parentOf(old), np = parentOf(newType);
            if (op != np) {
                if (child(entityOfIndex(op), names[idx]) == e) {
                    removeName(op, names[idx]);
                }
                putName(np, names[idx], e);
            }
        }
        int srow = rowOf[idx];
        int drow = dst.append(e);
        for (Column dc : dst.columns()) {
            Column sc = src.column(dc.id());
            if (sc != null) {
                sc.copyRow(srow, dc, drow);
            }
        }
        int last = src.count() - 1;
        shrunk.add(src.id());
        long moved = src.removeSwap(srow);
        if (moved != 0) {
            rowOf[Ids.index(moved)] = srow;
        }
        dirtyRow(src, srow);
        dirtyRow(src, last);
        dirtyRow(dst, drow);
        tableOf[idx] = dst.id();
        rowOf[idx] = drow;
    }

    private void pairAdded(int idx, long id) {
        if (!Ids.isPair(id)) {
            return;
        }
        int tgt = Ids.second(id);
        reverse.add(tgt, ((long) Ids.first(id) << 32) | idx);
        markDirty(Store.REVERSE, tgt >>> REVERSE_SHIFT);
    }

    private void pairRemoved(int idx, long id) {
        if (!Ids.isPair(id)) {
            return;
        }
        int tgt = Ids.second(id);
        reverse.remove(tgt, ((long) Ids.first(id) << 32) | idx);
        markDirty(Store.REVERSE, tgt >>> REVERSE_SHIFT);
    }

    /**
     * Marks the page holding a changed row: the table's group page while its rows are inline, the
     * row's chunk page while they are chunked; both when the table crosses {@link #INLINE_ROWS}
     * (the commit then rewrites every chunk, see {@link #markLayoutChanges()}).
     */
    private void dirtyRow(Table t, int row) {
        if (row < 0) {
            return;
        }
        boolean chunked = t.count() > INLINE_ROWS;
        if (chunked != t.chunkedOnDisk || !chunked) {
            markDirty(Store.TABLES, t.id() >>> TABLE_GROUP_SHIFT);
        }
        if (chunked || t.chunkedOnDisk) {
            markDirty(Store.ROWS, rowsKey(t.id(), row >>> CHUNK_SHIFT));
        }
    }

    private static long rowsKey(int table, int chunk) {
        return ((long) table << 20) | chunk;
    }

    /**
     * Before serializing: every table of a dirty group page that changes between inline and
     * chunked rows gets all its chunk pages written (or removed). Returns the dirty groups.
     */
    private long[] markLayoutChanges() {
        long[] groups = dirty[Store.TABLES].toLongArray();
        for (long g : groups) {
            forEachTableOfGroup(g, t -> {
                if ((t.count() > INLINE_ROWS) != t.chunkedOnDisk) {
                    for (int c = 0; c == 0 || c <= (t.count() - 1) >>> CHUNK_SHIFT; c++) {
                        markDirty(Store.ROWS, rowsKey(t.id(), c));
                    }
                }
            });
        }
        return groups;
    }

    /** Calls {@code action} with each live table of group page {@code group}, in id order. */
    private void forEachTableOfGroup(long group, Consumer<Table> action) {
        int from = (int) group << TABLE_GROUP_SHIFT, to = Math.min(tables.size(), from + (1 << TABLE_GROUP_SHIFT));
        for (int id = from; id < to; id++) {
            Table t = tables.get(id);
            if (t != null) {
                action.accept(t);
            }
        }
    }

    private Table tableFor(long[] type) {
        Table t = tableByType.get(new TypeKey(type));
        if (t != null) {
            return t;
        }
        t = newTable(freeTableIds.isEmpty() ? tables.size() : freeTableIds.popInt(), type);
        markDirty(Store.TABLES, t.id() >>> TABLE_GROUP_SHIFT);
        markDirty(Store.META, 0);
        return t;
    }

    private Table newTable(int id, long[] type) {
        var colIds = new LongArrayList();
        var colSchemas = new ArrayList<Schema>();
        for (long x : type) {
            Schema s = schema(x);
            if (s != null) {
                colIds.add(x);
                colSchemas.add(s);
            }
        }
        Table t = new Table(id, type, colIds.toLongArray(), colSchemas.toArray(new Schema[0]));
        while (tables.size() <= id) {
            tables.add(null);
        }
        tables.set(id, t);
        tableByType.put(new TypeKey(type), t);
        registerTable(t);
        return t;
    }

    /**
     * The component-index records a table of this type belongs to: each id of the type, and for
     * each pair {@code (R,T)} also {@code (R,*)} and {@code (*,T)}; each key once.
     */
    private static LongOpenHashSet indexKeys(long[] type) {
        var keys = new LongOpenHashSet(type.length * 3);
        for (long x : type) {
            keys.add(x);
            if (Ids.isPair(x)) {
                keys.add(Ids.pairOfIndices(Ids.first(x), Ids.WILDCARD_INDEX));
                keys.add(Ids.pairOfIndices(Ids.WILDCARD_INDEX, Ids.second(x)));
            }
        }
        return keys;
    }

    private void registerTable(Table t) {
        for (long k : indexKeys(t.type())) {
            ArrayList<Table> l = componentIndex.get(k);
            if (l == null) {
                l = new ArrayList<>();
                componentIndex.put(k, l);
                recordAdded(k);
            }
            l.add(t);
            markDirty(Store.COMPONENTS, componentPage(k));
        }
    }

    // ------------------------------------------------------------------ components

    /**
     * Declares a component with a schema at a path (created if missing). Re-declaring with the
     * same schema changes nothing.
     *
     * @throws ConstraintException when the entity already has another schema, or is already in use
     *                             as an id (its tables would change layout)
     */
    public long component(String path, Schema schema) {
        return transactionResult(w -> {
            long c = entity(path);
            int ci = Ids.index(c);
            Schema old = schemas.get(ci);
            if (old != null) {
                if (!old.equals(schema)) {
                    throw new ConstraintException("component " + path + " already has schema " + old);
                }
                return c;
            }
            if (componentIndex.containsKey(c) || componentIndex.containsKey(Ids.pairOfIndices(ci, Ids.WILDCARD_INDEX))
                    || componentIndex.containsKey(Ids.pairOfIndices(Ids.WILDCARD_INDEX, ci))) {
                throw new ConstraintException("cannot give " + path + " a schema: it is already in use as an id");
            }
            schemas.put(ci, schema);
            markDirty(Store.SCHEMAS, ci);
            addInternal(ci, Builtin.COMPONENT);
            return c;
        });
    }

    /** Declares a component from a Java record; its name is the record's simple name. */
    public long component(Class<? extends Record> type) {
        return component(type.getSimpleName(), Schema.ofRecord(type));
    }

    /**
     * The schema of the data an id carries, or null for a tag. A pair carries the relationship's
     * schema if it has one, else the target's (Flecs v4 pair type rules), unless the relationship
     * is PairIsTag.
     */
    public Schema schema(long id) {
        if (!Ids.isPair(id)) {
            return schemas.get(Ids.index(id));
        }
        int rel = Ids.first(id), tgt = Ids.second(id);
        if (rel < nextIndex && state[rel] == ALIVE && hasIndexTrait(rel, Builtin.PAIR_IS_TAG)) {
            return null;
        }
        Schema s = schemas.get(rel);
        return s != null ? s : schemas.get(tgt);
    }

    /**
     * Sets a component value (adding the id first if the entity lacks it). {@code value} is a
     * {@code Map} of field names to values (missing fields keep their value), a Java record, or an
     * {@code Object[]} of values in field order.
     *
     * @throws ValueException when the id has no schema or the value does not fit it
     */
    public void set(long e, long id, Object value) {
        int idx = aliveIndex(e);
        checkConcreteId(id);
        Schema s = schema(id);
        if (s == null) {
            throw new ValueException(idToString(id) + " is a tag: it carries no value");
        }
        Object[] vals = toFieldValues(s, value, idToString(id));
        mutate(() -> {
            addInternal(idx, id);
            Table t = tables.get(tableOf[idx]);
            Column c = t.column(id);
            int row = rowOf[idx];
            for (int f = 0; f < s.size(); f++) {
                if (vals[f] == NO_VALUE) {
                    continue;
                }
                if (s.field(f).type() == FieldType.STRING) {
                    c.setString(f, row, (String) vals[f]);
                } else {
                    c.setWord(f, row, (Long) vals[f]);
                }
            }
            dirtyRow(t, row);
        });
    }

    private static final Object NO_VALUE = new Object();

    private static Object[] toFieldValues(Schema s, Object value, String what) {
        Object[] out = new Object[s.size()];
        Arrays.fill(out, NO_VALUE);
        if (value instanceof Map) {
            for (var en : ((Map<?, ?>) value).entrySet()) {
                String k = String.valueOf(en.getKey());
                int f = s.indexOf(k);
                if (f < 0) {
                    throw new ValueException(what + " has no field '" + k + "' (fields: " + s + ")");
                }
                out[f] = convert(s.field(f), en.getValue());
            }
        } else if (value instanceof Record) {
            var rcs = value.getClass().getRecordComponents();
            for (var rc : rcs) {
                int f = s.indexOf(rc.getName());
                if (f < 0) {
                    throw new ValueException(what + " has no field '" + rc.getName() + "' (fields: " + s + ")");
                }
                try {
                    out[f] = convert(s.field(f), rc.getAccessor().invoke(value));
                } catch (ReflectiveOperationException ex) {
                    throw new ValueException("cannot read record component " + rc.getName() + ": " + ex);
                }
            }
        } else if (value instanceof Object[]) {
            Object[] arr = (Object[]) value;
            if (arr.length > s.size()) {
                throw new ValueException(what + " has " + s.size() + " fields, got " + arr.length + " values");
            }
            for (int f = 0; f < arr.length; f++) {
                out[f] = convert(s.field(f), arr[f]);
            }
        } else {
            throw new ValueException(what + " needs an object value, got " + FieldType.describe(value));
        }
        return out;
    }

    private static Object convert(Schema.Field f, Object v) {
        if (f.type() == FieldType.STRING) {
            if (!(v instanceof String)) {
                throw new ValueException("field '" + f.name() + "' is a string, got " + FieldType.describe(v));
            }
            return v;
        }
        return f.type().toRaw(f.name(), v);
    }

    /** The value of a data id on the entity as an ordered field map, or null when absent. */
    public Map<String, Object> get(long e, long id) {
        int idx = aliveIndex(e);
        Table t = tables.get(tableOf[idx]);
        Column c = t.column(id);
        return c == null ? null : c.row(rowOf[idx]);
    }

    /** The value of a record component on the entity, or null when absent. */
    public <T extends Record> T get(long e, Class<T> type) {
        long c = lookup(type.getSimpleName());
        if (c == 0) {
            throw new UnknownNameException("unknown component '" + type.getSimpleName() + "'");
        }
        Map<String, Object> m = get(e, c);
        if (m == null) {
            return null;
        }
        var rcs = type.getRecordComponents();
        Object[] args = new Object[rcs.length];
        Class<?>[] types = new Class<?>[rcs.length];
        for (int i = 0; i < rcs.length; i++) {
            args[i] = m.get(rcs[i].getName());
            types[i] = rcs[i].getType();
        }
        try {
            return type.getDeclaredConstructor(types).newInstance(args);
        } catch (ReflectiveOperationException ex) {
            throw new ValueException("cannot build " + type.getName() + " from " + m + ": " + ex);
        }
    }

    // ------------------------------------------------------------------ delete and cleanup

    /**
     * Deletes an entity and applies every cleanup policy it reaches, as one transaction (Flecs v4
     * cleanup policies): holders of the entity as an id or relationship follow its
     * {@code (OnDelete, action)}, holders of pairs targeting it follow the relationship's
     * {@code (OnDeleteTarget, action)}; Remove (default) strips the reference, Delete deletes the
     * holder (recursively, cycles included), Panic refuses the whole delete. Tables whose type
     * names a deleted entity are dropped, so no id, pair, index entry or name points at a dead
     * entity afterwards.
     *
     * @throws CleanupPanicException when a Panic policy is reached; nothing changed
     * @throws ConstraintException   when the entity is a builtin
     */
    public void delete(long e) {
        int idx = aliveIndex(e);
        if (Builtin.isBuiltin(e)) {
            throw new ConstraintException("cannot delete builtin " + names[idx]);
        }
        mutate(() -> deleteInternal(idx));
    }

    private int cleanupAction(int entityIndex, long condition) {
        int cond = Ids.index(condition);
        for (long id : tables.get(tableOf[entityIndex]).type()) {
            if (Ids.isPair(id) && Ids.first(id) == cond) {
                return Ids.second(id);
            }
        }
        return Ids.index(Builtin.REMOVE);
    }

    private void deleteInternal(int root) {
        final int delete = Ids.index(Builtin.DELETE), panic = Ids.index(Builtin.PANIC);
        var doomed = new IntOpenHashSet();
        var order = new IntArrayList();
        doomed.add(root);
        order.add(root);
        for (int k = 0; k < order.size(); k++) {
            int x = order.getInt(k);
            if (x < Builtin.FIRST_USER_INDEX) {
                throw new ConstraintException("cleanup would delete builtin " + names[x]);
            }
            int onDelete = cleanupAction(x, Builtin.ON_DELETE);
            if (onDelete == delete || onDelete == panic) {
                for (long pattern : new long[] {Ids.entity(x, gens[x]), Ids.pairOfIndices(x, Ids.WILDCARD_INDEX)}) {
                    for (Table t : record(pattern)) {
                        for (int r = 0; r < t.count(); r++) {
                            int h = Ids.index(t.entity(r));
                            if (h == x) {
                                continue;
                            }
                            if (onDelete == panic) {
                                throw new CleanupPanicException("cannot delete " + elementName(root) + ": "
                                        + elementName(x) + " has (OnDelete, Panic) and " + elementName(h) + " uses it");
                            }
                            if (doomed.add(h)) {
                                order.add(h);
                            }
                        }
                    }
                }
            }
            LongArrayList refs = reverse.get(x);
            if (refs != null) {
                for (int k2 = 0; k2 < refs.size(); k2++) {
                    long en = refs.getLong(k2);
                    int rel = (int) (en >>> 32), h = (int) en;
                    int action = cleanupAction(rel, Builtin.ON_DELETE_TARGET);
                    if (action == panic && h != x) {
                        throw new CleanupPanicException("cannot delete " + elementName(root) + ": "
                                + elementName(h) + " has (" + elementName(rel) + ", " + elementName(x)
                                + ") and " + elementName(rel) + " has (OnDeleteTarget, Panic)");
                    }
                    if (action == delete && doomed.add(h)) {
                        order.add(h);
                    }
                }
            }
        }
        // Apply: strip references from survivors, then drop the doomed entities and their tables.
        var holders = new IntOpenHashSet();
        for (int x : order) {
            for (long pattern : new long[] {Ids.entity(x, gens[x]), Ids.pairOfIndices(x, Ids.WILDCARD_INDEX)}) {
                for (Table t : record(pattern)) {
                    for (int r = 0; r < t.count(); r++) {
                        holders.add(Ids.index(t.entity(r)));
                    }
                }
            }
            LongArrayList refs = reverse.get(x);
            if (refs != null) {
                for (int k2 = 0; k2 < refs.size(); k2++) {
                    holders.add((int) refs.getLong(k2));
                }
            }
        }
        holders.removeAll(doomed);
        for (int h : holders.toIntArray()) {
            long[] t = tables.get(tableOf[h]).type();
            var keep = new LongArrayList(t.length);
            for (long id : t) {
                if (!refersTo(id, doomed)) {
                    keep.add(id);
                }
            }
            if (keep.size() != t.length) {
                setType(h, keep.toLongArray());
            }
        }
        long[] doomedIds = new long[order.size()];
        for (int k = 0; k < doomedIds.length; k++) {
            doomedIds[k] = Ids.entity(order.getInt(k), gens[order.getInt(k)]);
        }
        // names of doomed children go with them; deepest first keeps paths valid while removing
        for (int k = order.size() - 1; k >= 0; k--) {
            int x = order.getInt(k);
            Table t = tables.get(tableOf[x]);
            // unindex its pairs and name
            for (long id : t.type()) {
                pairRemoved(x, id);
            }
            if (names[x] != null) {
                removeName(parentIndex(x), names[x]);
            }
            int row = rowOf[x];
            int last = t.count() - 1;
            shrunk.add(t.id());
            long moved = t.removeSwap(row);
            if (moved != 0) {
                rowOf[Ids.index(moved)] = row;
            }
            dirtyRow(t, row);
            dirtyRow(t, last);
            state[x] = DEAD;
            gens[x] = (gens[x] + 1) & Ids.MAX_GENERATION;
            names[x] = null;
            tableOf[x] = 0;
            rowOf[x] = -1;
            if (schemas.remove(x) != null) {
                markDirty(Store.SCHEMAS, x);
            }
            if (reverse.removeAll(x)) {
                markDirty(Store.REVERSE, x >>> REVERSE_SHIFT);
            }
            free.add(x);
            markDirty(Store.ENTITIES, x >>> PAGE_SHIFT);
            markDirty(Store.META, 0);
        }
        dropTablesReferring(doomedIds);
    }

    private static boolean refersTo(long id, IntOpenHashSet doomed) {
        if (Ids.isPair(id)) {
            return doomed.contains(Ids.first(id)) || doomed.contains(Ids.second(id));
        }
        return doomed.contains(Ids.index(id));
    }

    private static final List<Table> EMPTY = Collections.emptyList();

    private List<Table> record(long key) {
        List<Table> l = componentIndex.get(key);
        return l == null ? EMPTY : l;
    }

    /**
     * Drops the tables whose type names a doomed entity (given with the generation it had), found
     * through the component index.
     */
    private void dropTablesReferring(long[] doomed) {
        var seen = new IntOpenHashSet();
        var drop = new ArrayList<Table>();
        for (long e : doomed) {
            int x = Ids.index(e);
            for (long key : new long[] {e, Ids.pairOfIndices(x, Ids.WILDCARD_INDEX), Ids.pairOfIndices(Ids.WILDCARD_INDEX, x)}) {
                for (Table t : record(key)) {
                    if (seen.add(t.id())) {
                        drop.add(t);
                    }
                }
            }
        }
        dropTables(drop);
    }

    /** Drops empty tables: from the table list, the type map and the component index. */
    private void dropTables(List<Table> drop) {
        if (drop.isEmpty()) {
            return;
        }
        var dropped = new IntOpenHashSet();
        var keys = new LongOpenHashSet();
        for (Table t : drop) {
            if (t.count() != 0) {
                throw new IllegalStateException("table " + t + " still has rows after cleanup");
            }
            dropped.add(t.id());
            tables.set(t.id(), null);
            freeTableIds.add(t.id());
            tableByType.remove(new TypeKey(t.type()));
            markDirty(Store.TABLES, t.id() >>> TABLE_GROUP_SHIFT);
            keys.addAll(indexKeys(t.type()));
        }
        markDirty(Store.META, 0);
        for (long k : keys) {
            ArrayList<Table> l = componentIndex.get(k);
            if (l != null) {
                l.removeIf(t -> dropped.contains(t.id()));
                if (l.isEmpty()) {
                    componentIndex.remove(k);
                    recordRemoved(k);
                }
                markDirty(Store.COMPONENTS, componentPage(k));
            }
        }
    }

    // ------------------------------------------------------------------ read side for queries

    /**
     * The component index: every table whose type holds {@code id}. {@code id} may be a plain id,
     * a pair {@code (R,T)}, or a wildcard record {@code (R,*)}, {@code (*,T)} ({@code _} is read
     * as {@code *}); a wildcard record lists each table once. Unmodifiable; do not hold across
     * mutations.
     */
    public List<Table> tables(long id) {
        long key = id;
        if (Ids.isPair(id)) {
            int f = Ids.first(id), s = Ids.second(id);
            if (f == Ids.ANY_INDEX) {
                f = Ids.WILDCARD_INDEX;
            }
            if (s == Ids.ANY_INDEX) {
                s = Ids.WILDCARD_INDEX;
            }
            if (f == Ids.WILDCARD_INDEX && s == Ids.WILDCARD_INDEX) {
                var out = new ArrayList<Table>();
                for (Table t : tables) {
                    if (t != null && t.type().length > 0 && Ids.isPair(t.type()[0])) {
                        out.add(t);
                    }
                }
                return out;
            }
            key = Ids.pairOfIndices(f, s);
        } else if (id == Ids.WILDCARD || id == Ids.ANY) {
            return allTables();
        }
        List<Table> l = componentIndex.get(key);
        return l == null ? EMPTY : Collections.unmodifiableList(l);
    }

    /** Every table, in id order. */
    public List<Table> allTables() {
        var out = new ArrayList<Table>(tables.size());
        for (Table t : tables) {
            if (t != null) {
                out.add(t);
            }
        }
        return out;
    }

    /**
     * The reverse index: calls {@code action} with every entity that directly owns
     * {@code (relationship, target)}; {@code relationship} may be {@link Ids#WILDCARD}.
     */
    public void forEachSource(long relationship, long target, LongConsumer action) {
        boolean any = relationship == Ids.WILDCARD || relationship == Ids.ANY;
        reverse.forEachSource(Ids.index(target), any ? -1 : Ids.index(relationship),
                s -> action.accept(Ids.entity(s, gens[s])));
    }

    /**
     * The reverse index by entity index, for graph walks: calls {@code action} with the entity
     * index of every entity that directly owns {@code (relationship, target)}, where
     * {@code target} is an entity index ({@link Ids#index}) and {@code relationship} an entity id.
     * Indices of entities that are not alive never appear.
     */
    public void forEachSourceIndex(long relationship, int targetIndex, java.util.function.IntConsumer action) {
        reverse.forEachSource(targetIndex, Ids.index(relationship), action);
    }

    /** Number of pairs {@code (*, target)} pointing at the target. */
    public int sourceCount(long target) {
        LongArrayList l = reverse.get(Ids.index(target));
        return l == null ? 0 : l.size();
    }

    // ------------------------------------------------------------------ stats and check

    /** Counts describing the world. */
    public WorldStats stats() {
        long pairs = 0, nonEmpty = 0, nTables = 0;
        for (Table t : tables) {
            if (t == null) {
                continue;
            }
            nTables++;
            if (t.count() > 0) {
                nonEmpty++;
                long p = 0;
                for (long id : t.type()) {
                    if (Ids.isPair(id)) {
                        p++;
                    }
                }
                pairs += p * t.count();
            }
        }
        return new WorldStats(entityCount(), nTables, nonEmpty, pairs, componentIndex.size(), schemas.size(),
                store == null ? 0 : store.bytesOnDisk());
    }

    /**
     * Verifies every invariant: each alive entity sits in exactly one table row and back; no type
     * names a dead entity; the component index, reverse index and name index equal what the
     * tables derive; the persisted pages equal the mirror. Returns the violations found (empty:
     * the world is consistent), at most 100.
     */
    public List<String> check() {
        ensureOpen();
        var v = new ArrayList<String>();
        // entity index <-> tables
        var seen = new IntOpenHashSet();
        for (Table t : tables) {
            if (t == null) {
                continue;
            }
            for (long id : t.type()) {
                if (Ids.isPair(id)) {
                    if (entityOfIndex(Ids.first(id)) == 0 || entityOfIndex(Ids.second(id)) == 0) {
                        v.add("table " + t.id() + " type holds pair " + idToString(id) + " naming a dead entity");
                    }
                } else if (!isAlive(id)) {
                    v.add("table " + t.id() + " type holds dead id " + Ids.toHex(id));
                }
            }
            for (int r = 0; r < t.count(); r++) {
                long e = t.entity(r);
                int i = Ids.index(e);
                if (!isAlive(e)) {
                    v.add("table " + t.id() + " row " + r + " holds dead entity " + Ids.toHex(e));
                } else if (tableOf[i] != t.id() || rowOf[i] != r) {
                    v.add("entity " + describe(e) + " indexed at table " + tableOf[i] + " row " + rowOf[i]
                            + " but found in table " + t.id() + " row " + r);
                }
                if (!seen.add(i)) {
                    v.add("entity " + describe(e) + " is in two rows");
                }
            }
        }
        for (int i = 1; i < nextIndex; i++) {
            if (state[i] == ALIVE && !seen.contains(i)) {
                v.add("alive entity #" + i + " is in no table");
            }
        }
        // component index
        var expect = new Long2ObjectOpenHashMap<IntOpenHashSet>();
        for (Table t : tables) {
            if (t == null) {
                continue;
            }
            for (long k : indexKeys(t.type())) {
                expect.computeIfAbsent(k, x -> new IntOpenHashSet()).add(t.id());
            }
        }
        for (var en : expect.long2ObjectEntrySet()) {
            var have = new IntOpenHashSet();
            List<Table> l = componentIndex.get(en.getLongKey());
            if (l != null) {
                for (Table t : l) {
                    have.add(t.id());
                }
            }
            if (!have.equals(en.getValue()) || (l != null && l.size() != have.size())) {
                v.add("component index for " + idToString(en.getLongKey()) + " lists tables " + have
                        + ", the tables say " + en.getValue());
            }
        }
        long filed = 0;
        for (LongOpenHashSet keys : componentPageKeys.values()) {
            filed += keys.size();
        }
        for (long k : componentIndex.keySet()) {
            if (!expect.containsKey(k)) {
                v.add("component index has a record for " + idToString(k) + " that no table holds");
            }
            LongOpenHashSet keys = componentPageKeys.get(componentPage(k));
            if (keys == null || !keys.contains(k)) {
                v.add("component index record " + idToString(k) + " is filed under no page");
            }
        }
        if (filed != componentIndex.size()) {
            v.add("component pages file " + filed + " records, the index has " + componentIndex.size());
        }
        // reverse index
        var rev = new Int2ObjectOpenHashMap<LongOpenHashSet>();
        for (Table t : tables) {
            if (t == null) {
                continue;
            }
            for (long x : t.type()) {
                if (Ids.isPair(x)) {
                    for (int r = 0; r < t.count(); r++) {
                        rev.computeIfAbsent(Ids.second(x), k -> new LongOpenHashSet())
                                .add(((long) Ids.first(x) << 32) | Ids.index(t.entity(r)));
                    }
                }
            }
        }
        for (var en : rev.int2ObjectEntrySet()) {
            LongArrayList have = reverse.get(en.getIntKey());
            if (have == null || have.size() != en.getValue().size() || !en.getValue().containsAll(have)) {
                v.add("reverse index for target " + elementName(en.getIntKey()) + " has "
                        + (have == null ? 0 : have.size()) + " entries, the tables say " + en.getValue().size());
            }
        }
        for (int k : reverse.targets()) {
            if (!rev.containsKey(k)) {
                v.add("reverse index has entries for " + elementName(k) + " that no table holds");
            }
        }
        // name index
        int named = 0;
        for (int i = 1; i < nextIndex; i++) {
            if (state[i] == ALIVE && names[i] != null) {
                named++;
                long e = child(entityOfIndex(parentIndex(i)), names[i]);
                if (e != Ids.entity(i, gens[i])) {
                    v.add("name index does not map " + names[i] + " under #" + parentIndex(i) + " to #" + i);
                }
            }
        }
        nameIndex.forEach((parent, e) -> {
            if (!isAlive(e)) {
                v.add("name index points at dead entity " + Ids.toHex(e));
            } else if (parentIndex(Ids.index(e)) != parent) {
                v.add("name index files " + describe(e) + " under #" + parent + ", its parent is #"
                        + parentIndex(Ids.index(e)));
            }
        });
        if (nameIndex.size() != named) {
            v.add("name index holds " + nameIndex.size() + " names, entities have " + named);
        }
        // persisted pages equal the mirror
        if (v.isEmpty() && txDepth == 0) {
            checkPersisted(v);
        }
        return v.size() > 100 ? v.subList(0, 100) : v;
    }

    private void checkPersisted(List<String> v) {
        for (int m = 0; m < Store.MAP_NAMES.length; m++) {
            final int map = m;
            var keys = new LongOpenHashSet();
            store.maps[m].forEach((k, blob) -> {
                keys.add(k);
                byte[] mine = serialize(map, k);
                if (!Arrays.equals(mine, blob) && v.size() < 100) {
                    v.add("persisted " + Store.MAP_NAMES[map] + " page " + k + " differs from the world in memory");
                }
            });
            for (long k : expectedKeys(m)) {
                if (!keys.contains(k) && v.size() < 100) {
                    v.add("persisted " + Store.MAP_NAMES[m] + " lacks page " + k);
                }
            }
        }
    }

    private long[] expectedKeys(int map) {
        var out = new LongArrayList();
        switch (map) {
            case Store.META:
                out.add(0);
                break;
            case Store.SCHEMAS:
                for (int k : schemas.keySet()) out.add(k);
                break;
            case Store.ENTITIES:
                for (int p = 0; p <= (nextIndex - 1) >>> PAGE_SHIFT; p++) out.add(p);
                break;
            case Store.TABLES: {
                var groups = new LongOpenHashSet();
                for (Table t : tables) if (t != null) groups.add(t.id() >>> TABLE_GROUP_SHIFT);
                out.addAll(groups);
                break;
            }
            case Store.ROWS:
                for (Table t : tables) {
                    if (t != null && t.count() > INLINE_ROWS) {
                        for (int c = 0; c * (1 << CHUNK_SHIFT) < t.count(); c++) out.add(rowsKey(t.id(), c));
                    }
                }
                break;
            case Store.COMPONENTS:
                out.addAll(componentPageKeys.keySet());
                break;
            case Store.REVERSE: {
                var pages = new LongOpenHashSet();
                for (int k : reverse.targets()) pages.add(k >>> REVERSE_SHIFT);
                out.addAll(pages);
                break;
            }
            case Store.NAMES: {
                var pages = new LongOpenHashSet();
                nameIndex.forEach((parent, e) -> pages.add(Ids.index(e) >>> PAGE_SHIFT));
                out.addAll(pages);
                break;
            }
            default:
                break;
        }
        return out.toLongArray();
    }

    // ------------------------------------------------------------------ snapshot SPI

    /** Streams every persistent page of the committed state (not inside a transaction). */
    public void forEachPage(PageVisitor visitor) {
        ensureOpen();
        if (txDepth > 0) {
            throw new IllegalStateException("forEachPage inside a transaction");
        }
        for (int m = 0; m < Store.MAP_NAMES.length; m++) {
            for (long k : expectedKeys(m)) {
                byte[] b = serialize(m, k);
                if (b != null) {
                    visitor.visit(Store.MAP_NAMES[m], k, b);
                }
            }
        }
    }

    /**
     * Creates a new world in {@code dir} from pages written by {@link #forEachPage}, and returns
     * it open for writing. The pages are checked by loading them.
     *
     * @throws dev.quiver.error.BadInputException when {@code dir} is not empty, a map name is unknown,
     *                                         or the pages do not form a consistent world
     */
    public static World restorePages(Path dir, Iterable<Page> pages) {
        // built whole in a temporary sibling and renamed into place: never half made
        Store.create(dir, st -> {
            var entries = new ArrayList<Journal.Entry>();
            for (Page p : pages) {
                int m = Arrays.asList(Store.MAP_NAMES).indexOf(p.mapName());
                if (m < 0) {
                    throw new dev.quiver.error.BadInputException("unknown map '" + p.mapName() + "' in pages");
                }
                entries.add(new Journal.Entry(m, p.key(), p.blob()));
            }
            st.commit(entries);
            List<String> problems = openStore(st, false).check();
            if (!problems.isEmpty()) {
                throw new dev.quiver.error.BadInputException("restored world is inconsistent: " + problems.get(0));
            }
        });
        return open(dir);
    }

    // ------------------------------------------------------------------ bootstrap, load, serialize

    private void bootstrap() {
        ensureCapacity(Builtin.FIRST_USER_INDEX);
        nextIndex = Builtin.FIRST_USER_INDEX;
        newTable(0, new long[0]);
        markDirty(Store.TABLES, 0);
        txDepth = 1;
        try {
            for (int i = 1; i < Builtin.FIRST_USER_INDEX; i++) {
                if (Builtin.NAMES[i] != null) {
                    gens[i] = 0;
                    placeNew(i, Builtin.NAMES[i], 0);
                }
            }
            int cf = Ids.index(Builtin.CHILD_OF), isA = Ids.index(Builtin.IS_A);
            addInternal(cf, Builtin.EXCLUSIVE);
            addInternal(cf, Builtin.ACYCLIC);
            addInternal(cf, Builtin.TRAVERSABLE);
            addInternal(cf, Builtin.DONT_INHERIT);
            addInternal(cf, Ids.pair(Builtin.ON_DELETE_TARGET, Builtin.DELETE));
            addInternal(isA, Builtin.TRANSITIVE);
            addInternal(isA, Builtin.REFLEXIVE);
            addInternal(isA, Builtin.ACYCLIC);
            addInternal(isA, Builtin.TRAVERSABLE);
            markDirty(Store.META, 0);
            commit();
        } finally {
            txDepth = 0;
        }
    }

    private void resetMirror() {
        gens = new int[0];
        state = new byte[0];
        tableOf = new int[0];
        rowOf = new int[0];
        names = new String[0];
        nextIndex = 0;
        free = new IntArrayList();
        tables = new ArrayList<>();
        tableByType = new HashMap<>();
        freeTableIds = new IntArrayList();
        componentIndex = new Long2ObjectOpenHashMap<>();
        componentPageKeys = new Long2ObjectOpenHashMap<>();
        reverse = new ReverseIndex();
        nameIndex = new NameIndex(i -> names[i]);
        schemas = new Int2ObjectOpenHashMap<>();
    }

    private void load() {
        PagedMap[] maps = store.maps;
        byte[] meta = maps[Store.META].get(0);
        if (meta == null) {
            throw new dev.quiver.error.CorruptionException("world " + dir + " has no meta page (corrupt or never committed)");
        }
        Bytes.Reader mr = new Bytes.Reader(meta);
        int version = mr.i32();
        if (version != Store.FORMAT_VERSION) {
            throw new dev.quiver.error.CorruptionException("world " + dir + " has format version " + version
                    + ", this build reads " + Store.FORMAT_VERSION);
        }
        nextIndex = mr.i32();
        int tableCount = mr.i32();
        int nFree = mr.i32();
        free = new IntArrayList(nFree);
        for (int i = 0; i < nFree; i++) {
            free.add(mr.i32());
        }
        ensureCapacity(nextIndex);
        maps[Store.SCHEMAS].forEach((k, b) -> schemas.put((int) (long) k, readSchema(b)));
        maps[Store.ENTITIES].forEach((k, b) -> loadEntityPage((int) (long) k, b));
        for (int i = 0; i < tableCount; i++) {
            tables.add(null);
        }
        maps[Store.TABLES].forEach((k, b) -> loadTableGroup(b));
        for (int i = 1; i < tableCount; i++) {
            if (tables.get(i) == null) {
                freeTableIds.add(i);
            }
        }
        // chunked rows: chunks must be appended in order per table
        var chunks = new Long2ObjectOpenHashMap<byte[]>();
        maps[Store.ROWS].forEach(chunks::put);
        long[] keys = chunks.keySet().toLongArray();
        Arrays.sort(keys);
        for (long k : keys) {
            int tid = (int) (k >>> 20);
            Table t = tid < tables.size() ? tables.get(tid) : null;
            if (t == null || !t.chunkedOnDisk) {
                throw new dev.quiver.error.CorruptionException("rows page for missing or inline table " + tid);
            }
            if ((int) (k & 0xFFFFF) != t.count() >>> CHUNK_SHIFT) {
                throw new dev.quiver.error.CorruptionException("table " + tid + " misses rows chunk " + (t.count() >>> CHUNK_SHIFT));
            }
            Bytes.Reader r = new Bytes.Reader(chunks.get(k));
            readRows(t, r, r.i32());
        }
        maps[Store.COMPONENTS].forEach((k, b) -> {
            Bytes.Reader r = new Bytes.Reader(b);
            int ids = r.i32();
            for (int j = 0; j < ids; j++) {
                long id = r.i64();
                int n = r.i32();
                var l = new ArrayList<Table>(n);
                for (int i = 0; i < n; i++) {
                    int tid = r.i32();
                    Table t = tid < tables.size() ? tables.get(tid) : null;
                    if (t == null) {
                        throw new dev.quiver.error.CorruptionException("component index names missing table " + tid);
                    }
                    l.add(t);
                }
                componentIndex.put(id, l);
                recordAdded(id);
            }
        });
        maps[Store.REVERSE].forEach((k, b) -> {
            Bytes.Reader r = new Bytes.Reader(b);
            int targets = r.i32();
            for (int j = 0; j < targets; j++) {
                int target = r.i32();
                int n = r.i32();
                var l = new LongArrayList(n);
                for (int i = 0; i < n; i++) {
                    l.add(r.i64());
                }
                reverse.put(target, l);
            }
        });
        maps[Store.NAMES].forEach((k, b) -> loadNamePage(b));
    }

    /** The schema a column of {@code id} holds, without trait checks (for loading). */
    private Schema dataSchema(long id) {
        if (!Ids.isPair(id)) {
            return schemas.get(Ids.index(id));
        }
        Schema s = schemas.get(Ids.first(id));
        return s != null ? s : schemas.get(Ids.second(id));
    }

    private static Schema readSchema(byte[] b) {
        Bytes.Reader r = new Bytes.Reader(b);
        int n = r.i32();
        var fields = new ArrayList<Schema.Field>(n);
        for (int i = 0; i < n; i++) {
            String name = r.str();
            fields.add(new Schema.Field(name, FieldType.values()[r.u8()]));
        }
        return new Schema(fields);
    }

    private void loadEntityPage(int page, byte[] b) {
        Bytes.Reader r = new Bytes.Reader(b);
        int base = page << PAGE_SHIFT;
        int n = r.i32();
        for (int i = 0; i < n; i++) {
            int idx = base + i;
            byte st = (byte) r.u8();
            if (st == FREE_NEVER) {
                continue;
            }
            if (idx >= nextIndex) {
                throw new dev.quiver.error.CorruptionException("entity page holds index " + idx + " beyond " + nextIndex);
            }
            state[idx] = st;
            gens[idx] = r.i32();
            if (st == ALIVE) {
                String name = r.str();
                names[idx] = name.isEmpty() ? null : name;
                rowOf[idx] = -1;
            }
        }
    }

    /** Reads one name-index page: (name, parent index, entity) entries of one entity index range. */
    private void loadNamePage(byte[] b) {
        Bytes.Reader r = new Bytes.Reader(b);
        int n = r.i32();
        for (int i = 0; i < n; i++) {
            String name = r.str();
            int parent = r.i32();
            long e = r.i64();
            int idx = Ids.index(e);
            if (idx <= 0 || idx >= nextIndex || !name.equals(names[idx])) {
                throw new dev.quiver.error.CorruptionException("name index maps '" + name + "' to entity #" + idx
                        + (idx > 0 && idx < nextIndex ? " named '" + names[idx] + "'" : " (out of range)"));
            }
            nameIndex.put(parent, name, e);
        }
    }

    /** Reads one group page: each table's type, columns and, when inline, its rows. */
    private void loadTableGroup(byte[] b) {
        Bytes.Reader r = new Bytes.Reader(b);
        int n = r.i32();
        for (int j = 0; j < n; j++) {
            int id = r.i32();
            long[] type = new long[r.i32()];
            for (int i = 0; i < type.length; i++) {
                type[i] = r.i64();
            }
            int nc = r.i32();
            long[] colIds = new long[nc];
            Schema[] colSchemas = new Schema[nc];
            for (int i = 0; i < nc; i++) {
                colIds[i] = r.i64();
                colSchemas[i] = dataSchema(colIds[i]);
                if (colSchemas[i] == null) {
                    throw new dev.quiver.error.CorruptionException("table column " + Ids.toHex(colIds[i]) + " has no schema");
                }
            }
            if (id < 0 || id >= tables.size() || tables.get(id) != null) {
                throw new dev.quiver.error.CorruptionException("table id " + id + " out of range or twice");
            }
            Table t = new Table(id, type, colIds, colSchemas);
            tables.set(id, t);
            tableByType.put(new TypeKey(type), t);
            int rows = r.i32();
            if (rows < 0) {
                t.chunkedOnDisk = true;
            } else {
                readRows(t, r, rows);
            }
        }
    }

    /** Appends {@code n} rows (entities, then each column's fields) read from {@code r}. */
    private void readRows(Table t, Bytes.Reader r, int n) {
        int base = t.count();
        for (int i = 0; i < n; i++) {
            long e = r.i64();
            int row = t.append(e);
            int idx = Ids.index(e);
            if (idx >= nextIndex || state[idx] != ALIVE) {
                throw new dev.quiver.error.CorruptionException("table " + t.id() + " holds dead entity " + Ids.toHex(e));
            }
            tableOf[idx] = t.id();
            rowOf[idx] = row;
        }
        for (Column c : t.columns()) {
            Schema s = c.schema();
            for (int f = 0; f < s.size(); f++) {
                boolean str = s.field(f).type() == FieldType.STRING;
                for (int i = 0; i < n; i++) {
                    if (str) {
                        c.setString(f, base + i, r.str());
                    } else {
                        c.setWord(f, base + i, r.i64());
                    }
                }
            }
        }
    }

    /** The blob of a page from the mirror, or null when the page is empty (to be removed). */
    private byte[] serialize(int map, long key) {
        Bytes.Writer w = pageWriter.reset();
        switch (map) {
            case Store.META: {
                w.i32(Store.FORMAT_VERSION);
                w.i32(nextIndex);
                w.i32(tables.size());
                w.i32(free.size());
                for (int i = 0; i < free.size(); i++) {
                    w.i32(free.getInt(i));
                }
                return w.toBytes();
            }
            case Store.SCHEMAS: {
                Schema s = schemas.get((int) key);
                if (s == null) {
                    return null;
                }
                w.i32(s.size());
                for (Schema.Field f : s.fields()) {
                    w.str(f.name());
                    w.u8(f.type().ordinal());
                }
                return w.toBytes();
            }
            case Store.ENTITIES: {
                int base = (int) key << PAGE_SHIFT;
                int n = Math.max(0, Math.min(PAGE_SIZE, nextIndex - base));
                if (n == 0) {
                    return null;
                }
                w.i32(n);
                for (int i = 0; i < n; i++) {
                    int idx = base + i;
                    w.u8(state[idx]);
                    if (state[idx] != FREE_NEVER) {
                        w.i32(gens[idx]);
                        if (state[idx] == ALIVE) {
                            w.str(names[idx] == null ? "" : names[idx]);
                        }
                    }
                }
                return w.toBytes();
            }
            case Store.TABLES: {
                int[] n = {0};
                w.i32(0); // the table count, patched below
                forEachTableOfGroup(key, t -> {
                    n[0]++;
                    w.i32(t.id());
                    w.i32(t.type().length);
                    for (long x : t.type()) {
                        w.i64(x);
                    }
                    w.i32(t.columns().length);
                    for (Column c : t.columns()) {
                        w.i64(c.id());
                    }
                    if (t.count() > INLINE_ROWS) {
                        w.i32(-1);
                    } else {
                        w.i32(t.count());
                        writeRows(w, t, 0, t.count());
                    }
                });
                return n[0] == 0 ? null : w.patchI32(0, n[0]).toBytes();
            }
            case Store.ROWS: {
                int tid = (int) (key >>> 20), chunk = (int) (key & 0xFFFFF);
                Table t = tid < tables.size() ? tables.get(tid) : null;
                if (t == null || t.count() <= INLINE_ROWS) {
                    return null;
                }
                int from = chunk << CHUNK_SHIFT, to = Math.min(t.count(), from + (1 << CHUNK_SHIFT));
                if (from >= to) {
                    return null;
                }
                w.i32(to - from);
                writeRows(w, t, from, to);
                return w.toBytes();
            }
            case Store.COMPONENTS: {
                LongOpenHashSet ids = componentPageKeys.get(key);
                if (ids == null || ids.isEmpty()) {
                    return null;
                }
                long[] sorted = ids.toLongArray();
                Arrays.sort(sorted);
                w.i32(sorted.length);
                for (long id : sorted) {
                    List<Table> l = componentIndex.get(id);
                    w.i64(id);
                    w.i32(l.size());
                    for (Table t : l) {
                        w.i32(t.id());
                    }
                }
                return w.toBytes();
            }
            case Store.REVERSE: {
                int base = (int) key << REVERSE_SHIFT;
                int n = 0;
                for (int i = 0; i < (1 << REVERSE_SHIFT); i++) {
                    if (reverse.contains(base + i)) {
                        n++;
                    }
                }
                if (n == 0) {
                    return null;
                }
                w.i32(n);
                for (int i = 0; i < (1 << REVERSE_SHIFT); i++) {
                    LongArrayList l = reverse.get(base + i);
                    if (l == null) {
                        continue;
                    }
                    w.i32(base + i);
                    w.i32(l.size());
                    for (int j = 0; j < l.size(); j++) {
                        w.i64(l.getLong(j));
                    }
                }
                return w.toBytes();
            }
            case Store.NAMES: {
                // the index entries of the entities of one entity page, in entity order
                int base = (int) key << PAGE_SHIFT, end = Math.min(nextIndex, base + PAGE_SIZE);
                int n = 0;
                w.i32(0); // the entry count, patched below
                for (int idx = base; idx < end; idx++) {
                    if (state[idx] == ALIVE && names[idx] != null) {
                        int parent = parentIndex(idx);
                        long e = Ids.entity(idx, gens[idx]);
                        if (nameIndex.get(parent, names[idx]) == e) {
                            w.str(names[idx]);
                            w.i32(parent);
                            w.i64(e);
                            n++;
                        }
                    }
                }
                return n == 0 ? null : w.patchI32(0, n).toBytes();
            }
            default:
                throw new IllegalArgumentException("map " + map);
        }
    }

    /** Writes rows {@code [from, to)}: the entities, then each column's fields (see {@link #readRows}). */
    private static void writeRows(Bytes.Writer w, Table t, int from, int to) {
        for (int r = from; r < to; r++) {
            w.i64(t.entity(r));
        }
        for (Column c : t.columns()) {
            Schema s = c.schema();
            for (int f = 0; f < s.size(); f++) {
                boolean str = s.field(f).type() == FieldType.STRING;
                for (int r = from; r < to; r++) {
                    if (str) {
                        w.str((String) c.value(f, r));
                    } else {
                        w.i64(c.word(f, r));
                    }
                }
            }
        }
    }
}
