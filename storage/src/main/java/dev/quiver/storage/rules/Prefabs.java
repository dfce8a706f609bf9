package dev.quiver.storage.rules;

import dev.quiver.index.Ids;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.ConstraintException;
import dev.quiver.storage.OnInstantiate;
import dev.quiver.storage.entity.EntityIndex;
import dev.quiver.storage.entity.EntityNames;
import dev.quiver.storage.table.Column;
import dev.quiver.storage.table.Table;
import dev.quiver.storage.table.TableMoves;
import dev.quiver.storage.table.TableSet;
import dev.quiver.storage.table.Types;
import dev.quiver.storage.tx.Changes;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import it.unimi.dsi.fastutil.longs.LongArrayList;

/**
 * Instantiation through IsA (Flecs v4 prefabs, FEATURES ISA-13, ISA-14, ENT-10): what happens when
 * {@code (IsA, base)} is added to an entity, and when an instance adds an id it inherits.
 *
 * <ul>
 *   <li><b>Override copies.</b> Every Override id of the base and of the base's own bases (lookup
 *       order of {@link Inheritance}) that the instance does not own is added to it, with the
 *       value of its nearest owner. An id the instance owns keeps its own value; a pair of an
 *       Exclusive relationship is not copied when the instance already has one of that
 *       relationship (Flecs v4 {@code flecs_add_overrides_for_base}). Later changes to the base do
 *       not reach the instance.</li>
 *   <li><b>Children.</b> When the base is a prefab (it has {@code Prefab}, or lies under an entity
 *       that has it), each of the base's children gets a counterpart child of the instance with the
 *       same name (an existing child of that name is reused; anonymous children get anonymous
 *       counterparts), and the counterpart gets {@code (IsA, child)}, which instantiates the
 *       child's subtree the same way. Instantiation nesting deeper than {@link #MAX_DEPTH} (a
 *       prefab whose subtree instantiates itself) is refused.</li>
 *   <li><b>Own copies.</b> Adding (or setting) an Inherit data id the entity sees through a base
 *       first copies the base's value onto it (Flecs v4: adding an inherited component overrides
 *       it with the base's value).</li>
 * </ul>
 * Prefab, Disabled, ChildOf, IsA and every other builtin are never copied ({@link OnInstantiate}),
 * except that an Override id the base holds disabled ({@code (Disabled, C)}, {@link Toggles}) is
 * copied disabled, with its value, as Flecs v4 copies a toggled component's disabled bit; the
 * nearest base decides whether C arrives enabled or disabled.
 * Not thread-safe; runs inside a transaction.
 */
public final class Prefabs implements TraitRules.Instantiation {
    /** Deepest nesting of instantiations in one add (a prefab subtree that instantiates itself). */
    public static final int MAX_DEPTH = 64;

    private static final int IS_A = Ids.index(Builtin.IS_A);
    private static final int CHILD_OF = Ids.index(Builtin.CHILD_OF);
    private static final int DISABLED = Ids.index(Builtin.DISABLED);

    private final EntityIndex entities;
    private final TableSet tables;
    private final TableMoves moves;
    private final EntityNames names;
    private final TraitRules rules;
    private final Hierarchy hierarchy;
    private final Inheritance inheritance;
    private final Paths paths;
    private final Changes changes;
    private SparsePairs sparse;
    /** The entities the running {@link #instantiate} created, in creation order (null when none runs). */
    private IntArrayList created;
    private int depth;
    /** The base of the outermost instantiation running, for the error message. */
    private int outermost;
    private int outermostInstance;

    public Prefabs(EntityIndex entities, TableSet tables, TableMoves moves, EntityNames names,
                   TraitRules rules, Hierarchy hierarchy, Inheritance inheritance, Paths paths, Changes changes) {
        this.entities = entities;
        this.tables = tables;
        this.moves = moves;
        this.names = names;
        this.rules = rules;
        this.hierarchy = hierarchy;
        this.inheritance = inheritance;
        this.paths = paths;
        this.changes = changes;
    }

    /**
     * {@code (IsA, base)} was just added to entity index {@code instance}: copies the Override ids
     * and instantiates the prefab children (class comment).
     *
     * @throws ConstraintException when instantiation nests deeper than {@link #MAX_DEPTH}
     */
    @Override
    public void isAAdded(int instance, int base) {
        if (depth == 0) {
            outermost = base;
            outermostInstance = instance;
        }
        if (++depth > MAX_DEPTH) {
            depth = 0;
            throw new ConstraintException("cannot instantiate " + paths.elementName(outermost) + " in "
                    + paths.elementName(outermostInstance) + ": prefab instantiation nests deeper than " + MAX_DEPTH
                    + " levels (the prefab's subtree instantiates the prefab itself)");
        }
        try {
            copyOverrides(instance, base);
            if (isPrefab(base)) {
                instantiateChildren(instance, base);
            }
        } finally {
            if (depth > 0) {
                depth--;
            }
        }
    }

