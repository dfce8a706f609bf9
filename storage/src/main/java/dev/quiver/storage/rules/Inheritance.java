package dev.quiver.storage.rules;

import dev.quiver.index.Ids;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.OnInstantiate;
import dev.quiver.storage.entity.EntityIndex;
import dev.quiver.storage.table.Table;
import dev.quiver.storage.table.TableSet;
import dev.quiver.storage.table.Types;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import it.unimi.dsi.fastutil.longs.LongArrayList;

/**
 * IsA inheritance read through the stored IsA pairs (Flecs v4 prefabs and inheritance, FEATURES
 * ISA-03 to ISA-08, TRT-13): an entity sees the ids of its IsA bases whose policy is
 * {@link OnInstantiate#INHERIT}; Override ids were copied onto it when the IsA pair was added
 * ({@link Prefabs}), DontInherit ids never reach it.
 *
 * <p><b>Lookup order</b> (Flecs v4 {@code flecs_get_base_component}, FEATURES ISA-05/ISA-06): the
 * entity itself, then its bases depth first: the first base's whole chain up to its root before the
 * next base, bases in type order (ascending target id, which is how the IsA pairs are stored; the
 * order they were added is not kept). The nearest owner wins. IsA cycles are refused on write
 * ({@link TraitRules}); a visited set keeps reads finite anyway.
 *
 * <p>Nothing here is stored: inherited state derives from the IsA pairs and the bases' own ids, so it
 * survives close and reopen with no format change. Read-only. Not thread-safe.
 */
public final class Inheritance {
    private static final int IS_A = Ids.index(Builtin.IS_A);

    private final EntityIndex entities;
    private final TableSet tables;

    public Inheritance(EntityIndex entities, TableSet tables) {
        this.entities = entities;
        this.tables = tables;
    }

    private SparsePairs sparse;
    /** The world's change epoch ({@code TableMoves#epoch}); null: no resolution is cached. */
    private java.util.function.LongSupplier epoch;

    /** The inherited-id resolutions ({@link Resolutions}), shared with {@link Values}; read only with {@link #epoch}. */
    final Resolutions resolved = new Resolutions();

    /** Sets the change epoch resolutions are cached under (once, while the world is wired; {@code TableMoves#epoch}). */
    public void setEpoch(java.util.function.LongSupplier epoch) {
        this.epoch = epoch;
    }

    /** Sets the sparse pair storage (once, while the world is wired): types are read through it. */
    public void setSparse(SparsePairs sparse) {
        this.sparse = sparse;
    }

    /** The logical type of entity index {@code i}: its sparse pairs included, never their marker. */
    public long[] typeOf(int i) {
        long[] t = tables.get(entities.table(i)).type();
        return sparse == null ? t : sparse.logicalType(t, i);
    }

    /**
     * The table type of entity index {@code i}, for builtin ids only (IsA pairs, OnInstantiate,
     * DontInherit): builtins are never stored sparse, so no logical type is needed (the hot path
     * of an inherited get).
     */
    private long[] builtinsOf(int i) {
        return tables.get(entities.table(i)).type();
    }

    /**
     * The OnInstantiate policy of a concrete id: for a plain id its entity's, for a pair its
     * relationship's (Flecs v4 pairs take the relationship's flags). {@code (OnInstantiate, P)} on
     * the entity gives P, the {@code DontInherit} tag gives DontInherit, anything else Override.
     * Builtin ids and pairs of builtin relationships are DontInherit ({@link OnInstantiate}), except
     * IsA pairs, which are Inherit as in Flecs v4 (its bootstrap gives IsA
     * {@code (OnInstantiate, Inherit)}; conformance NOTES K5): an instance of {@code Mid} sees
     * {@code (IsA, Base)} on {@code Mid}. The rule lives here rather than as a stored pair on IsA,
     * so worlds written before it need no change.
     */
    public OnInstantiate policy(long id) {
        int subject = Ids.isPair(id) ? Ids.first(id) : Ids.index(id);
        if (Ids.isPair(id) && subject == IS_A) {
            return OnInstantiate.INHERIT;
        }
        if (subject < Builtin.FIRST_USER_INDEX || !entities.isAliveIndex(subject)) {
            return OnInstantiate.DONT_INHERIT;
        }
        long[] type = builtinsOf(subject);
        int p = Types.target(type, Ids.index(Builtin.ON_INSTANTIATE));
        if (p == Ids.index(Builtin.INHERIT)) {
            return OnInstantiate.INHERIT;
        }
        if (p == Ids.index(Builtin.DONT_INHERIT)) {
            return OnInstantiate.DONT_INHERIT;
        }
        if (p == 0 && java.util.Arrays.binarySearch(type, Builtin.DONT_INHERIT) >= 0) {
            return OnInstantiate.DONT_INHERIT;
        }
        return OnInstantiate.OVERRIDE;
    }

    /** True when entity index {@code i} has at least one IsA base. */
    public boolean hasBases(int i) {
        return Types.hasPairOf(builtinsOf(i), IS_A);
    }

    /** The IsA bases of entity index {@code i} (direct ones), in type order. */
    public int[] bases(int i) {
        return Types.targets(builtinsOf(i), IS_A);
    }

