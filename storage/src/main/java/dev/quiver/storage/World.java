package dev.quiver.storage;

import dev.quiver.error.CorruptionException;
import dev.quiver.index.Ids;
import dev.quiver.storage.check.Checker;
import dev.quiver.storage.file.Store;
import dev.quiver.storage.entity.IdText;
import dev.quiver.storage.entity.Names;
import dev.quiver.storage.format.WorldFormat;
import dev.quiver.storage.rules.Cleanup;
import dev.quiver.storage.rules.Inheritance;
import dev.quiver.storage.rules.Prefabs;
import dev.quiver.storage.rules.Values;
import dev.quiver.storage.table.Table;
import dev.quiver.storage.table.Types;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongConsumer;

/**
 * A Quiver world: a directory on disk holding entities with components, tags and pairs
 * {@code (relationship, target)}.
 *
 * <p>{@code World} is the facade; each concept lives in its own package behind it:
 * {@code storage.entity} (entity index, name index, the name grammar), {@code storage.table}
 * (tables, the table graph, the component index, type operations, table moves, schemas),
 * {@code storage.rules} (trait rules, hierarchy and paths, values, cleanup, IsA inheritance and
 * prefabs), {@code storage.tx}
 * (what a transaction changed), {@code storage.format} (the on-disk page layout, one codec per page
 * family), {@code storage.check} (the invariant checker); the file layer ({@link Store},
 * {@code Journal}) holds the files, and {@link Persistence} links the in-memory state to them (load,
 * commit, rollback, snapshot pages). In-memory classes know neither the format nor the files.
 *
 * <p>The world keeps an in-memory mirror of every persistent structure and, when a transaction
 * commits, appends the pages it touched to the write-ahead log; checkpoints seal them into
 * Chronicle Map generation files ({@link Store}). Every mutating call is one transaction unless it runs inside
 * {@link #transaction(Consumer)}; a failing transaction changes nothing (the mirror is reloaded
 * from the committed files).
 *
 * <p>Semantics follow Flecs v4: pairs of an Exclusive relationship replace each other, Symmetric
 * relationships add the mirror pair, {@code (With, X)} adds X too, ChildOf and IsA are acyclic,
 * IsA to a Final entity is refused, and deleting an entity applies the cleanup policies
 * {@code (OnDelete|OnDeleteTarget, Remove|Delete|Panic)} (default Remove) recursively as one
 * transaction. IsA instances see the {@code (OnInstantiate, Inherit)} ids of their bases
 * ({@link #has}, {@link #get}, {@link #owner}) and get copies of the Override ids when
 * {@code (IsA, base)} is added, with a prefab's children ({@link Prefabs}). Not thread-safe: one
 * thread uses a world at a time.
 */
public final class World implements AutoCloseable {
    /** The files (package access: {@link WorldPages} streams their pages). */
    final Persistence persistence;
    private final Path dir;
    private final boolean readOnly;

    /** The in-memory state: every structure and rule, wired together. */
    final WorldModel m = new WorldModel();
    /** Names an entity in a dead-entity error; one instance, not a method reference made per call. */
    private final java.util.function.LongFunction<String> describe = e -> m.paths.describe(e);
    final Transactions tx;
    private final TableAccess tableAccess;
    private final Toggling toggling;

    /** Internal: a world over an open store, its state not read yet ({@link WorldLifecycle}). */
    World(Store store, boolean readOnly, Path dir) {
        this.dir = dir;
        this.readOnly = readOnly;
        persistence = new Persistence(store, m.parts, m.format, m.changes, m.sparse);
        tx = new Transactions(persistence, dir.toString());
        tableAccess = new TableAccess(m, this::aliveIndex);
        toggling = new Toggling(this, m);
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
        return WorldLifecycle.create(dir);
    }