    /**
     * Creates {@code count} anonymous instances of entity index {@code base}: each a new entity
     * with {@code (IsA, base)} added under the trait rules ({@link #isAAdded}). The first instance
     * goes through the rules; the others replicate it ({@link #replicate}) when its subtree allows
     * (its children hold a sparse ChildOf, and no pair of it is sparse otherwise, Symmetric, or
     * pointing inside it: then the rules would give each instance the same tables, values, names
     * and targets), else each goes through the rules too. Nothing the rules read changes between two instances: an instance
     * adds only new entities, and pairs pointing at them from inside its own subtree.
     *
     * @return the instances, in creation order
     */
    public long[] instantiate(int base, int count) {
        long[] out = new long[count];
        if (count == 0) {
            return out;
        }
        long isA = Ids.pairOfIndices(IS_A, base);
        created = new IntArrayList();
        IntArrayList recorded = created;
        long first;
        try {
            first = hierarchy.create(null, 0);
            created.add(Ids.index(first));
            rules.add(Ids.index(first), isA);
        } finally {
            created = null;
        }
        out[0] = first;
        int[] subtree = recorded.toIntArray();
        boolean same = replicable(subtree);
        Replica plan = null;
        for (int i = 1; i < count; i++) {
            if (same) {
                if (plan == null) { // read once the subtree's tables are final (after any automatic switch)
                    plan = new Replica(subtree, count - i);
                }
                out[i] = plan.replicate();
            } else {
                long e = hierarchy.create(null, 0);
                rules.add(Ids.index(e), isA);
                out[i] = e;
                same = replicable(subtree); // the automatic switch may have made ChildOf sparse meanwhile
            }
        }
        if (plan != null) {
            plan.fileNames();
        }
        return out;
    }

