package dev.quiver.storage;

import dev.quiver.storage.rules.SparsePairs;
import dev.quiver.storage.table.Table;
import dev.quiver.storage.table.TableListener;
import dev.quiver.storage.table.TableSet;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;

import java.util.List;
import java.util.function.IntConsumer;
import java.util.function.IntPredicate;
import java.util.function.LongToIntFunction;
import dev.quiver.index.Ids;

/**
 * The table-level read side of a {@link World} ({@link World#tableAccess()}): what a query engine
 * walks (Flecs v4's component index of id records, the tables, table events, an entity's table and
 * row, the sparse pair storage, the reverse index by entity index). End users reach the same facts
 * through {@link World}'s entity-level methods. Reads only; not thread-safe, like the world.
 */
public final class TableAccess {
    private final WorldModel m;
    /** The entity index of an alive entity id; throws {@link DeadEntityException} otherwise. */
    private final LongToIntFunction alive;
    /** {@link #locate}'s table ids (grown to the largest call). */
    private int[] scratch = new int[0];

    TableAccess(WorldModel m, LongToIntFunction alive) {
        this.m = m;
        this.alive = alive;
    }

    /**
     * The component index: every table whose type holds {@code id}. {@code id} may be a plain id,
     * a pair {@code (R,T)}, or a wildcard record {@code (R,*)}, {@code (*,T)} ({@code _} is read
     * as {@code *}); a wildcard record lists each table once. Pairs of a sparse relationship
     * ({@link #sparse()}) are in no type: their holders' tables hold the marker {@code (R, *)}.
     * Unmodifiable; do not hold across mutations.
     */
    public List<Table> tables(long id) {
        return m.tables.matching(id);
    }

    /**
     * The table whose {@link Table#id()} is {@code id}, or null when no table has it. Ids are
     * reused once a table is dropped: an id names the same table only while the world is not
     * written ({@link World#writeCount()}).
     */
    public Table tableById(int id) {
        return m.tables.get(id);
    }

    /** Every table, in id order. */
    public List<Table> allTables() {
        return m.tables.all();
    }

    /**
     * Tells {@code listener} of every table that appears or disappears from now on
     * ({@link TableSet#listen}); the returned action unregisters it and must be called.
     */
    public Runnable onTables(TableListener listener) {
        return m.tables.listen(listener);
    }

    /**
     * The reverse index by entity index, for graph walks: calls {@code action} with the entity
     * index of every entity that directly owns {@code (relationship, target)}, where
     * {@code target} is an entity index ({@link Ids#index}) and {@code relationship} an entity id.
     * Indices of entities that are not alive never appear.
     */
    public void forEachSourceIndex(long relationship, int targetIndex, IntConsumer action) {
        m.reverse.forEachSource(targetIndex, Ids.index(relationship), action);
    }

    /**
     * {@link #forEachSourceIndex} into an array: appends the entity index of every entity that
     * directly owns {@code (relationship, target)} to {@code out} (no callback per source).
     *
     * @return the number of indices appended
     */
    public int sourceIndices(long relationship, int targetIndex, it.unimi.dsi.fastutil.ints.IntArrayList out) {
        return m.reverse.sources(targetIndex, Ids.index(relationship), out);
    }

    /**
     * {@link #sourceIndices(long, int, it.unimi.dsi.fastutil.ints.IntArrayList)} for the targets
     * {@code targets[from .. from + n)} in turn, their lists looked up together so that the cache
     * misses overlap ({@code index.ReverseIndex#sources(int[], int, int, int, IntArrayList)});
     * {@code targets} may be {@code out}'s own array (a breadth-first queue).
     *
     * @return the number of indices appended
     */
    public int sourceIndices(long relationship, int[] targets, int from, int n, it.unimi.dsi.fastutil.ints.IntArrayList out) {
        return m.reverse.sources(targets, from, n, Ids.index(relationship), out);
    }

