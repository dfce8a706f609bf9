package dev.quiver.storage.rules;

import dev.quiver.index.Ids;
import dev.quiver.index.ReverseEntries;
import dev.quiver.index.ReverseIndex;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.BuiltinException;
import dev.quiver.storage.CleanupPanicException;
import dev.quiver.storage.ConstraintException;
import dev.quiver.storage.entity.EntityIndex;
import dev.quiver.storage.entity.EntityNames;
import dev.quiver.storage.table.Schemas;
import dev.quiver.storage.table.Table;
import dev.quiver.storage.table.TableMoves;
import dev.quiver.storage.table.TableSet;
import dev.quiver.storage.tx.Changes;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import it.unimi.dsi.fastutil.longs.LongArrayList;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Deleting an entity under the cleanup policies (Flecs v4 cleanup policies), in two phases so that
 * a Panic changes nothing:
 * <ol>
 *   <li>mark: starting from the entity, holders of a doomed entity as an id or relationship follow
 *       its {@code (OnDelete, action)} (Panic by default for a data component, FEATURES CLN-07), holders of pairs targeting it follow the relationship's
 *       {@code (OnDeleteTarget, action)}; Delete dooms the holder too (recursively, cycles
 *       included), Panic refuses the whole delete, Remove (the default) marks nothing;</li>
 *   <li>apply: survivors lose every id naming a doomed entity, the doomed entities leave their
 *       tables, indices and names (deepest first), and the tables whose type names one are
 *       dropped, so no id, pair, index entry or name points at a dead entity afterwards.</li>
 * </ol>
 * Not thread-safe; runs inside a transaction.
 */
public final class Cleanup {
    private final EntityIndex entities;
    private final TableSet tables;
    private final TableMoves moves;
    private final ReverseIndex reverse;
    private final EntityNames names;
    private final Schemas schemas;
    private final Traits traits;
    private final Paths paths;
    private final Changes changes;
    private SparsePairs sparse;

    public Cleanup(EntityIndex entities, TableSet tables, TableMoves moves, ReverseIndex reverse, EntityNames names,
                   Schemas schemas, Traits traits, Paths paths, Changes changes) {
        this.entities = entities;
        this.tables = tables;
        this.moves = moves;
        this.reverse = reverse;
        this.names = names;
        this.schemas = schemas;
        this.traits = traits;
        this.paths = paths;
        this.changes = changes;
    }

    /** Sets the sparse pair storage (once, while the world is wired): cleanup reaches sparse pairs too (CLN-22). */
    public void setSparse(SparsePairs sparse) {
        this.sparse = sparse;
    }

    /** Deletes each entity index of {@code holders} still alive, with its cleanup (Flecs v4 delete_with). */
    public void deleteWith(int[] holders) {
        for (int idx : holders) {
            if (entities.isAliveIndex(idx)) {
                delete(idx);
            }
        }
    }

    /**
     * Deletes entity index {@code root} and everything its cleanup policies reach.
     *
     * @throws CleanupPanicException when a Panic policy is reached (before anything changed)
     * @throws ConstraintException   when the cleanup would delete a builtin
     */
    public void delete(int root) {
        var doomed = new IndexSet();
        var sources = new LongArrayList();
        IntArrayList order = mark(root, doomed, sources);
        apply(order, doomed, sources);
    }