    /**
     * The entity index that provides the concrete {@code id} to entity index {@code i}: {@code i}
     * when it owns it, else the nearest base owning it when the id is Inherit (lookup order in the
     * class comment), else 0.
     */
    public int owner(int i, long id) {
        Table t = tables.get(entities.table(i));
        if (ownsId(t, i, id)) {
            return i;
        }
        if (epoch == null) {
            return inheritedOwner(t, i, id);
        }
        long now = epoch.getAsLong();
        int s = resolved.find(t, id, now);
        if (s >= 0) {
            return resolved.owner[s];
        }
        int o = inheritedOwner(t, i, id);
        resolved.put(t, id, now, o);
        return o;
    }

    /**
     * The slot of {@link #resolved} holding where entities of table {@code t} not owning
     * {@code id} get it from, current under the change epoch, or -1 when none is (or no epoch is
     * set: nothing is cached).
     */
    int resolvedSlot(Table t, long id) {
        return epoch == null ? -1 : resolved.find(t, id, epoch.getAsLong());
    }

    /** The nearest base of entity index {@code i} (of table {@code t}, which does not own {@code id}) that provides it, or 0. */
    private int inheritedOwner(Table t, int i, long id) {
        long[] type = t.type(); // only its IsA pairs are read: builtins are never sparse
        int start = Types.pairsStart(type, IS_A);
        if (!Types.isPairOf(type, start, IS_A) || policy(id) != OnInstantiate.INHERIT) {
            return 0;
        }
        visits = 0;
        int o = baseOwningUnmarked(type, start, id);
        return o >= 0 ? o : baseOwning(i, id, new IntOpenHashSet());
    }

    /** True when entity index {@code i} (of table {@code t}) owns {@code id} ({@link SparsePairs#owns}). */
    private boolean ownsId(Table t, int i, long id) {
        return sparse == null || !Ids.isPair(id) ? t.hasId(id) : sparse.owns(t, i, id);
    }

    /** Bases visited by the current {@link #baseOwningUnmarked} walk. */
    private int visits;
    /** Bases a walk without a visited set may visit before it starts again with one. */
    private static final int UNMARKED_VISITS = 64;

    /**
     * {@link #baseOwning} without a visited set, allocating nothing (the common case: a short
     * chain), over the IsA pairs of {@code type} from position {@code start} (the hot path of an
     * inherited get: each base's table is read once, for its own ids and its IsA pairs). IsA is
     * acyclic, so the walk ends; a base reached twice through a diamond did not own the id the
     * first time either, so the answer is the same. -1 when the walk passed
     * {@link #UNMARKED_VISITS} bases (a hierarchy with many diamonds): walk again with a set.
     */
    private int baseOwningUnmarked(long[] type, int start, long id) {
        for (int k = start; Types.isPairOf(type, k, IS_A); k++) {
            int b = Ids.second(type[k]);
            if (!entities.isAliveIndex(b)) {
                continue;
            }
            if (++visits > UNMARKED_VISITS) {
                return -1;
            }
            Table bt = tables.get(entities.table(b));
            if (ownsId(bt, b, id)) {
                return b;
            }
            long[] btype = bt.type();
            int bs = Types.pairsStart(btype, IS_A);
            if (Types.isPairOf(btype, bs, IS_A)) {
                int deeper = baseOwningUnmarked(btype, bs, id);
                if (deeper != 0) {
                    return deeper;
                }
            }
        }
        return 0;
    }

    /** Depth first over the bases of {@code i}, the first base owning {@code id}, or 0. */
    private int baseOwning(int i, long id, IntOpenHashSet seen) {
        if (!seen.add(i)) {
            return 0;
        }
        for (int b : bases(i)) {
            if (!entities.isAliveIndex(b)) {
                continue;
            }
            if (ownsId(tables.get(entities.table(b)), b, id)) {
                return b;
            }
            int deeper = baseOwning(b, id, seen);
            if (deeper != 0) {
                return deeper;
            }
        }
        return 0;
    }

    /**
     * True when entity index {@code i} owns or inherits an id matching {@code pattern} (which may
     * hold {@code *} or {@code _}); inherited ids count only when they are Inherit.
     */
    public boolean hasMatch(int i, long pattern) {
        long[] own = typeOf(i);
        if (Types.hasMatch(own, pattern)) {
            return true;
        }
        if (!Types.hasPairOf(own, IS_A)) {
            return false;
        }
        if (!Ids.isWildcard(pattern)) {
            return owner(i, pattern) != 0; // cached per (table, id), no visited set on a short chain
        }
        for (long id : inherited(i)) {
            if (Types.matches(pattern, id)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The Inherit ids entity index {@code i} sees through its bases and does not own, each once, in
     * lookup order (nearest base first).
     */
    public long[] inherited(int i) {
        long[] own = typeOf(i);
        var out = new LongArrayList();
        if (!Types.hasPairOf(own, IS_A)) {
            return out.toLongArray();
        }
        var order = new IntArrayList();
        ancestors(i, order, new IntOpenHashSet());
        for (int k = 0; k < order.size(); k++) {
            for (long id : typeOf(order.getInt(k))) {
                if (java.util.Arrays.binarySearch(own, id) < 0 && !out.contains(id)
                        && policy(id) == OnInstantiate.INHERIT) {
                    out.add(id);
                }
            }
        }
        return out.toLongArray();
    }

    /** Every transitive base of {@code i} in lookup order (depth first, type order), each once. */
    public void ancestors(int i, IntArrayList out, IntOpenHashSet seen) {
        seen.add(i);
        for (int b : bases(i)) {
            if (entities.isAliveIndex(b) && seen.add(b)) {
                out.add(b);
                ancestors(b, out, seen);
            }
        }
    }
}
