package dev.quiver.storage.rules;

import dev.quiver.index.Ids;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.ToggleException;
import dev.quiver.storage.entity.EntityIndex;
import dev.quiver.storage.table.Column;
import dev.quiver.storage.table.Table;
import dev.quiver.storage.table.TableMoves;
import dev.quiver.storage.table.TableSet;
import dev.quiver.storage.table.Types;
import dev.quiver.storage.tx.Changes;

/**
 * Enabling and disabling a component or tag on an entity without removing it (Flecs v4
 * {@code ecs_enable_id} and the {@code CanToggle} trait).
 *
 * <p>A disabled id {@code C} is held as the pair {@code (Disabled, C)} in place of C: the pair
 * carries C's schema (a pair takes its target's schema when the relationship has none) and keeps
 * C's value, and since the entity's type no longer holds C, every query term for C (table scans,
 * checks on a bound entity, inheritance, traversal) skips the entity with no query-engine support.
 * Enabling moves the value back. {@code (Disabled, *)} lists what is disabled. Only ids whose entity
 * has CanToggle can be toggled; pairs cannot (a pair cannot be the target of a pair). Not
 * thread-safe; runs inside a transaction.
 */
public final class Toggles {
    private final EntityIndex entities;
    private final TableSet tables;
    private final TableMoves moves;
    private final Traits traits;
    private final Paths paths;
    private final Changes changes;

    public Toggles(EntityIndex entities, TableSet tables, TableMoves moves, Traits traits, Paths paths, Changes changes) {
        this.entities = entities;
        this.tables = tables;
        this.moves = moves;
        this.traits = traits;
        this.paths = paths;
        this.changes = changes;
    }

    /** The pair {@code (Disabled, C)} that holds a disabled plain id {@code c}. */
    public static long disabledPair(long c) {
        return Ids.pairOfIndices(Ids.index(Builtin.DISABLED), Ids.index(c));
    }

    /**
     * Checks that {@code id} may be toggled on entity index {@code idx}: a plain id with CanToggle
     * that the entity owns, enabled or disabled.
     *
     * @throws ToggleException otherwise
     */
    public void check(int idx, long id) {
        if (Ids.isPair(id)) {
            throw new ToggleException("cannot toggle the pair " + paths.idToString(id)
                    + ": only components and tags can be toggled (Flecs v4 CanToggle)");
        }
        int c = Ids.index(id);
        if (!entities.isAliveIndex(c) || !traits.has(c, Builtin.CAN_TOGGLE)) {
            throw new ToggleException("cannot toggle " + paths.idToString(id) + ": it lacks the CanToggle trait"
                    + " (add it to " + paths.idToString(id) + " first)");
        }
        Table t = moves.tableOf(idx);
        if (!t.hasId(id) && !t.hasId(disabledPair(id))) {
            throw new ToggleException("cannot toggle " + paths.idToString(id) + " on " + paths.elementName(idx)
                    + ": it does not own it");
        }
    }

    /** True when entity index {@code idx} holds {@code id} disabled. */
    public boolean isDisabled(int idx, long id) {
        return !Ids.isPair(id) && moves.tableOf(idx).hasId(disabledPair(id));
    }

    /**
     * Enables or disables checked {@code id} on entity index {@code idx} ({@link #check}); toggling
     * to the state it is in changes nothing. The value moves with it.
     */
    public void set(int idx, long id, boolean enabled) {
        long from = enabled ? disabledPair(id) : id;
        long to = enabled ? id : disabledPair(id);
        Table src = moves.tableOf(idx);
        if (!src.hasId(from)) {
            return;
        }
        Column old = src.column(from);
        Column saved = null;
        if (old != null) {
            saved = new Column(from, old.schema(), 1);
            old.copyRow(entities.row(idx), saved, 0);
        }
        moves.move(idx, tables.forType(Types.insert(Types.remove(src.type(), from), to)));
        Table dst = moves.tableOf(idx);
        Column now = dst.column(to);
        if (saved != null && now != null) {
            int row = entities.row(idx);
            saved.copyRow(0, now, row);
            changes.row(dst.id(), row);
        }
    }
}
