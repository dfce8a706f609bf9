package dev.quiver.storage.rules;

import dev.quiver.index.Ids;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.Schema;
import dev.quiver.storage.SchemaConflictException;
import dev.quiver.storage.SparseStorageException;
import dev.quiver.storage.ToggleException;
import dev.quiver.storage.entity.EntityIndex;
import dev.quiver.storage.table.Column;
import dev.quiver.storage.table.Schemas;
import dev.quiver.storage.table.Table;
import dev.quiver.storage.table.TableMoves;
import dev.quiver.storage.table.TableSet;
import dev.quiver.storage.table.Types;
import dev.quiver.storage.tx.Changes;

import java.util.Objects;

/**
 * Enabling and disabling a component, tag or pair on an entity without removing it (Flecs v4
 * {@code ecs_enable_id} and the {@code CanToggle} trait).
 *
 * <p>A disabled plain id {@code C} is held as the pair {@code (Disabled, C)} in place of C: the
 * pair carries C's schema (a pair takes its target's schema when the relationship has none) and
 * keeps C's value, and since the entity's type no longer holds C, every query term for C (table
 * scans, checks on a bound entity, inheritance, traversal) skips the entity with no query-engine
 * support. Enabling moves the value back. {@code (Disabled, *)} lists what is disabled.
 *
 * <p>A pair cannot be the target of a pair, so a disabled pair {@code (R, T)} of a relationship R
 * with CanToggle is held as {@code (R~, T)}, where R~ is R's <em>toggle companion</em>: a hidden
 * relationship entity, child of R named {@link Traits#COMPANION_NAME}, marked
 * {@link Builtin#DISABLED_RELATIONSHIP}, made on the first disable of one of R's pairs and mirroring
 * what decides a pair's layout and instantiation: R's schema (and Component tag), PairIsTag,
 * DontInherit and {@code (OnInstantiate, P)} ({@link #sync}). The value moves with the pair.
 * Queries for {@code (R, T)}, {@code (R, *)}, {@code (R, $x)} then skip the entity with no
 * query-engine change. Everything else that reads pairs follows R for R~
 * ({@link Traits#ruleSubject}): Exclusive counts disabled pairs too (as in Flecs v4, where a
 * disabled pair stays in the entity's type: adding {@code (R, U)} replaces a disabled
 * {@code (R, T)}, so at most one of them is ever held), removing {@code (R, T)} or {@code (R, *)}
 * removes a disabled one, the cleanup policies of R apply to {@code (R~, T)}, and deleting R deletes
 * R~ (ChildOf). Relationships stored sparse (DontFragment) cannot be toggled
 * ({@link SparseStorageException}). Not thread-safe; runs inside a transaction.
 */
public final class Toggles {
    private final EntityIndex entities;
    private final TableSet tables;
    private final TableMoves moves;
    private final Traits traits;
    private final Paths paths;
    private final Changes changes;
    private final Hierarchy hierarchy;
    private final Schemas schemas;
    private final SparsePairs sparse;

    public Toggles(EntityIndex entities, TableSet tables, TableMoves moves, Traits traits, Paths paths, Changes changes,
                   Hierarchy hierarchy, Schemas schemas, SparsePairs sparse) {
        this.entities = entities;
        this.tables = tables;
        this.moves = moves;
        this.traits = traits;
        this.paths = paths;
        this.changes = changes;
        this.hierarchy = hierarchy;
        this.schemas = schemas;
        this.sparse = sparse;
    }

    /** The pair {@code (Disabled, C)} that holds a disabled plain id {@code c}. */
    public static long disabledPair(long c) {
        return Ids.pairOfIndices(Ids.index(Builtin.DISABLED), Ids.index(c));
    }

    /**
     * The id that holds {@code id} disabled: {@code (Disabled, C)} for a plain id, {@code (R~, T)}
     * for a pair {@code (R, T)} when R has a companion; 0 for a pair whose relationship has none.
     */
    public long disabledForm(long id) {
        if (!Ids.isPair(id)) {
            return disabledPair(id);
        }
        int companion = traits.companion(Ids.first(id));
        return companion == 0 ? 0 : Ids.pairOfIndices(companion, Ids.second(id));
    }

    /**
     * The id a disabled form stands for: C for {@code (Disabled, C)}, {@code (R, T)} for
     * {@code (R~, T)}; 0 when {@code id} holds nothing disabled.
     */
    public long enabledForm(long id) {
        if (!Ids.isPair(id) || Types.isMarker(id)) {
            return 0;
        }
        if (Ids.first(id) == Ids.index(Builtin.DISABLED)) {
            return entities.getAny(Ids.second(id));
        }
        int rel = traits.companionOf(Ids.first(id));
        return rel == 0 ? 0 : Ids.pairOfIndices(rel, Ids.second(id));
    }