    /**
     * True when the subtree of a first instance ({@code subtree}, in creation order: the instance,
     * then the children made by {@link #instantiateChildren}) may be replicated: each pair of its
     * entities is in the table type and points outside the subtree, or is a sparse ChildOf pair;
     * no pair is of a Symmetric relationship (its mirror would lie outside the subtree); no data id
     * of it has a validator (which sees, and may refine or refuse, each instance's copy).
     */
    private boolean replicable(int[] subtree) {
        var inside = new IntOpenHashSet(subtree);
        for (int x : subtree) {
            if (!entities.isAliveIndex(x)) {
                return false;
            }
            if (validators != null) {
                for (Column c : moves.tableOf(x).columns()) {
                    if (validators.applies(c.id())) {
                        return false; // a validator sees each instance's copy (and may refine or refuse it): left to the rules
                    }
                }
            }
            for (long id : moves.tableOf(x).type()) {
                if (!Ids.isPair(id)) {
                    break;
                }
                int rel = Ids.first(id);
                if (Types.isMarker(id) && rel != CHILD_OF) {
                    return false;
                }
                if (moves.tableOf(rel).hasId(Builtin.SYMMETRIC)) {
                    return false;
                }
                if (!Types.isMarker(id) && inside.contains(Ids.second(id))) {
                    // a dense pair inside the subtree names a new table per instance (a dense ChildOf:
                    // each new table counts toward the automatic switch): left to the rules
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * One more instance like the first ({@code subtree}) at a time: each entity of it gets a
     * counterpart in the same table, with the same values and name, its name-index entry under the
     * counterpart parent, its sparse ChildOf in the store and every pair in the reverse index. What
     * does not change between instances (tables, names, parents' positions, the pairs to index) is
     * read once; pages are marked changed once per entity block and row chunk, not per entity.
     */
    private final class Replica {
        private final int[] subtree;
        private final Table[] tables;
        /** Per entity of the subtree, its row (appending replicas never moves it). */
        private final int[] srcRow;
        private final String[] nameOf;
        /** Position in {@code subtree} of each entity's parent (-1: the instance itself). */
        private final int[] parentAt;
        /** The pair ids of each entity's table the reverse index holds (sparse markers left out). */
        private final long[][] pairs;
        /**
         * The children of each position, grouped: positions {@code childAt[childStart[p] ..
         * childStart[p + 1])} are the children of position {@code p} (their sparse ChildOf is
         * recorded parent by parent, {@link SparsePairs#addPlacedChildren}).
         */
        private final int[] childStart;
        private final int[] childAt;
        private final int[] made;
        private final int[] siblings;
        private final long[] chunkMarked;
        private int blockMarked = -1;
        /**
         * The names of the replicas not filed yet, {@link #nameCount} of them ({@link #fileNames}):
         * parent index, entity, name; filed {@link #NAME_CHUNK} at a time, so that these arrays
         * stay small whatever the batch (10,000 names for 1,000 instances of a prefab with 10
         * named children).
         */
        private final int[] nameParent;
        private final long[] nameEntity;
        private final String[] nameText;
        private int nameCount;

        /** @param replicas how many replicas will be made (the name lists are sized for them) */
        Replica(int[] subtree, int replicas) {
            this.subtree = subtree;
            int n = subtree.length;
            tables = new Table[n];
            srcRow = new int[n];
            nameOf = new String[n];
            parentAt = new int[n];
            pairs = new long[n][];
            made = new int[n];
            siblings = new int[n];
            chunkMarked = new long[n];
            childStart = new int[n + 1];
            childAt = new int[n];
            var at = new it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap(n);
            for (int k = 0; k < n; k++) {
                int x = subtree[k];
                at.put(x, k);
                tables[k] = moves.tableOf(x);
                srcRow[k] = entities.row(x);
                nameOf[k] = entities.name(x);
                parentAt[k] = k == 0 ? -1 : at.get(paths.parentIndex(x)); // a parent comes before its children
                if (k > 0) {
                    childStart[parentAt[k] + 1]++;
                }
                var ps = new LongArrayList();
                for (long id : tables[k].type()) {
                    if (!Ids.isPair(id)) {
                        break;
                    }
                    if (!Types.isMarker(id)) {
                        ps.add(id);
                    }
                }
                pairs[k] = ps.toLongArray();
                chunkMarked[k] = -1;
            }
            for (int p = 0; p < n; p++) {
                childStart[p + 1] += childStart[p];
            }
            // each replica appends one row per subtree entity to that entity's table: room for
            // them all at once, not by doubling step by step (Table.ensureCapacity)
            var rowsPerTable = new java.util.IdentityHashMap<Table, Integer>();
            for (Table t : tables) {
                rowsPerTable.merge(t, 1, Integer::sum);
            }
            for (var e : rowsPerTable.entrySet()) {
                e.getKey().ensureCapacity((int) Math.min(Integer.MAX_VALUE - 16, (long) e.getValue() * replicas));
            }
            int named = 0;
            for (String name : nameOf) {
                named += name == null ? 0 : 1;
            }
            int names = (int) Math.min(NAME_CHUNK, (long) named * replicas);
            nameParent = new int[names];
            nameEntity = new long[names];
            nameText = new String[names];
            int[] next = java.util.Arrays.copyOf(childStart, n);
            for (int k = 1; k < n; k++) {
                childAt[next[parentAt[k]]++] = k;
            }
            // each replica adds one entry per pair to its target's reverse list (a prefab entity's
            // lists grow by every instance): room for them all at once, not by half again each time
            var perTarget = new it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap();
            for (long[] ps : pairs) {
                for (long id : ps) {
                    perTarget.addTo(Ids.second(id), 1);
                }
            }
            for (var e : perTarget.int2IntEntrySet()) {
                moves.reservePairs(e.getIntKey(), (int) Math.min(Integer.MAX_VALUE - 16, (long) e.getIntValue() * replicas));
            }
        }

        /** Names a batch holds before filing them ({@link #fileNames}): a chunk's keys spread over every bucket. */
        private static final int NAME_CHUNK = 1024;

        /**
         * Files the replicas' names held so far in the name index (when {@link #NAME_CHUNK} are
         * held, and once the last replica is made), a few keys' slots read ahead at a time
         * ({@link EntityNames#putAll}: the index is hashed, so each key's slot is a cache miss,
         * and these overlap). Each replica's children are under a new parent, so no two keys
         * collide, and the order is not observable.
         */
        void fileNames() {
            names.putAll(nameParent, nameText, nameEntity, nameCount);
            java.util.Arrays.fill(nameText, 0, nameCount, null);
            nameCount = 0;
        }

        /** @return the new instance */
        long replicate() {
            changes.meta();
            long instance = 0;
            for (int k = 0; k < subtree.length; k++) {
                Table t = tables[k];
                int idx = entities.allocate();
                String name = nameOf[k];
                long e = entities.revive(idx, name);
                int row = t.appendCopy(e, srcRow[k]); // the same values as the first instance's row
                entities.place(idx, t.id(), row);
                if (idx >>> Changes.ENTITY_BLOCK_SHIFT != blockMarked) {
                    blockMarked = idx >>> Changes.ENTITY_BLOCK_SHIFT;
                    changes.entity(idx);
                }
                long chunk = ((long) t.id() << 32) | (row >>> Changes.ROW_CHUNK_SHIFT);
                if (chunk != chunkMarked[k]) {
                    chunkMarked[k] = chunk;
                    changes.row(t.id(), row);
                }
                for (long id : pairs[k]) {
                    moves.pairAdded(idx, id);
                }
                made[k] = idx;
                if (name != null) { // filed a chunk at a time, several keys' cache misses at a time
                    int parent = k == 0 ? 0 : made[parentAt[k]];
                    if (nameCount == nameText.length) {
                        fileNames();
                    }
                    nameParent[nameCount] = parent;
                    nameEntity[nameCount] = e;
                    nameText[nameCount++] = name;
                }
                if (k == 0) {
                    instance = e;
                }
            }
            for (int p = 0; p < subtree.length; p++) { // replicable: a child's ChildOf is sparse
                int n = childStart[p + 1] - childStart[p];
                if (n > 0) {
                    for (int j = 0; j < n; j++) {
                        siblings[j] = made[childAt[childStart[p] + j]];
                    }
                    sparse.addPlacedChildren(siblings, 0, n, made[p]);
                }
            }
            return instance;
        }
    }

    /** A new id on entity index {@code idx}: an Inherit data id it saw through a base gets the base's value. */
    @Override
    public void idAdded(int idx, long id) {
        Table t = moves.tableOf(idx);
        Column dst = t.column(id);
        if (dst == null || !inheritance.hasBases(idx) || inheritance.policy(id) != OnInstantiate.INHERIT) {
            return;
        }
        var order = new IntArrayList();
        inheritance.ancestors(idx, order, new IntOpenHashSet());
        for (int k = 0; k < order.size(); k++) {
            int b = order.getInt(k);
            if (moves.tableOf(b).hasId(id)) {
                copyValue(b, idx, id);
                return;
            }
        }
    }

    private void copyOverrides(int instance, int base) {
        var order = new IntArrayList();
        order.add(base);
        inheritance.ancestors(base, order, new IntOpenHashSet(new int[] {instance}));
        var ids = new LongArrayList();
        var from = new IntArrayList();
        var disabled = new LongArrayList();
        var disabledFrom = new IntArrayList();
        long[] own = inheritance.typeOf(instance);
        for (int k = 0; k < order.size(); k++) {
            int b = order.getInt(k);
            for (long id : inheritance.typeOf(b)) {
                if (Ids.isPair(id) && Ids.first(id) == DISABLED) {
                    long c = entities.getAny(Ids.second(id));
                    if (c != 0 && inheritance.policy(c) == OnInstantiate.OVERRIDE
                            && java.util.Arrays.binarySearch(own, c) < 0 && java.util.Arrays.binarySearch(own, id) < 0
                            && !ids.contains(c) && !disabled.contains(id)) {
                        disabled.add(id); // copied disabled, with its value (Flecs v4 copies the toggle bit)
                        disabledFrom.add(b);
                    }
                    continue;
                }
                if (java.util.Arrays.binarySearch(own, id) >= 0 || ids.contains(id)
                        || inheritance.policy(id) != OnInstantiate.OVERRIDE) {
                    continue;
                }
                if (!Ids.isPair(id) && (java.util.Arrays.binarySearch(own, Toggles.disabledPair(id)) >= 0
                        || disabled.contains(Toggles.disabledPair(id)))) {
                    continue; // the instance holds it disabled, or a nearer base does (Flecs v4 CanToggle)
                }
                if (Ids.isPair(id) && rules.takenOnInstantiation(id, own, ids)) { // Exclusive, or held in its other toggle state
                    continue;
                }
                ids.add(id);
                from.add(b);
            }
        }
        for (int k = 0; k < ids.size(); k++) {
            long id = ids.getLong(k);
            if (moves.tableOf(instance).hasId(id)) {
                continue; // a With or Symmetric rule of an earlier copy added it
            }
            rules.add(instance, id);
            if (moves.tableOf(instance).column(id) != null) {
                copyValue(from.getInt(k), instance, id);
                if (validators != null) {
                    validators.checkStored(instance, id); // TEC-06: a copied Override value is validated too
                }
            }
        }
        for (int k = 0; k < disabled.size(); k++) {
            long id = disabled.getLong(k);
            Table t = moves.tableOf(instance);
            if (t.hasId(id) || t.hasId(entities.getAny(Ids.second(id)))) {
                continue; // a With rule of a copy added it enabled
            }
            // held as (Disabled, C) in place of C ({@link Toggles}): no trait rule applies to it
            moves.move(instance, tables.forType(Types.insert(t.type(), id)));
            copyValue(disabledFrom.getInt(k), instance, id);
        }
    }


    /** True when entity index {@code i} has Prefab or lies under an entity that has it. */
    private boolean isPrefab(int i) {
        var seen = new IntOpenHashSet();
        for (int x = i; x != 0 && seen.add(x); x = paths.parentIndex(x)) {
            if (moves.tableOf(x).hasId(Builtin.PREFAB)) {
                return true;
            }
        }
        return false;
    }

    private void instantiateChildren(int instance, int base) {
        // the children through the component index: the base's reverse-index entries also list
        // every instance (IsA, base), which would make each instantiation cost O(instances)
        var children = childrenOf(base);
        long instanceId = entities.idOf(instance);
        for (int k = 0; k < children.size(); k++) {
            int c = children.getInt(k);
            if (!entities.isAliveIndex(c)) {
                continue;
            }
            String name = entities.name(c);
            long existing = name == null ? 0 : names.child(instance, name);
            long copy = existing != 0 ? existing : hierarchy.create(name, instanceId);
            if (created != null && existing == 0) {
                created.add(Ids.index(copy));
            }
            rules.add(Ids.index(copy), Ids.pairOfIndices(IS_A, c));
        }
    }

    /** The validators a copied Override value runs ({@link Validators#checkStored}); null: none. */
    private Validators validators;

    /** Sets the validators (once, while the world is wired). */
    public void setValidators(Validators validators) {
        this.validators = validators;
    }

    /**
     * The children of entity index {@code base}, ascending: through the component index when
     * ChildOf fragments, else through the reverse index (a sparse ChildOf, {@link SparsePairs}).
     */
    private IntArrayList childrenOf(int base) {
        var children = new IntArrayList();
        if (sparse != null && sparse.isSparse(CHILD_OF)) {
            // the reverse list of a prefab also holds every instance's (IsA, base): scanned once
            // per base while its sparse children stay the same (SparsePairs.childrenVersion)
            long version = sparse.childrenVersion(base);
            ChildrenMemo m = childrenMemo.get(base);
            if (m == null || m.version != version) {
                int[] found = sparse.holders(Ids.pairOfIndices(CHILD_OF, base));
                childrenScans++;
                java.util.Arrays.sort(found);
                m = new ChildrenMemo(version, found);
                if (childrenMemo.size() > 4096) {
                    childrenMemo.clear();
                }
                childrenMemo.put(base, m);
            }
            children.addElements(0, m.children);
            return children;
        }
        for (Table t : tables.matching(Ids.pairOfIndices(CHILD_OF, base))) {
            for (int r = 0; r < t.count(); r++) {
                children.add(Ids.index(t.entity(r)));
            }
        }
        children.sort(null);
        return children;
    }

    /** Times a base's sparse children were found by scanning its reverse list (not the memo). */
    private long childrenScans;

    /** Times {@code childrenOf} scanned a reverse list instead of answering from its memo (for tests). */
    public long childrenScans() {
        return childrenScans;
    }

    /** The sparse children of a base as of {@link SparsePairs#childrenVersion}, ascending. */
    private record ChildrenMemo(long version, int[] children) {
    }

    private final it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap<ChildrenMemo> childrenMemo =
            new it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap<>();

    /** Sets the sparse pair storage (once, while the world is wired): a sparse ChildOf keeps the prefab children there. */
    public void setSparse(SparsePairs sparse) {
        this.sparse = sparse;
    }

    /** Copies the value of data id {@code id} from entity index {@code from} to {@code to} (both own it). */
    private void copyValue(int from, int to, long id) {
        Column src = moves.tableOf(from).column(id);
        Table dt = moves.tableOf(to);
        Column dst = dt.column(id);
        if (src == null || dst == null) {
            return;
        }
        int row = entities.row(to);
        src.copyRow(entities.row(from), dst, row);
        changes.row(dt.id(), row);
    }
}
