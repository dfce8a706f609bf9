package dev.quiver.storage.rules;

import dev.quiver.index.Ids;
import dev.quiver.index.ReverseEntries;
import dev.quiver.index.ReverseIndex;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.SparseStorageException;
import dev.quiver.storage.entity.EntityIndex;
import dev.quiver.storage.entity.EntityNames;
import dev.quiver.storage.table.Column;
import dev.quiver.storage.table.Schemas;
import dev.quiver.storage.table.SparseStore;
import dev.quiver.storage.table.Table;
import dev.quiver.storage.table.TableMoves;
import dev.quiver.storage.table.TableSet;
import dev.quiver.storage.table.Types;
import it.unimi.dsi.fastutil.longs.LongArrayList;

import java.util.ArrayList;
import java.util.Arrays;

/**
 * Non-fragmenting ("sparse") pairs (FEATURES TRT-16, TRT-07; Flecs v4.1 DontFragment, Tecs sparse
 * relationships): the one place that knows both storage kinds of a pair.
 *
 * <p>A relationship R is sparse when it has the {@link Builtin#DONT_FRAGMENT} trait (Union brings
 * it), or when the automatic choice switched it: then some table holds its marker. Its pairs
 * {@code (R, T)} are not in table types: the holder's table holds the marker {@code (R, *)}
 * ({@link Types#marker}) once, whatever the targets, the targets live in the {@link SparseStore}
 * (by source) and in the reverse index (by target), both persisted; after a load the store reads
 * its pages when a source is first asked about ({@link #reloaded}).
 *
 * <p>Only user relationships whose pairs carry no data, and ChildOf (issue 8 section 5: Exclusive,
 * so one parent per entity, in the flat first-target array), are sparse; IsA and every other
 * builtin keep one table per target. A sparse ChildOf keeps the name index in step here: a named
 * entity whose parent changes in the store is filed under the new parent ({@code TableMoves}
 * leaves the moves of a type holding ChildOf's marker alone), and {@link #parentOf} answers
 * {@code Paths}. The automatic choice ({@code -Dquiver.sparse=auto}, the
 * default) switches an eligible relationship when the tables holding its pairs (one per target
 * combination) reach {@code -Dquiver.sparse.threshold} (default {@value #DEFAULT_THRESHOLD});
 * {@code always} switches every eligible relationship at its first pair (for tests: every query
 * must answer the same), {@code never} only honours DontFragment. The switch moves the existing
 * holders' pairs out of their tables inside the transaction that adds the pair.
 *
 * <p>Not thread-safe; mutations run inside a transaction.
 */
public final class SparsePairs {
    /** The default table count of a relationship at which the automatic choice makes it sparse. */
    public static final int DEFAULT_THRESHOLD = 32;

    /** How relationships without DontFragment are stored. */
    public enum Mode { AUTO, ALWAYS, NEVER }

    private final EntityIndex entities;
    private final TableSet tables;
    private final TableMoves moves;
    private final ReverseIndex reverse;
    private final Traits traits;
    private final Schemas schemas;
    private final Paths paths;
    private final EntityNames names;
    private final SparseStore store;
    private final Mode mode;
    private final int threshold;
    /**
     * Per parent index: how many times a sparse {@code (ChildOf, parent)} came or went in the open
     * transaction ({@link #childrenVersion}); added to {@link #committedChildOfChanges} at a commit,
     * cleared with {@link #epoch} bumped at every undo, switch and reload.
     */
    private final it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap childOfChanges = new it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap();
    /** Per parent index: the {@link #childOfChanges} of committed transactions since {@link #epoch} changed. */
    private final it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap committedChildOfChanges = new it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap();
    private static final int MAX_COMMITTED_VERSIONS = 1 << 16;
    private int epoch;

    public SparsePairs(EntityIndex entities, TableSet tables, TableMoves moves, ReverseIndex reverse, Traits traits,
                       Schemas schemas, Paths paths, EntityNames names, SparseStore store) {
        this.store = store;
        this.entities = entities;
        this.names = names;
        this.tables = tables;
        this.moves = moves;
        this.reverse = reverse;
        this.traits = traits;
        this.schemas = schemas;
        this.paths = paths;
        this.mode = modeOf(System.getProperty("quiver.sparse", "auto"));
        this.threshold = Integer.getInteger("quiver.sparse.threshold", DEFAULT_THRESHOLD);
    }