    /**
     * Phase 1: the doomed entity indices, root first, in discovery order, also added to
     * {@code doomed}. Changes nothing. Every source of a reverse-index entry of a doomed entity
     * that this entry does not doom goes to {@code sources} as {@code k << 32 | source}, k the
     * doomed entity's place in the order (ascending; duplicates allowed): once every doomed entity
     * is known, those not doomed are the survivors whose pairs name a doomed target, so that
     * {@link #apply} need not look up and walk every doomed entity's sources again (RG-1's delete:
     * 111,111 lookups of about ten sources each, to find 1,900 holders).
     */
    private IntArrayList mark(int root, IndexSet doomed, LongArrayList sources) {
        final int delete = Ids.index(Builtin.DELETE), panic = Ids.index(Builtin.PANIC);
        var order = new IntArrayList();
        doomed.add(root);
        order.add(root);
        for (int k = 0; k < order.size(); k++) {
            int x = order.getInt(k);
            if (x < Builtin.FIRST_USER_INDEX) {
                throw new BuiltinException("cleanup would delete builtin " + entities.name(x));
            }
            int onDelete = traits.onDeleteAction(x);
            if (onDelete == delete || onDelete == panic) {
                for (long pattern : new long[] {entities.idOf(x), Ids.pairOfIndices(x, Ids.WILDCARD_INDEX)}) {
                    for (Table t : tables.records().get(pattern)) {
                        for (int r = 0; r < t.count(); r++) {
                            int h = Ids.index(t.entity(r));
                            if (h == x) {
                                continue;
                            }
                            if (onDelete == panic) {
                                throw new CleanupPanicException("cannot delete " + paths.elementName(root) + ": "
                                        + paths.elementName(x) + " has (OnDelete, Panic) and " + paths.elementName(h) + " uses it");
                            }
                            if (doomed.add(h)) {
                                order.add(h);
                            }
                        }
                    }
                }
            }
            ReverseEntries refs = reverse.get(x);
            if (refs != null) {
                for (int k2 = 0; k2 < refs.size(); k2++) {
                    long en = refs.getLong(k2);
                    int rel = (int) (en >>> 32), h = (int) en;
                    // a disabled C, (Disabled, C), is a holder of C: C's own OnDelete applies (Toggles)
                    boolean toggled = rel == Ids.index(Builtin.DISABLED);
                    int action = toggled ? traits.onDeleteAction(x) : traits.cleanupAction(rel, Builtin.ON_DELETE_TARGET);
                    if (action == panic && h != x) {
                        throw new CleanupPanicException("cannot delete " + paths.elementName(root) + ": "
                                + (toggled ? paths.elementName(x) + " has (OnDelete, Panic) and " + paths.elementName(h)
                                        + " holds it disabled"
                                : paths.elementName(h) + " has (" + paths.elementName(rel) + ", " + paths.elementName(x)
                                + ") and " + paths.elementName(rel) + " has (OnDeleteTarget, Panic)"));
                    }
                    if (action != delete) {
                        sources.add((long) k << 32 | (h & 0xFFFF_FFFFL));
                    } else if (doomed.add(h)) {
                        order.add(h);
                    }
                }
            }
        }
        return order;
    }

    /**
     * Phase 2: strip references from survivors, then drop the doomed entities and their tables.
     * {@code sources}: the sources of the doomed entities' reverse entries that {@link #mark}
     * did not doom by that entry, survivors or not, by the doomed entity's place in the order.
     */
    private void apply(IntArrayList order, IndexSet doomed, LongArrayList sources) {
        // the survivors that refer to a doomed entity (a subtree's own members are most of the
        // references: they are skipped here, not collected and then removed)
        var holders = new IntOpenHashSet();
        boolean scanKeys = order.size() >= keyScanAt;
        if (scanKeys) { // the records naming a doomed entity, found among the few records there are
            for (long key : recordKeys()) {
                if (Ids.isPair(key) ? Ids.second(key) == Ids.WILDCARD_INDEX && doomed.contains(Ids.first(key))
                        : isDoomedId(key, doomed)) {
                    addSurvivors(tables.records().get(key), doomed, holders);
                }
            }
        }
        // in the order the holders were found before (each doomed entity's tables, then its
        // sources), so that they move in the same order
        for (int k = 0, r = 0, nr = sources.size(); k < order.size(); k++) {
            int x = order.getInt(k);
            if (!scanKeys) {
                addSurvivors(tables.records().get(entities.idOf(x)), doomed, holders);
                addSurvivors(tables.records().get(Ids.pairOfIndices(x, Ids.WILDCARD_INDEX)), doomed, holders);
            }
            for (; r < nr && (int) (sources.getLong(r) >>> 32) == k; r++) {
                int h = (int) sources.getLong(r);
                if (!doomed.contains(h)) {
                    holders.add(h);
                }
            }
        }
        for (int h : holders.toIntArray()) {
            sparse.removeReferring(h, doomed);
            long[] t = traits.typeOf(h);
            var keep = new LongArrayList(t.length);
            for (long id : t) {
                if (!refersTo(id, doomed)) {
                    keep.add(id);
                }
            }
            if (keep.size() != t.length) {
                moves.move(h, keep.toLongArray());
            }
        }
        // the tables naming a doomed entity: the same before and after the doomed leave their rows
        // (the survivors have moved out above, and removing rows makes no table)
        List<Table> referring = scanKeys ? referringTables(doomed) : null;
        long[] doomedIds = scanKeys ? null : new long[order.size()];
        for (int k = 0; !scanKeys && k < doomedIds.length; k++) {
            doomedIds[k] = entities.idOf(order.getInt(k));
        }
        // names of doomed children go with them; deepest first keeps paths valid while removing
        changes.expectNameOps(order.size());
        for (int k = order.size() - 1; k >= 0; k--) {
            int x = order.getInt(k);
            Table t = moves.tableOf(x);
            int parent = paths.parentIndex(x); // before dropSource: a sparse ChildOf keeps it in the store
            sparse.dropSource(x, doomed);
            for (long id : t.type()) {
                if (!Ids.isPair(id) || !doomed.contains(Ids.second(id))) { // a doomed target's list goes whole below
                    moves.pairRemoved(x, id);
                }
            }
            if (entities.named(x)) {
                names.removeEntity(parent, x);
            }
            moves.removeRow(t, entities.row(x));
            entities.kill(x);
            if (schemas.remove(x)) {
                changes.schema(x);
            }
            if (reverse.removeAll(x)) {
                changes.target(x);
            }
            changes.entity(x);
            changes.meta();
        }
        if (scanKeys) {
            tables.drop(referring);
        } else {
            tables.dropReferring(doomedIds);
        }
    }

