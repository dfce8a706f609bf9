package dev.quiver.storage.rules;

import dev.quiver.index.Ids;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.entity.EntityIndex;
import dev.quiver.storage.entity.EntityNames;
import dev.quiver.storage.table.Schemas;
import dev.quiver.storage.table.TableSet;
import dev.quiver.storage.table.Types;

/**
 * Reads the traits and policies an entity carries as ids of its own type (Flecs v4: traits are
 * tags and pairs on the relationship or component entity): {@code Exclusive}, {@code Symmetric},
 * {@code (With, X)}, {@code OneOf} / {@code (OneOf, P)}, {@code Final}, {@code PairIsTag}, and the
 * cleanup policies {@code (OnDelete | OnDeleteTarget, Remove | Delete | Panic)}. Read-only.
 */
public final class Traits {
    /**
     * The name of a toggle companion R~ under its relationship R ({@link Toggles}): outside the
     * name grammar, so no user entity can take it.
     */
    public static final String COMPANION_NAME = "~";

    private final EntityIndex entities;
    private final EntityNames names;
    private final TableSet tables;
    private final Schemas schemas;
    private SparsePairs sparse;

    /** Sets the sparse pair storage (once, while the world is wired): the Acyclic check follows a sparse ChildOf. */
    public void setSparse(SparsePairs sparse) {
        this.sparse = sparse;
    }

    public Traits(EntityIndex entities, EntityNames names, TableSet tables, Schemas schemas) {
        this.entities = entities;
        this.names = names;
        this.tables = tables;
        this.schemas = schemas;
    }

    /** The type of entity index {@code i}. */
    public long[] typeOf(int i) {
        return tables.get(entities.table(i)).type();
    }

    /** True when entity index {@code i} owns the id {@code trait} (a tag such as {@link Builtin#EXCLUSIVE}). */
    public boolean has(int i, long trait) {
        return tables.get(entities.table(i)).hasId(trait);
    }

    /** True when relationship index {@code rel} is alive and has PairIsTag (its pairs carry no data). */
    public boolean pairIsTag(int rel) {
        return entities.isAliveIndex(rel) && has(rel, Builtin.PAIR_IS_TAG);
    }

    /**
     * The cleanup action of entity index {@code i} for a condition ({@link Builtin#ON_DELETE} or
     * {@link Builtin#ON_DELETE_TARGET}) as an entity index: Remove (the default), Delete or Panic.
     */
    public int cleanupAction(int i, long condition) {
        i = ruleSubject(i);
        int action = Types.target(typeOf(i), Ids.index(condition));
        return action != 0 ? action : Ids.index(Builtin.REMOVE);
    }

    /**
     * The {@code OnDelete} action of entity index {@code i}: its own {@code (OnDelete, action)}
     * pair, else Panic for a component with a data schema and Remove for anything else (Flecs v4,
     * FEATURES CLN-07: deleting a data component still in use is refused unless a policy says
     * otherwise).
     */
    public int onDeleteAction(int i) {
        i = ruleSubject(i);
        int action = Types.target(typeOf(i), Ids.index(Builtin.ON_DELETE));
        if (action != 0) {
            return action;
        }
        return schemas.get(i) != null ? Ids.index(Builtin.PANIC) : Ids.index(Builtin.REMOVE);
    }

    /**
     * True when entity index {@code rel} is in use as a relationship: some entity has a pair
     * {@code (rel, T)}. A structural trait cannot change then.
     */
    public boolean inUseAsRelationship(int rel) {
        int companion = companion(rel);
        return tables.records().contains(Ids.pairOfIndices(rel, Ids.WILDCARD_INDEX))
                || (companion != 0 && tables.records().contains(Ids.pairOfIndices(companion, Ids.WILDCARD_INDEX)));
    }

    /**
     * True when id index {@code c} is toggled off somewhere: some entity holds {@code (Disabled, c)},
     * or a pair of c's companion {@code (c~, T)} (a disabled pair of relationship c, {@link Toggles}).
     */
    public boolean isToggledOffAnywhere(int c) {
        int companion = companion(c);
        return tables.records().contains(Ids.pairOfIndices(Ids.index(Builtin.DISABLED), c))
                || (companion != 0 && tables.records().contains(Ids.pairOfIndices(companion, Ids.WILDCARD_INDEX)));
    }