    private static Mode modeOf(String s) {
        switch (s.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "always": return Mode.ALWAYS;
            case "never": return Mode.NEVER;
            case "auto": case "": return Mode.AUTO;
            default: throw new IllegalArgumentException("quiver.sparse must be auto, always or never, not '" + s + "'");
        }
    }

    /** The storage mode in effect ({@code -Dquiver.sparse}). */
    public Mode mode() {
        return mode;
    }

    /** The forward store (read side for queries and the checker; it reads its pages when first touched). */
    public SparseStore store() {
        return store;
    }

    // ------------------------------------------------------------------ which kind

    /** ChildOf's index: the one builtin relationship that may be stored sparse (one parent per entity). */
    private static final int CHILD_OF = Ids.index(Builtin.CHILD_OF);

    /**
     * True when relationship index {@code rel} may ever be stored sparse: a user relationship, or
     * ChildOf (Exclusive, no data; issue 8 section 5). IsA and the other builtins keep fragmenting.
     */
    private static boolean mayBeSparse(int rel) {
        return rel >= Builtin.FIRST_USER_INDEX || rel == CHILD_OF;
    }

    /** True when pairs of relationship index {@code rel} are stored sparse. */
    public boolean isSparse(int rel) {
        if (!mayBeSparse(rel) || !entities.isAliveIndex(rel)) {
            return false;
        }
        return store.inUse(rel) || traits.has(rel, Builtin.DONT_FRAGMENT);
    }

    /**
     * True when entity index {@code idx}, whose table is {@code t}, owns the concrete id
     * {@code id}: in its table type, or as a sparse pair in the store.
     */
    public boolean owns(Table t, int idx, long id) {
        return t.hasId(id) || (isSparsePair(id) && has(idx, Ids.first(id), Ids.second(id)));
    }

    /** True when {@code id} is a concrete pair of a sparse relationship. */
    public boolean isSparsePair(long id) {
        return Ids.isPair(id) && !Types.isMarker(id) && isSparse(Ids.first(id));
    }

    /**
     * Whether a new pair {@code (rel, tgt)} goes to sparse storage, switching {@code rel} first when
     * the automatic choice says so.
     *
     * @throws SparseStorageException when {@code rel} is sparse and the pair would carry data
     */
    public boolean route(long pair) {
        int rel = Ids.first(pair);
        if (isSparse(rel)) {
            checkNoData(rel, pair);
            return true;
        }
        if (mode == Mode.NEVER || !mayBeSparse(rel) || !eligible(rel, pair)) {
            return false;
        }
        if (mode == Mode.AUTO && tables.matching(Types.marker(rel)).size() + 1 < threshold) {
            return false;
        }
        switchToSparse(rel);
        return true;
    }

    /**
     * True when {@link #route} might send {@code id} to sparse storage (it is a pair of a sparse
     * relationship, or of one the automatic choice may switch now); changes nothing. Bulk adds
     * keep the other ids on their one-move path.
     */
    public boolean mayRoute(long id) {
        if (!Ids.isPair(id)) {
            return false;
        }
        int rel = Ids.first(id);
        if (isSparse(rel)) {
            return true;
        }
        if (mode == Mode.NEVER || !mayBeSparse(rel)) {
            return false;
        }
        return mode == Mode.ALWAYS || tables.matching(Types.marker(rel)).size() + 1 >= threshold;
    }

    /**
     * The entity indices holding {@code id} (wildcards allowed), each once, with sparse pairs:
     * {@code (R, T)} of a sparse R through the reverse index, {@code (*, T)} adds the sparse
     * sources of T; the tables otherwise ({@code (R, *)} of a sparse R: the marker's tables).
     */
    public int[] holders(long id) {
        if (!Ids.isPair(id)) {
            return tables.holders(id);
        }
        int f = Ids.first(id), t = Ids.second(id);
        boolean wf = f == Ids.WILDCARD_INDEX || f == Ids.ANY_INDEX, wt = t == Ids.WILDCARD_INDEX || t == Ids.ANY_INDEX;
        if (!wf && isSparse(f)) {
            if (wt) {
                return tables.holders(Types.marker(f));
            }
            var out = new it.unimi.dsi.fastutil.ints.IntArrayList();
            reverse.forEachSource(t, f, out::add);
            return out.toIntArray();
        }
        if (wf && !wt) {
            var out = new it.unimi.dsi.fastutil.ints.IntLinkedOpenHashSet(tables.holders(id));
            ReverseEntries l = reverse.get(t);
            if (l != null) {
                for (int i = 0; i < l.size(); i++) {
                    if (isSparse((int) (l.getLong(i) >>> 32))) {
                        out.add((int) l.getLong(i));
                    }
                }
            }
            return out.toIntArray();
        }
        return tables.holders(id);
    }