    /**
     * From this many doomed entities on, the component-index records naming one are found by
     * scanning the records' keys (a few dozen in most worlds: the ids used in table types) rather
     * than by looking up three keys per doomed entity (RG-1's delete: 333,333 lookups, most of
     * them of keys no table holds). Below it, a delete of a few entities does not build a lazily
     * read component index (IdRecords) for its keys. {@code -Dquiver.cleanup.keyScanAt} sets
     * another point (read when the world is opened), for tests that compare both ways.
     */
    static final int KEY_SCAN_AT = IndexSet.DENSE_AT;
    private final int keyScanAt = Math.max(1, Integer.getInteger("quiver.cleanup.keyScanAt", KEY_SCAN_AT));

    /** The keys of the component index, copied (the records change while the cleanup runs). */
    private long[] recordKeys() {
        return tables.records().keys().toLongArray();
    }

    /** True when the non-pair id {@code key} is a doomed entity (its index doomed, at its current generation). */
    private boolean isDoomedId(long key, IndexSet doomed) {
        int i = Ids.index(key);
        return doomed.contains(i) && entities.idOf(i) == key;
    }

    /**
     * The tables whose type names a doomed entity as an id, as a pair's relationship or as its
     * target ({@code TableSet.dropReferring}'s records: {@code e}, {@code (e, *)}, {@code (*, e)}),
     * each once, in ascending table id; read while the doomed entities are alive.
     */
    private List<Table> referringTables(IndexSet doomed) {
        var seen = new IntOpenHashSet();
        var out = new ArrayList<Table>();
        for (long key : recordKeys()) {
            boolean refers;
            if (Ids.isPair(key)) {
                int f = Ids.first(key), t = Ids.second(key);
                refers = t == Ids.WILDCARD_INDEX && f != Ids.WILDCARD_INDEX && doomed.contains(f)
                        || f == Ids.WILDCARD_INDEX && t != Ids.WILDCARD_INDEX && doomed.contains(t);
            } else {
                refers = isDoomedId(key, doomed);
            }
            if (refers) {
                for (Table t : tables.records().get(key)) {
                    if (seen.add(t.id())) {
                        out.add(t);
                    }
                }
            }
        }
        out.sort(Comparator.comparingInt(Table::id));
        return out;
    }

    private static void addSurvivors(Iterable<Table> holding, IndexSet doomed, IntOpenHashSet holders) {
        for (Table t : holding) {
            for (int r = 0; r < t.count(); r++) {
                int h = Ids.index(t.entity(r));
                if (!doomed.contains(h)) {
                    holders.add(h);
                }
            }
        }
    }

    private static boolean refersTo(long id, IndexSet doomed) {
        if (Ids.isPair(id)) {
            return doomed.contains(Ids.first(id)) || doomed.contains(Ids.second(id));
        }
        return doomed.contains(Ids.index(id));
    }
}