    /**
     * Opens an existing world for writing. One writer per world directory: a second one, in another
     * process or in this one, gets {@link WorldLockedException} naming the writer's pid. Readers (in
     * any process) neither block the writer nor wait for it. A world whose writer died opens with
     * every transaction it committed (the write-ahead log is read; a torn last record is cut off).
     *
     * @throws NoWorldException when {@code dir} holds no world
     * @throws CorruptionException when its files are corrupt
     */
    public static World open(Path dir) {
        return WorldLifecycle.open(dir, false);
    }

    /**
     * Opens an existing world for reading; mutations throw {@link ReadOnlyException}. Any number of
     * readers may open a world, in any processes (this one included), also while a writer writes
     * it: each sees the last state committed when it opened, whole, and keeps seeing it (it pins
     * that state's files until it closes). On
     * read-only media (a read-only file system or a directory this process may not write), since
     * Chronicle Map needs writable mappings, it reads copies of the generation files made in a
     * temporary directory (java.io.tmpdir, deleted at close).
     */
    public static World openReadOnly(Path dir) {
        return WorldLifecycle.open(dir, true);
    }

    /** Opens the world in {@code dir} for writing, creating it when {@code dir} holds none. */
    public static World openOrCreate(Path dir) {
        return exists(dir) ? open(dir) : create(dir);
    }

    /** True when {@code dir} holds a world. */
    public static boolean exists(Path dir) {
        return Store.isWorld(dir);
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
        persistence.close();
    }

    void ensureOpen() {
        if (!persistence.isOpen()) {
            throw new IllegalStateException("world " + dir + " is closed");
        }
    }

    // ------------------------------------------------------------------ transactions

    /**
     * Runs {@code body} as one transaction: every change it makes commits together (one
     * write-ahead log record forced to disk), or, when it throws, none does and the exception is
     * rethrown. Nested calls join the outer transaction.
     */
    public void transaction(Consumer<World> body) {
        mutate(() -> body.accept(this));
    }

    /** Like {@link #transaction(Consumer)}, returning the body's result. */
    public <T> T transactionResult(Function<World, T> body) {
        ensureOpen();
        return tx.run(() -> body.apply(this), this::checkWritable);
    }

    /**
     * Marks the start of a query iteration that hands results to a callback: until the matching
     * {@link #endIteration()}, every write throws {@link WorldIteratingException} before changing
     * anything. Calls nest (an iteration inside a callback is fine: reads are allowed).
     */
    public void beginIteration() {
        tx.beginIteration();
    }

    /** Ends an iteration begun with {@link #beginIteration()} (call it in a finally block). */
    public void endIteration() {
        tx.endIteration();
    }

    /**
     * The number of write transactions opened on this world object so far (nested calls and
     * failed transactions count too). A reader that holds table rows across calls compares it
     * before and after: while it is unchanged, no table or row has moved.
     */
    public long writeCount() {
        return tx.writes();
    }

    /**
     * The stamp of a read cache: {@link #writeCount()} while no write transaction is open on this
     * world object, else -1. An answer kept at a stamp {@code s >= 0} is valid while
     * {@code readStamp() == s}: every change call bumps the count. Inside a transaction body keep
     * nothing: a refused transaction is undone without a further count, so an answer computed
     * from its changes would outlive them.
     */
    public long readStamp() {
        return tx.open() ? -1 : tx.writes();
    }