    /**
     * Room enough for what {@link #sourceIndices(long, int[], int, int, int[], int)} writes for the
     * targets {@code targets[from .. from + n)} (entity indices): their number of entries (of
     * every relationship; a target whose unread reverse block holds none of {@code relationship}
     * counts 0 and its block stays unread).
     */
    public int sourceBound(long relationship, int[] targets, int from, int n) {
        return m.reverse.entryCount(targets, from, n, Ids.index(relationship));
    }

    /**
     * {@link #sourceIndices(long, int[], int, int, it.unimi.dsi.fastutil.ints.IntArrayList)} into a
     * plain array: writes the source indices to {@code out} from position {@code at}, which must
     * leave room for {@link #sourceBound} of them; {@code targets} may be {@code out} itself when
     * the slice lies below {@code at}.
     *
     * @return the position after the last index written
     */
    public int sourceIndices(long relationship, int[] targets, int from, int n, int[] out, int at) {
        return m.reverse.sources(targets, from, n, Ids.index(relationship), out, at);
    }

    /** Number of pairs {@code (*, target)} pointing at the target. */
    public int sourceCount(long target) {
        return m.reverse.entryCount(Ids.index(target));
    }

    /** The table holding the entity. */
    public Table table(long e) {
        return m.moves.tableOf(alive.applyAsInt(e));
    }

    /**
     * The sparse pair storage (FEATURES TRT-16): whether a relationship is stored without
     * fragmenting, and its targets by source, for the query engine and the CLI.
     */
    public SparsePairs sparse() {
        return m.sparse;
    }

    /** The entity's row in its table. */
    public int row(long e) {
        return m.entities.row(alive.applyAsInt(e));
    }

    /**
     * The relationships a wildcard or unbound variable relationship never matches: {@code Disabled}
     * and every toggle companion R~. Their pairs stand for ids an entity holds disabled (Flecs v4
     * CanToggle, {@code rules.Toggles}: component C disabled is held as {@code (Disabled, C)}, pair
     * {@code (R, T)} disabled as {@code (R~, T)}), not for pairs it has, so {@code (*, T)} must not
     * report them; a term naming them ({@code (Disabled, C)}) still finds them. A predicate over
     * entity indices, valid until the next change of the world.
     */
    public IntPredicate toggleRelationships() {
        int disabled = Ids.index(Builtin.DISABLED);
        List<Table> ts = m.tables.matching(Builtin.DISABLED_RELATIONSHIP);
        if (ts.isEmpty()) {
            return rel -> rel == disabled;
        }
        IntOpenHashSet companions = new IntOpenHashSet();
        for (Table t : ts) {
            for (int r = 0; r < t.count(); r++) {
                companions.add(Ids.index(t.entity(r)));
            }
        }
        return rel -> rel == disabled || companions.contains(rel);
    }

    /**
     * The entity, table and row of many entity indices at once (a join binding a variable to the
     * targets of many pairs, a transitive walk handing out its sources): for each {@code i} in
     * {@code [0, n)}, {@code ids[i]} is the live entity of index {@code indices[from + i]} (as
     * {@link World#entityOfIndex}: 0 when that index is not alive, or not positive), {@code tables[i]}
     * its table and {@code rows[i]} its row (null and -1 when {@code ids[i]} is 0). The lookups of
     * one call do not depend on each other, so the processor overlaps their cache misses, where a
     * lookup per entity waits for each in turn. Reads only.
     *
     * @throws IndexOutOfBoundsException when an array is shorter than the range asks
     */
    public void locate(int[] indices, int from, int n, long[] ids, Table[] tables, int[] rows) {
        int[] tableIds = n <= scratch.length ? scratch : (scratch = new int[n]);
        m.entities.locate(indices, from, n, ids, tableIds, rows); // one touch and one place read each
        var all = m.tables;
        for (int i = 0; i < n; i++) {
            if (ids[i] == 0) {
                tables[i] = null;
                rows[i] = -1;
            } else {
                tables[i] = all.get(tableIds[i]);
            }
        }
    }
}