    /**
     * The toggle companion R~ of relationship index {@code rel} ({@link Toggles}): its child named
     * {@link #COMPANION_NAME} carrying {@link Builtin#DISABLED_RELATIONSHIP}; 0 when it has none.
     */
    public int companion(int rel) {
        if (rel < Builtin.FIRST_USER_INDEX || !entities.isAliveIndex(rel)) {
            return 0;
        }
        long c = names.child(rel, COMPANION_NAME);
        return c != 0 && has(Ids.index(c), Builtin.DISABLED_RELATIONSHIP) ? Ids.index(c) : 0;
    }

    /**
     * The relationship R whose toggle companion entity index {@code i} is (its parent, {@link Toggles}),
     * or 0 when {@code i} is no companion.
     */
    public int companionOf(int i) {
        if (i < Builtin.FIRST_USER_INDEX || !entities.isAliveIndex(i) || !has(i, Builtin.DISABLED_RELATIONSHIP)) {
            return 0;
        }
        long[] type = typeOf(i);
        int p = sparse == null ? -1 : sparse.parentOf(type, i);
        return p >= 0 ? p : Types.parent(type);
    }

    /**
     * The entity whose traits and policies rule pairs of relationship index {@code rel}: R for its
     * companion R~ (a disabled pair follows R's Exclusive, Symmetric, OneOf, cleanup policies), else
     * {@code rel} itself.
     */
    public int ruleSubject(int rel) {
        int r = companionOf(rel);
        return r != 0 ? r : rel;
    }

    /** True when some entity has {@code (IsA, target)}: Final cannot be added to {@code target} then. */
    public boolean isABase(int target) {
        return tables.records().contains(Ids.pairOfIndices(Ids.index(Builtin.IS_A), target));
    }

    /**
     * The OneOf scope of relationship index {@code rel}: {@code rel} itself when it has the OneOf
     * tag (targets must be its children), P for {@code (OneOf, P)}, 0 when it has neither.
     */
    public int oneOfScope(int rel) {
        if (has(rel, Builtin.ONE_OF)) {
            return rel;
        }
        return Types.target(typeOf(rel), Ids.index(Builtin.ONE_OF));
    }

    /**
     * True when adding {@code id} has no effect beyond the id itself: no write-time trait applies
     * (Exclusive, Symmetric, With, OneOf, Singleton, CanToggle, ChildOf, IsA, a Disabled pair). Such
     * ids may be added in bulk.
     */
    public boolean isPlainAdd(long id) {
        int subject = Ids.isPair(id) ? Ids.first(id) : Ids.index(id);
        if (Ids.isPair(id) && (subject == Ids.index(Builtin.CHILD_OF) || subject == Ids.index(Builtin.IS_A))) {
            return false;
        }
        if (Ids.isPair(id) && (subject == Ids.index(Builtin.DISABLED) || ruleSubject(subject) != subject)) {
            return false; // a component or pair added disabled: the toggle rules apply
        }
        int with = Ids.index(Builtin.WITH), oneOf = Ids.index(Builtin.ONE_OF);
        for (long t : typeOf(subject)) {
            if (t == Builtin.EXCLUSIVE || t == Builtin.SYMMETRIC || t == Builtin.ONE_OF || t == Builtin.SINGLETON
                    || t == Builtin.CAN_TOGGLE) {
                return false;
            }
            if (Ids.isPair(t) && (Ids.first(t) == with || Ids.first(t) == oneOf)) {
                return false;
            }
        }
        return true;
    }

    /**
     * A path from {@code from} to {@code to} over pairs of {@code rel} (forward: from a source to
     * its targets; breadth first, so the shortest), as the entity indices after {@code from} ending
     * with {@code to}; null when {@code to} is not reachable. Cycles terminate.
     */
    public int[] path(int from, int rel, int to) {
        var parent = new it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap();
        var queue = new it.unimi.dsi.fastutil.ints.IntArrayList();
        parent.put(from, from);
        queue.add(from);
        for (int q = 0; q < queue.size(); q++) {
            int x = queue.getInt(q);
            for (int t : sparse != null && sparse.isSparse(rel) ? sparse.targets(x, rel) : Types.targets(typeOf(x), rel)) {
                if (parent.containsKey(t)) {
                    continue;
                }
                parent.put(t, x);
                if (t == to) {
                    var out = new it.unimi.dsi.fastutil.ints.IntArrayList();
                    for (int y = to; y != from; y = parent.get(y)) {
                        out.add(0, y);
                    }
                    return out.toIntArray();
                }
                queue.add(t);
            }
        }
        return null;
    }
}