    /**
     * Checks that {@code id} may be toggled on entity index {@code idx}: a plain id with CanToggle,
     * or a concrete pair whose relationship has CanToggle and is not stored sparse, that the entity
     * owns, enabled or disabled.
     *
     * @throws ToggleException        otherwise (a wildcard pair, an id lacking CanToggle, a companion
     *                                pair named directly, an id the entity does not own)
     * @throws SparseStorageException for a pair of a relationship stored sparse (DontFragment)
     */
    public void check(int idx, long id) {
        if (Ids.isWildcard(id)) {
            throw new ToggleException("cannot toggle the wildcard " + paths.idToString(id)
                    + ": name one pair (R, T) to enable or disable");
        }
        int subject = Ids.isPair(id) ? Ids.first(id) : Ids.index(id);
        if (Ids.isPair(id) && traits.companionOf(subject) != 0) {
            throw new ToggleException("cannot toggle " + paths.idToString(id) + ": it is the disabled form of "
                    + paths.idToString(enabledForm(id)) + " (toggle that pair)");
        }
        if (subject < Builtin.FIRST_USER_INDEX || !entities.isAliveIndex(subject) || !traits.has(subject, Builtin.CAN_TOGGLE)) {
            String what = Ids.isPair(id) ? "the pair " + paths.idToString(id) + ": its relationship "
                    + paths.elementName(subject) : paths.idToString(id) + ": it";
            throw new ToggleException("cannot toggle " + what + " lacks the CanToggle trait"
                    + " (add it to " + paths.elementName(subject) + " first)");
        }
        if (Ids.isPair(id) && sparse.isSparse(subject)) {
            throw new SparseStorageException("cannot toggle " + paths.idToString(id) + ": " + paths.elementName(subject)
                    + " is stored sparse (DontFragment), and sparse pairs cannot be toggled in this version");
        }
        Table t = moves.tableOf(idx);
        long off = disabledForm(id);
        if (!t.hasId(id) && (off == 0 || !t.hasId(off))) {
            throw new ToggleException("cannot toggle " + paths.idToString(id) + " on " + paths.elementName(idx)
                    + ": it does not own it");
        }
    }

    /** True when entity index {@code idx} holds {@code id} (a plain id or a concrete pair) disabled. */
    public boolean isDisabled(int idx, long id) {
        long off = Ids.isWildcard(id) ? 0 : disabledForm(id);
        return off != 0 && moves.tableOf(idx).hasId(off);
    }

    /**
     * Enables or disables checked {@code id} on entity index {@code idx} ({@link #check}); toggling
     * to the state it is in changes nothing. The value moves with it. Disabling a pair makes its
     * relationship's companion first when it has none.
     */
    public void set(int idx, long id, boolean enabled) {
        long off = disabledForm(id);
        if (off == 0) {
            if (enabled) {
                return; // no companion: nothing of R is disabled anywhere
            }
            if (!moves.tableOf(idx).hasId(id)) {
                return;
            }
            companion(Ids.first(id));
            off = disabledForm(id);
        } else if (Ids.isPair(id) && !enabled) {
            sync(Ids.first(id));
        }
        long from = enabled ? off : id;
        long to = enabled ? id : off;
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

    /** The companion R~ of relationship index {@code rel}, made (and mirrored) when it has none. */
    private int companion(int rel) {
        int c = traits.companion(rel);
        if (c == 0) {
            long e = hierarchy.create(Traits.COMPANION_NAME, entities.idOf(rel));
            c = Ids.index(e);
            moves.move(c, tables.withId(moves.tableOf(c), Builtin.DISABLED_RELATIONSHIP));
        }
        sync(rel);
        return c;
    }

    /**
     * Mirrors onto the companion R~ of relationship index {@code rel} (when it has one) what decides
     * how R's pairs are stored and instantiated: the schema (and the Component tag), PairIsTag,
     * DontInherit and {@code (OnInstantiate, P)}. Called when R~ is made, before each disable, and
     * when one of those ids changes on R ({@link TraitRules}). The schema is mirrored only while R~
     * holds no pairs (their columns would change layout).
     *
     * @throws SchemaConflictException when R got a schema while R~ holds pairs (R is in use then)
     */
    public void sync(int rel) {
        int c = traits.companion(rel);
        if (c == 0) {
            return;
        }
        Schema s = schemas.get(rel);
        boolean inUse = tables.records().contains(Ids.pairOfIndices(c, Ids.WILDCARD_INDEX));
        if (!Objects.equals(s, schemas.get(c)) && inUse) {
            throw new SchemaConflictException("cannot give " + paths.elementName(rel) + " a schema: it is already in use"
                    + " as a relationship through its disabled pairs");
        }
        if (!Objects.equals(s, schemas.get(c))) {
            if (s == null) {
                schemas.remove(c);
            } else {
                schemas.put(c, s);
            }
            changes.schema(c);
        }
        long[] want = mirrored(traits.typeOf(rel));
        long[] have = traits.typeOf(c);
        long[] type = have;
        for (long id : mirrored(have)) {
            type = Types.remove(type, id);
        }
        for (long id : want) {
            type = Types.insert(type, id);
        }
        if (!java.util.Arrays.equals(type, have)) {
            moves.move(c, tables.forType(type));
        }
    }

    /** The ids of a type that a companion mirrors from its relationship ({@link #sync}). */
    public static long[] mirrored(long[] type) {
        var out = new it.unimi.dsi.fastutil.longs.LongArrayList();
        int onInstantiate = Ids.index(Builtin.ON_INSTANTIATE);
        for (long id : type) {
            if (id == Builtin.COMPONENT || id == Builtin.PAIR_IS_TAG || id == Builtin.DONT_INHERIT
                    || (Ids.isPair(id) && Ids.first(id) == onInstantiate)) {
                out.add(id);
            }
        }
        return out.toLongArray();
    }
}
