package dev.quiver.storage.table;

import dev.quiver.index.Ids;
import dev.quiver.index.ReverseIndex;
import dev.quiver.storage.entity.EntityIndex;
import dev.quiver.storage.entity.EntityNames;
import dev.quiver.storage.tx.Changes;

/**
 * Moves entities between tables and keeps every index in step: the entity index (table and row of
 * the moved entity and of the entity swapped into its old row), the reverse index (the pairs the
 * move adds and removes), the name index (a named entity whose ChildOf target changes is filed
 * under its new parent), and the transaction's {@link Changes}. Rows are swap-removed, so values
 * are copied once per move. Not thread-safe.
 */
public final class TableMoves {
    private final EntityIndex entities;
    private final TableSet tables;
    private final ReverseIndex reverse;
    private final EntityNames names;
    private final Changes changes;

    public TableMoves(EntityIndex entities, TableSet tables, ReverseIndex reverse, EntityNames names, Changes changes) {
        this.entities = entities;
        this.tables = tables;
        this.reverse = reverse;
        this.names = names;
        this.changes = changes;
    }

    /** Bumped by every change this class makes (see {@link #epoch}). */
    private long moves;

    /**
     * A number that changes whenever an entity's table, row or pairs may have changed since it was
     * last read: every placement, move, row removal and pair change here, and every commit or
     * rollback ({@link Changes#clears}: a rollback reads tables back without moving entities). A
     * read cache that holds an answer computed from tables (an inherited value's owner) is valid
     * while it is unchanged.
     */
    public long epoch() {
        return moves + changes.clears();
    }

    /** The table holding entity index {@code idx}. */
    public Table tableOf(int idx) {
        return tables.get(entities.table(idx));
    }

    /** Appends a new entity to the root table. */
    public void placeNew(int idx, long e) {
        moves++;
        Table root = tables.get(0);
        int row = root.append(e);
        entities.place(idx, 0, row);
        changes.row(0, row);
    }

    /** Moves entity {@code idx} to the table of {@code newType}. */
    public void move(int idx, long[] newType) {
        move(idx, tables.forType(newType));
    }

    /** Moves entity {@code idx} to table {@code dst} (nothing when it is already there). */
    public void move(int idx, Table dst) {
        Table src = tableOf(idx);
        if (dst == src) {
            return;
        }
        moves++;
        long[] old = src.type(), newType = dst.type();
        long e = entities.idOf(idx);
        // the reverse index follows the pair changes: a merge of the two sorted types
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
        if (!Types.hasParentMarker(old) && !Types.hasParentMarker(newType)) {
            // a sparse ChildOf (the marker): its parent is in the sparse store, whose changes refile the name
            names.reparent(idx, Types.parent(old), Types.parent(newType));
        }
        int srow = entities.row(idx);
        int drow = dst.append(e);
        for (Column dc : dst.columns()) {
            Column sc = src.column(dc.id());
            if (sc != null) {
                sc.copyRow(srow, dc, drow);
            }
        }
        removeRow(src, srow);
        changes.row(dst.id(), drow);
        entities.place(idx, dst.id(), drow);
    }

    /** Removes a row of a table, moving its last row into it (the entity index follows). */
    public void removeRow(Table t, int row) {
        moves++;
        int last = t.count() - 1;
        changes.shrunk(t.id());
        long moved = t.removeSwap(row);
        if (moved != 0) {
            entities.setRow(Ids.index(moved), row);
        }
        changes.row(t.id(), row);
        changes.row(t.id(), last);
    }

    /** A pair id joined entity {@code idx}'s type: index the entry under its target. */
    public void pairAdded(int idx, long id) {
        if (!Ids.isPair(id) || Types.isMarker(id)) {
            return;
        }
        moves++;
        int tgt = Ids.second(id);
        long entry = ((long) Ids.first(id) << 32) | idx;
        reverse.add(tgt, entry);
        changes.reverseAdded(tgt, entry);
    }

    /**
     * Makes room for {@code more} reverse-index entries under target index {@code target}
     * ({@link ReverseIndex#reserve}): a batch about to add that many pairs pointing at it.
     */
    public void reservePairs(int target, int more) {
        reverse.reserve(target, more);
    }

    /** A pair id left entity {@code idx}'s type: drop its entry under its target. */
    public void pairRemoved(int idx, long id) {
        if (!Ids.isPair(id) || Types.isMarker(id)) {
            return;
        }
        moves++;
        int tgt = Ids.second(id);
        long entry = ((long) Ids.first(id) << 32) | idx;
        reverse.remove(tgt, entry);
        changes.reverseRemoved(tgt, entry);
    }
}