    private void checkNoData(int rel, long pair) {
        if (schemas.of(pair) != null) {
            throw new SparseStorageException("cannot add " + paths.idToString(pair) + ": " + paths.elementName(rel)
                    + " is stored sparse (DontFragment) and sparse pairs carry no data in this version"
                    + " (give " + paths.elementName(rel) + " PairIsTag, or keep it fragmenting)");
        }
    }

    /**
     * True when relationship {@code rel} may be made sparse: a user relationship (or ChildOf) without
     * a schema whose pairs (the new one and every existing one) carry no data.
     */
    public boolean eligible(int rel, long pair) {
        if (!mayBeSparse(rel) || schemas.get(rel) != null || (pair != 0 && schemas.of(pair) != null)) {
            return false;
        }
        if (traits.has(rel, Builtin.CAN_TOGGLE) || traits.has(rel, Builtin.DISABLED_RELATIONSHIP)) {
            return false; // toggled pairs (rules.Toggles) keep fragmenting
        }
        for (Table t : tables.matching(Types.marker(rel))) {
            for (Column c : t.columns()) {
                if (Ids.isPair(c.id()) && Ids.first(c.id()) == rel) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Refuses DontFragment on a relationship that cannot be sparse: a builtin (ChildOf and IsA
     * keep one table per target) or one whose pairs carry data.
     *
     * @throws SparseStorageException naming the reason
     */
    public void checkMayBeSparse(int rel) {
        if (rel < Builtin.FIRST_USER_INDEX) {
            throw new SparseStorageException("cannot make builtin " + paths.elementName(rel)
                    + " DontFragment: builtin relationships keep one table per target");
        }
        if (schemas.get(rel) != null) {
            throw new SparseStorageException("cannot make " + paths.elementName(rel) + " DontFragment: it has a schema,"
                    + " and sparse pairs carry no data in this version");
        }
    }

    /** Moves every existing pair of {@code rel} out of the tables into sparse storage. */
    private void switchToSparse(int rel) {
        forgetChildOfChanges();
        long marker = Types.marker(rel);
        for (Table t : new ArrayList<>(tables.matching(marker))) {
            long[] removed;
            var rm = new LongArrayList();
            long[] newType = Types.insert(Types.withoutPairsOf(t.type(), rel, rm), marker);
            removed = rm.toLongArray();
            long[] ents = Arrays.copyOf(t.entities(), t.count());
            for (long e : ents) {
                int idx = Ids.index(e);
                moves.move(idx, newType);
                for (long p : removed) {
                    store.add(rel, idx, Ids.second(p));
                    moves.pairAdded(idx, p);
                }
            }
        }
    }

    // ------------------------------------------------------------------ read side

    /** True when entity index {@code idx} holds the sparse pair {@code (rel, tgt)}. */
    public boolean has(int idx, int rel, int tgt) {
        return store.has(rel, idx, tgt);
    }

    /**
     * True when entity index {@code idx} holds {@code id} as a pair in sparse storage and its
     * relationship is the one sparse storage was asked about last: the quick yes of a run of checks
     * of one relationship (RG-1 lookup), which needs no test of whether the relationship is sparse
     * (only a sparse relationship has pairs there). False says nothing more: {@code id} may be
     * held all the same (another relationship's pair, in the table type, inherited) or not.
     */
    public boolean heldInLastColumn(int idx, long id) {
        return Ids.isPair(id) && store.hasInLastColumn(Ids.first(id), idx, Ids.second(id));
    }

    /** The target indices of {@code rel} on {@code idx}, ascending (sparse pairs only). */
    public int[] targets(int idx, int rel) {
        return store.targets(rel, idx);
    }

    /**
     * The logical type of entity index {@code idx} whose table type is {@code type}: each sparse
     * marker {@code (R, *)} replaced by the entity's pairs {@code (R, T)}; sorted like a type. The
     * same array when the type holds no marker.
     */
    public long[] logicalType(long[] type, int idx) {
        if (!Types.hasMarker(type)) {
            return type;
        }
        var out = new LongArrayList(type.length + 4);
        for (long x : type) {
            if (Types.isMarker(x)) {
                int rel = Ids.first(x);
                for (int t : store.targets(rel, idx)) {
                    out.add(Ids.pairOfIndices(rel, t));
                }
            } else {
                out.add(x);
            }
        }
        return out.toLongArray();
    }

    /** The logical type of entity index {@code idx} ({@link #logicalType(long[], int)}). */
    public long[] logicalType(int idx) {
        return logicalType(moves.tableOf(idx).type(), idx);
    }

    // ------------------------------------------------------------------ writes

    /** Adds the sparse pair {@code (rel, tgt)} to {@code idx} (the marker with its first target). */
    public void add(int idx, int rel, int tgt) {
        if (tgt == Ids.WILDCARD_INDEX || tgt == Ids.ANY_INDEX) {
            throw new IllegalStateException("a sparse marker is no pair to add: (#" + rel + ", *)");
        }
        if (store.has(rel, idx, tgt)) {
            return;
        }
        int before = store.first(rel, idx);
        if (before == 0) {
            Table t = moves.tableOf(idx);
            moves.move(idx, tables.withId(t, Types.marker(rel)));
        }
        store.add(rel, idx, tgt);
        childOfChanged(rel, tgt);
        moves.pairAdded(idx, Ids.pairOfIndices(rel, tgt));
        parentMoved(idx, rel, before);
    }

    /**
     * Records the sparse ChildOf of the {@code count} entity indices
     * {@code children[from..from+count)}, all under {@code parent}, which were placed straight into
     * a table holding ChildOf's marker and have no parent yet (batch instantiation,
     * {@link Prefabs#instantiate}): the store and the reverse index only, with one change of the
     * parent's {@link #childrenVersion} for all of them; the name index is the caller's.
     */
    public void addPlacedChildren(int[] children, int from, int count, int parent) {
        if (count == 0) {
            return;
        }
        long pair = Ids.pairOfIndices(CHILD_OF, parent);
        moves.reservePairs(parent, count);
        for (int k = from; k < from + count; k++) {
            store.add(CHILD_OF, children[k], parent);
            moves.pairAdded(children[k], pair);
        }
        childOfChanges.addTo(parent, count);
    }

    /**
     * Gives {@code idx} the sparse pair {@code (rel, tgt)} in place of every other pair of
     * {@code rel} (Exclusive: one target). The holder's table stays when it had a target already,
     * and a named child moves in the name index once, from its old parent to the new one.
     */
    public void replace(int idx, int rel, int tgt) {
        if (tgt == Ids.WILDCARD_INDEX || tgt == Ids.ANY_INDEX) {
            throw new IllegalStateException("a sparse marker is no pair to add: (#" + rel + ", *)");
        }
        int[] old = store.targets(rel, idx);
        if (old.length == 1 && old[0] == tgt) {
            return;
        }
        int before = old.length == 0 ? 0 : old[0];
        if (old.length == 0) {
            Table t = moves.tableOf(idx);
            moves.move(idx, tables.withId(t, Types.marker(rel)));
        }
        for (int o : old) {
            if (o != tgt) {
                store.remove(rel, idx, o);
                childOfChanged(rel, o);
                moves.pairRemoved(idx, Ids.pairOfIndices(rel, o));
            }
        }
        if (store.add(rel, idx, tgt)) {
            childOfChanged(rel, tgt);
            moves.pairAdded(idx, Ids.pairOfIndices(rel, tgt));
        }
        parentMoved(idx, rel, before);
    }

    /** Removes the sparse pair {@code (rel, tgt)} from {@code idx} (the marker with its last target); false when absent. */
    public boolean remove(int idx, int rel, int tgt) {
        int before = store.first(rel, idx);
        if (!store.remove(rel, idx, tgt)) {
            return false;
        }
        childOfChanged(rel, tgt);
        moves.pairRemoved(idx, Ids.pairOfIndices(rel, tgt));
        if (store.count(rel, idx) == 0) {
            Table t = moves.tableOf(idx);
            moves.move(idx, tables.withoutId(t, Types.marker(rel)));
        }
        parentMoved(idx, rel, before);
        return true;
    }

    /**
     * The parent of entity index {@code idx} when ChildOf is stored sparse and {@code type} (its
     * table type) holds the marker; -1 when the type answers by itself ({@link Types#parent}).
     */
    public int parentOf(long[] type, int idx) {
        if (!Types.hasParentMarker(type)) {
            return -1; // a marker in the type means ChildOf is sparse
        }
        return store.first(CHILD_OF, idx);
    }

    /**
     * A value that changes whenever the sparse children of entity index {@code parent} may have
     * changed: equal values mean the same children ({@code Prefabs} keeps a prefab's children
     * between instantiations without scanning the reverse list, which also holds every instance).
     */
    public long childrenVersion(int parent) {
        return ((long) epoch << 32) | ((committedChildOfChanges.get(parent) + childOfChanges.get(parent)) & 0xFFFF_FFFFL);
    }

    /**
     * A commit keeps the versions of {@link #childrenVersion}: the changes of the open transaction
     * join the committed counts (bounded: past {@value #MAX_COMMITTED_VERSIONS} parents every
     * version starts over, with a new epoch), so that a prefab's children stay known across the
     * commits that did not touch them.
     */
    private void commitChildOfChanges() {
        if (committedChildOfChanges.size() + childOfChanges.size() > MAX_COMMITTED_VERSIONS) {
            forgetChildOfChanges();
            return;
        }
        // one reused entry (a batch of 1,000 instances changes 1,000 parents: no entry object each)
        childOfChanges.int2IntEntrySet().fastForEach(e -> committedChildOfChanges.addTo(e.getIntKey(), e.getIntValue()));
        childOfChanges.clear();
    }

    private void childOfChanged(int rel, int parent) {
        if (rel == CHILD_OF) {
            childOfChanges.addTo(parent, 1);
        }
    }

    private void forgetChildOfChanges() {
        childOfChanges.clear();
        committedChildOfChanges.clear();
        epoch++;
    }

    /** A sparse ChildOf change: a named entity is filed under its new parent (TableMoves leaves marker moves alone). */
    private void parentMoved(int idx, int rel, int before) {
        if (rel == CHILD_OF) {
            names.reparent(idx, before, store.first(CHILD_OF, idx));
        }
    }

    /**
     * Cleanup of a surviving holder: removes its sparse pairs whose relationship or target is
     * doomed (the type-level cleanup then sees no marker left for them).
     */
    void removeReferring(int idx, IndexSet doomed) {
        for (long x : moves.tableOf(idx).type()) {
            if (!Types.isMarker(x)) {
                continue;
            }
            int rel = Ids.first(x);
            for (int t : store.targets(rel, idx)) {
                if (doomed.contains(rel) || doomed.contains(t)) {
                    remove(idx, rel, t);
                }
            }
        }
    }

    /**
     * A doomed source leaves: its sparse pairs go from the store and from the reverse index (its
     * row goes after). A pair whose target is doomed too stays in that target's reverse list, which
     * the cleanup drops whole ({@code ReverseIndex.removeAll}): a subtree's children are not taken
     * out of their parents' lists one by one.
     */
    void dropSource(int idx, IndexSet doomed) {
        for (long x : moves.tableOf(idx).type()) {
            if (!Types.isMarker(x)) {
                continue;
            }
            int rel = Ids.first(x);
            if (store.more(rel, idx) == null) { // one target (an exclusive-like relationship): no array
                int t = store.first(rel, idx);
                if (t != 0) {
                    dropPair(idx, rel, t, doomed);
                }
                continue;
            }
            for (int t : store.targets(rel, idx)) {
                dropPair(idx, rel, t, doomed);
            }
        }
    }

    private void dropPair(int idx, int rel, int t, IndexSet doomed) {
        store.remove(rel, idx, t);
        childOfChanged(rel, t);
        if (!doomed.contains(t)) {
            moves.pairRemoved(idx, Ids.pairOfIndices(rel, t));
        }
    }

    // ------------------------------------------------------------------ transactions and load

    /** The transaction committed. */
    public void commit() {
        store.commit();
        commitChildOfChanges();
    }

    /** The transaction was rolled back page by page: the store follows. */
    public void undo() {
        store.undo();
        forgetChildOfChanges();
    }

    /**
     * After a load: the sparse pairs' versions start over. The store itself was cleared and made
     * lazy by the page format (it reads a block's page when one of its sources is first asked
     * about), so an open reads no page for it.
     */
    public void reloaded() {
        forgetChildOfChanges();
    }
}