    void mutate(Runnable r) {
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

    // ------------------------------------------------------------------ entities and names

    /** Creates an anonymous entity (below the current scope, {@link #setScope}). */
    public long entity() {
        return transactionResult(w -> m.hierarchy.create(null, m.scope.parentForNew()));
    }

    /**
     * Looks up the entity at a {@code .}-separated path ({@code ::} accepted), creating it and any
     * missing parents (each child gets {@code (ChildOf, parent)}). Flecs v4 {@code ecs_entity}
     * semantics: with a scope set, the path is read and created below the scope.
     *
     * @throws IdException when a name is empty or holds characters outside {@code [A-Za-z0-9_-]}
     */
    public long entity(String path) {
        String[] parts = Names.split(path);
        long found = m.scope.lookupInScope(parts);
        return found != 0 ? found : transactionResult(w -> m.hierarchy.createPath(m.scope.parentForNew(), parts));
    }

    /**
     * The entity at a path, or 0 when there is none. Builtins resolve by plain name. With a scope
     * set, the scope is searched first, then its ancestors, then the root (Flecs v4 {@code ecs_lookup}).
     */
    public long lookup(String path) {
        return m.scope.lookup(path);
    }

    /**
     * The entity at a path below {@code parent} (Flecs v4 {@code ecs_lookup_path}, FEATURES ENT-05):
     * {@code lookup(Parent, "Child")} finds {@code Parent.Child}; the root is not searched. 0 when
     * there is none or {@code parent} is not alive; a parent of 0 is the root.
     */
    public long lookup(long parent, String path) {
        return path == null || path.isEmpty() ? 0 : m.scope.lookupFrom(parent, Names.split(path));
    }

    /**
     * Sets the current scope (Flecs v4 {@code ecs_set_scope}, FEATURES ENT-07) of this open world:
     * while it is set, every entity created gets {@code (ChildOf, scope)}, {@link #entity(String)}
     * reads its path below the scope and {@link #lookup(String)} searches it first. Not persisted.
     *
     * @param scope an alive entity, or 0 for the root
     * @return the previous scope, to restore
     * @throws DeadEntityException when {@code scope} is not alive
     */
    public long setScope(long scope) {
        return m.scope.set(scope);
    }

    /** The current scope ({@link #setScope}), or 0 for the root. */
    public long scope() {
        return m.scope.current();
    }

    /** Runs {@code body} with {@code scope} as the current scope, restoring the previous one after. */
    public void inScope(long scope, Runnable body) {
        long prev = setScope(scope);
        try {
            body.run();
        } finally {
            m.scope.set(prev == 0 || isAlive(prev) ? prev : 0);
        }
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

    /** The entity's own name, or null when it is anonymous. */
    public String name(long e) {
        return m.entities.name(aliveIndex(e));
    }

    /**
     * The entity's path: the names from the root down, joined by {@code .}. An anonymous entity
     * prints as {@code #<index>}.
     */
    public String path(long e) {
        return m.paths.path(aliveIndex(e));
    }

    /** The parent (target of ChildOf), or 0 for a root entity. */
    public long parent(long e) {
        int p = m.paths.parentIndex(aliveIndex(e));
        return p == 0 ? 0 : m.entities.getAny(p);
    }

    /** True when the id names a live entity of the current generation. */
    public boolean isAlive(long e) {
        return m.entities.isAlive(e);
    }

    /** The live entity id for an entity index (as found in a pair), or 0 when that index is dead. */
    public long entityOfIndex(int index) {
        return m.entities.getAny(index);
    }

    int aliveIndex(long e) {
        return m.entities.get(e, describe);
    }

    /**
     * Number of alive entities, builtins and toggle companions excluded (a companion R~ is a hidden
     * entity standing for R's disabled pairs, {@link Toggling#disable}).
     */
    public int entityCount() {
        int companions = 0;
        for (Table t : m.tables.matching(Builtin.DISABLED_RELATIONSHIP)) {
            companions += t.count();
        }
        return m.entities.countAlive(Builtin.FIRST_USER_INDEX) - companions;
    }

    // ------------------------------------------------------------------ ids

    /** The pair {@code (relationship, target)} ({@link Ids#pair}). */
    public long pair(long relationship, long target) {
        return IdText.pair(relationship, target);
    }

    /**
     * Parses an id: a path ({@code Position}, {@code a.b}) or a pair {@code (R, T)} whose elements
     * are paths, {@code *} or {@code _} ({@link IdText}).
     *
     * @throws UnknownNameException when a name resolves to nothing
     * @throws IdException          when the text is malformed
     */
    public long id(String text) {
        return IdText.parse(text, this::resolve);
    }

    /** Like {@link #id(String)}, creating named entities that are missing (below the scope, if set). */
    public long ensureId(String text) {
        return IdText.parse(text, p -> {
            long e = lookup(p);
            return e != 0 ? e : entity(p);
        });
    }

    /** An id as text: an entity's path, or {@code (R,T)} for a pair. */
    public String idToString(long id) {
        return m.paths.idToString(id);
    }

    // ------------------------------------------------------------------ structure

    /**
     * Adds an id (tag, component or pair) to an entity; adding an id it has changes nothing.
     * Applies the traits of the relationship: Exclusive replaces, Symmetric mirrors, With adds
     * more, ChildOf/IsA refuse cycles, IsA refuses Final targets, OneOf checks the target's parent.
     * Adding {@code (IsA, base)} instantiates the base ({@link Prefabs}): its Override ids are
     * copied with their values, and a prefab's children get counterparts under the entity. Adding
     * an Inherit component the entity inherits makes its own copy of the base's value.
     *
     * @throws DeadEntityException when the entity or an element of the id is not alive
     * @throws IdException         when the id holds a wildcard
     * @throws CycleException      when a ChildOf or IsA pair would close a cycle (the message names it)
     * @throws FinalException      when {@code (IsA, F)} names a Final entity
     * @throws ConstraintException when a trait refuses the pair, the entity is a builtin, or a
     *                             structural trait (Exclusive, Symmetric, PairIsTag, Acyclic, Final)
     *                             is added to a relationship already in use
     */
    public void add(long e, long id) {
        int idx = aliveIndex(e);
        m.rules.checkNotBuiltin(idx);
        m.rules.checkConcrete(id);
        mutate(() -> {
            boolean validate = m.validators.applies(id) && !m.moves.tableOf(idx).hasId(id);
            m.rules.add(idx, id);
            if (validate) {
                m.validators.checkStored(idx, id); // the default or inherited value a data-less add stores
            }
        });
    }

    /**
     * Creates {@code count} anonymous instances of {@code prefab} in one transaction (Flecs v4
     * {@code ecs_bulk_init} of prefab instances): each as {@link #entity()} followed by
     * {@code add(e, (IsA, prefab))}, with the same Override copies, prefab children and checks.
     * With ChildOf stored sparse no instance makes a table: every instance (and every child) of
     * one prefab lands in the tables of the first.
     *
     * @return the instances, in creation order
     * @throws BatchSizeException  when {@code count} is negative
     * @throws DeadEntityException when the prefab is not alive
     * @throws FinalException      when the prefab is Final (nothing was created)
     */
    public long[] instantiate(long prefab, int count) {
        if (count < 0) {
            throw new BatchSizeException("cannot instantiate " + m.paths.describe(prefab) + " " + count
                    + " times: the count must be 0 or more");
        }
        int idx = aliveIndex(prefab);
        return transactionResult(w -> m.prefabs.instantiate(idx, count));
    }

    /**
     * Adds several ids in one transaction. Ids whose relationship has no write-time traits
     * (Exclusive, Symmetric, With, OneOf, ChildOf, IsA) move the entity once, straight to its
     * final table, which is what bulk loaders want; the others go through the same trait rules as
     * {@link #add(long, long)}.
     */
    public void add(long e, long... ids) {
        int idx = aliveIndex(e);
        m.rules.checkNotBuiltin(idx);
        for (long id : ids) {
            m.rules.checkConcrete(id);
        }
        mutate(() -> {
            long[] fresh = null;
            for (int k = 0; k < ids.length; k++) {
                if (m.validators.applies(ids[k]) && !m.moves.tableOf(idx).hasId(ids[k])) {
                    fresh = fresh == null ? new long[ids.length] : fresh;
                    fresh[k] = ids[k];
                }
            }
            m.rules.addAll(idx, ids);
            for (int k = 0; fresh != null && k < fresh.length; k++) {
                if (fresh[k] != 0) {
                    m.validators.checkStored(idx, fresh[k]);
                }
            }
        });
    }

    /**
     * Removes an id from an entity. A pair with wildcards removes every matching pair. Removing
     * never triggers cleanup policies (Flecs v4, Tecs: remove never cascades). Symmetric pairs lose
     * their mirror too.
     */
    public void remove(long e, long id) {
        int idx = aliveIndex(e);
        m.rules.checkNotBuiltin(idx);
        if (id == 0) {
            throw new IdException("the null id cannot be removed");
        }
        mutate(() -> m.rules.removeMatching(idx, id));
    }

    /**
     * True when the entity owns the id or inherits it: an id whose policy is
     * {@code (OnInstantiate, Inherit)} held by one of its IsA bases ({@link Inheritance}; Override
     * ids were copied onto it at instantiation, DontInherit ids never reach it). A pair may hold
     * {@code *} or {@code _} (any match). {@link #owns} tells owned ids apart.
     */
    public boolean has(long e, long id) {
        int idx = aliveIndex(e);
        if (m.sparse.heldInLastColumn(idx, id)) {
            return true; // a run of checks of one sparse relationship: no question about the relationship
        }
        if (m.sparse.isSparsePair(id)) {
            return m.sparse.has(idx, Ids.first(id), Ids.second(id)) || m.inheritance.hasMatch(idx, id);
        }
        return Types.hasMatch(m.sparse.logicalType(idx), id) || m.inheritance.hasMatch(idx, id);
    }

    /** True when the entity itself owns the id; a pair may hold {@code *} or {@code _} (any match). */
    public boolean owns(long e, long id) {
        return Types.hasMatch(m.sparse.logicalType(aliveIndex(e)), id);
    }

    /**
     * The entity that provides a concrete id to {@code e}: {@code e} when it owns it, else the
     * nearest IsA base holding it when the id is Inherit (depth first, bases in type order:
     * {@link Inheritance}), else 0.
     */
    public long owner(long e, long id) {
        int o = m.inheritance.owner(aliveIndex(e), id);
        return o == 0 ? 0 : m.entities.getAny(o);
    }

    /** The Inherit ids {@code e} sees through its IsA bases and does not own, nearest base first. */
    public long[] inheritedIds(long e) {
        return m.inheritance.inherited(aliveIndex(e));
    }

    /**
     * The OnInstantiate policy of a concrete id ({@link OnInstantiate}): what an IsA instance gets
     * of it. Override unless its component (or a pair's relationship) says otherwise.
     */
    public OnInstantiate onInstantiate(long id) {
        return m.inheritance.policy(id);
    }

    /** A copy of the entity's type: its sorted id vector, sparse pairs included (never their marker). */
    public long[] type(long e) {
        int idx = aliveIndex(e);
        return m.sparse.logicalType(m.moves.tableOf(idx).type(), idx).clone();
    }

    /** The targets T of every pair {@code (relationship, T)} the entity owns, in id order. */
    public long[] targets(long e, long relationship) {
        int idx = aliveIndex(e), rel = Ids.index(relationship);
        int[] t = m.sparse.isSparse(rel) ? m.sparse.targets(idx, rel) : Types.targets(m.moves.tableOf(idx).type(), rel);
        long[] out = new long[t.length];
        for (int i = 0; i < t.length; i++) {
            out[i] = m.entities.getAny(t[i]);
        }
        return out;
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
            m.values.declare(c, schema);
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
        return m.schemas.of(id);
    }

    /**
     * Sets a component value (adding the id first if the entity lacks it). {@code value} is a
     * {@code Map} of field names to values (missing fields keep their value), a Java record, or an
     * {@code Object[]} of values in field order.
     *
     * @throws ValueException when the id has no schema or the value does not fit it
     * @throws ValidationException when the id's {@link Validator} refuses the value
     */
    public void set(long e, long id, Object value) {
        int idx = aliveIndex(e);
        m.rules.checkNotBuiltin(idx);
        m.rules.checkConcrete(id);
        Object[] vals = m.values.prepare(id, value);
        mutate(() -> m.values.set(idx, id, m.validators.check(idx, id, vals)));
    }

    /**
     * Registers (null: removes) the {@link Validator} every later {@link #set} of component
     * {@code id}, or of a pair of relationship {@code id}, runs first (Tecs init, TEC-06), and that a
     * data-less {@link #add} or an IsA instantiation's copy runs on the value it stores; in memory only.
     *
     * @throws ValidationException when {@code id} is a pair or has no schema
     */
    public void validate(long id, Validator v) {
        m.validators.put(id, v);
    }

    /**
     * Runs the {@link Validator} of component or relationship {@code id} on every value of it held
     * now (for a relationship, every pair {@code (id, T)} with data), in one transaction: refined
     * values are stored, a refusal changes nothing. For values stored before the validator was
     * registered; {@code Snapshots.restore} runs it for the validators it is given (TEC-24).
     *
     * @return the number of values checked
     * @throws ValidationException when {@code id} has no validator or it refuses a value
     */
    public long revalidate(long id) {
        return transactionResult(w -> m.validators.checkEveryStored(id, m.tables));
    }

    /**
     * The value of a data id on the entity as a read-only ordered field map, or null when absent. An Inherit
     * id the entity does not own reads the nearest IsA base's value ({@link #owner}).
     */
    public Map<String, Object> get(long e, long id) {
        return m.values.get(aliveIndex(e), id);
    }

    /**
     * One number field of a data id's value on the entity, owned or inherited as for
     * {@link #get(long, long)}, without building a field map (allocates nothing: the hot path of
     * pipelines that read numbers). f32, f64, i32 and i64 fields convert to double.
     *
     * @param field the field's position in the schema, from 0
     * @throws ValueException when the entity has no value of the id, the field does not exist, or
     *                        it is not a number field
     */
    public double getDouble(long e, long id, int field) {
        return m.fieldReads.getDouble(aliveIndex(e), e, id, field);
    }

    /**
     * One integral field (i32, i64, bool as 0/1, entity) of a data id's value on the entity, owned
     * or inherited; allocates nothing.
     *
     * @throws ValueException as {@link #getDouble}, or when the field is a float or string field
     */
    public long getLong(long e, long id, int field) {
        return m.fieldReads.getLong(aliveIndex(e), e, id, field);
    }

    /** The value of a record component on the entity, or null when absent. */
    public <T extends Record> T get(long e, Class<T> type) {
        long c = lookup(type.getSimpleName());
        if (c == 0) {
            throw new UnknownNameException("unknown component '" + type.getSimpleName() + "'");
        }
        return Values.toRecord(get(e, c), type);
    }

    // ------------------------------------------------------------------ delete and cleanup

    /**
     * Deletes an entity and applies every cleanup policy it reaches, as one transaction (Flecs v4
     * cleanup policies, see {@link Cleanup}): holders of the entity as an id or relationship follow
     * its {@code (OnDelete, action)}, holders of pairs targeting it follow the relationship's
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
            throw new BuiltinException("cannot delete builtin " + m.entities.name(idx));
        }
        m.rules.checkNotBuiltin(idx); // a toggle companion R~ goes with R only
        mutate(() -> m.cleanup.delete(idx));
    }

    /**
     * Deletes every entity holding {@code id} (which may hold {@code *} or {@code _}), each with its
     * cleanup policies, as one transaction (Flecs v4 {@code delete_with}).
     *
     * @throws ConstraintException when a builtin holds it (nothing is deleted), or a Panic policy refuses
     */
    public void deleteWith(long id) {
        mutate(() -> m.cleanup.deleteWith(m.rules.holders(id)));
    }

    /**
     * Removes {@code id} (which may hold {@code *} or {@code _}) from every entity holding it, as one
     * transaction (Flecs v4 {@code remove_all}).
     *
     * An entity holding it disabled ({@link Toggling#disable}) loses it too.
     *
     * @return the number of entities that held it
     * @throws ConstraintException when a builtin holds it (nothing changes)
     */
    public int removeAll(long id) {
        int[] n = {0};
        mutate(() -> n[0] = m.rules.removeAll(id));
        return n[0];
    }

    /**
     * Renames an entity; its path and the name index follow (reparenting is adding
     * {@code (ChildOf, P)}, which is Exclusive).
     *
     * @throws IdException         when {@code name} breaks the name grammar
     * @throws ConstraintException when a sibling has that name, or the entity is a builtin
     */
    public void rename(long e, String name) {
        int idx = aliveIndex(e);
        m.rules.checkNotBuiltin(idx);
        mutate(() -> m.hierarchy.rename(idx, name));
    }

    // ------------------------------------------------------------------ toggling (Flecs v4 CanToggle)

    /**
     * Disabling and enabling ids on entities without removing them (Flecs v4 CanToggle,
     * {@code ecs_enable_id}): {@link Toggling}.
     */
    public Toggling toggling() {
        return toggling;
    }

    // ------------------------------------------------------------------ read side

    /**
     * The table-level read side the query engine and other tools walk: the component index, the
     * tables, table events, an entity's table and row, sparse pairs, sources by entity index.
     */
    public TableAccess tableAccess() {
        return tableAccess;
    }

    /**
     * The reverse index: calls {@code action} with every entity that directly owns
     * {@code (relationship, target)}; {@code relationship} may be {@link Ids#WILDCARD}.
     */
    public void forEachSource(long relationship, long target, LongConsumer action) {
        boolean any = relationship == Ids.WILDCARD || relationship == Ids.ANY;
        m.reverse.forEachSource(Ids.index(target), any ? -1 : Ids.index(relationship),
                s -> action.accept(m.entities.idOf(s)));
    }

    // ------------------------------------------------------------------ stats and check

    /** Counts describing the world. */
    public WorldStats stats() {
        long[] c = m.tables.counts();
        long sparsePairs = m.sparse.store().pairCount();
        return new WorldStats(entityCount(), c[0], c[1], c[2] + sparsePairs, m.tables.records().size(), m.schemas.size(),
                persistence.bytesOnDisk(), m.sparse.store().relationships().length, sparsePairs);
    }

    /** The pages decoded since the world was opened ({@link PageReads}). */
    public PageReads pageReads() {
        ensureOpen();
        WorldFormat f = m.format;
        return new PageReads(f.entityBlocksRead(), f.reverseBlocksRead(), f.reverseLookupsSkipped(), f.reverseSummariesRead(),
                f.nameBucketsRead(), f.rowPagesRead(), f.entityNameBlocksDecoded(), f.sparseBlocksRead());
    }

    /**
     * Verifies every invariant ({@link Checker}): each alive entity sits in exactly one table row
     * and back; no type names a dead entity; the component index, reverse index and name index
     * equal what the tables derive; the persisted pages equal the mirror. Returns the violations
     * found (empty: the world is consistent), at most 100.
     */
    public List<String> check() {
        ensureOpen();
        return m.checker.check(tx.open() ? null : persistence.committed());
    }

    /**
     * Warnings about a consistent world: what is allowed but likely a mistake. Today: each cycle
     * in a user relationship (ChildOf and IsA refuse cycles; user relationships accept them, as
     * in Flecs), as {@code cycle in R: a -> b -> a}, Symmetric relationships left out. At most 100.
     */
    public List<String> warnings() {
        ensureOpen();
        return m.checker.warnings();
    }

    // ------------------------------------------------------------------ for WorldPages (the snapshot SPI)

    /** The page layout and its counters of pages read lazily (for tests). */
    WorldFormat format() {
        return m.format;
    }
}
