package dev.quiver.storage.rules;

import dev.quiver.index.Ids;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.BuiltinException;
import dev.quiver.storage.ConstraintException;
import dev.quiver.storage.NameTakenException;
import dev.quiver.storage.OneOfException;
import dev.quiver.storage.StructuralTraitException;
import dev.quiver.storage.ToggleException;
import dev.quiver.storage.CycleException;
import dev.quiver.storage.FinalException;
import dev.quiver.storage.SingletonException;
import dev.quiver.storage.SparseStorageException;
import dev.quiver.storage.DeadEntityException;
import dev.quiver.storage.IdException;
import dev.quiver.storage.entity.EntityIndex;
import dev.quiver.storage.entity.EntityNames;
import dev.quiver.storage.table.Table;
import dev.quiver.storage.table.TableMoves;
import dev.quiver.storage.table.TableSet;
import dev.quiver.storage.table.Types;
import it.unimi.dsi.fastutil.longs.LongArrayList;

/**
 * Adding and removing ids under the relationship traits (Flecs v4): Exclusive replaces the pair of
 * the same relationship, Symmetric adds (and removes) the mirror pair in the same transaction,
 * {@code (With, X)} adds X too (recursively, for relationships as {@code (X, T)}), ChildOf and IsA
 * refuse cycles, IsA refuses a Final target, OneOf checks the target's parent, and a named entity
 * cannot move under a parent that already has a child of its name. A single add and the bulk add
 * of loaders go through the same checks. Not thread-safe; runs inside a transaction.
 */
public final class TraitRules {
    private final EntityIndex entities;
    private final TableSet tables;
    private final TableMoves moves;
    private final EntityNames names;
    private final Traits traits;
    private final Paths paths;
    private Instantiation instantiation;
    private SparsePairs sparse;
    private Toggles toggles;

    /**
     * What adding ids means for IsA instances ({@link Prefabs}); called after the entity moved to
     * its new table.
     */
    public interface Instantiation {
        /** {@code (IsA, base)} was added to {@code instance}. */
        void isAAdded(int instance, int base);

        /** A new id (not an IsA pair) was added to entity index {@code idx}. */
        void idAdded(int idx, long id);
    }

    /** Sets the instantiation rules (once, while the world is wired). */
    public void setInstantiation(Instantiation instantiation) {
        this.instantiation = instantiation;
    }

    /** Sets the sparse pair storage (once, while the world is wired). */
    public void setSparse(SparsePairs sparse) {
        this.sparse = sparse;
    }

    /** Sets the toggle rules (once, while the world is wired): companions follow their relationship. */
    public void setToggles(Toggles toggles) {
        this.toggles = toggles;
    }

    public TraitRules(EntityIndex entities, TableSet tables, TableMoves moves, EntityNames names, Traits traits, Paths paths) {
        this.entities = entities;
        this.tables = tables;
        this.moves = moves;
        this.names = names;
        this.traits = traits;
        this.paths = paths;
    }

    /**
     * Checks that an id may be added: not null, no wildcard, every element alive.
     *
     * @throws IdException         for the null id or a wildcard
     * @throws DeadEntityException when an element is not alive
     */
    public void checkConcrete(long id) {
        if (id == 0) {
            throw new IdException("the null id cannot be added");
        }
        if (Ids.isWildcard(id)) {
            throw new IdException("cannot add the wildcard id " + paths.idToString(id));
        }
        if (Ids.isPair(id)) {
            if (entities.getAny(Ids.first(id)) == 0) {
                throw new DeadEntityException("pair relationship #" + Ids.first(id) + " is not alive");
            }
            if (entities.getAny(Ids.second(id)) == 0) {
                throw new DeadEntityException("pair target #" + Ids.second(id) + " is not alive");
            }
        } else if (!entities.isAlive(id)) {
            throw new DeadEntityException("id " + paths.describe(id) + " is not alive");
        }
    }

    /**
     * Adds several checked ids to entity index {@code idx}: the ids no write-time trait applies to
     * move the entity once, straight to its final table; the others follow one by one.
     */
    public void addAll(int idx, long[] ids) {
        long[] type = moves.tableOf(idx).type();
        boolean hasBases = instantiation != null && Types.hasPairOf(type, Ids.index(Builtin.IS_A));
        // (arrays made only when needed: a bulk load calls this once per entity)
        long[] rest = null, plain = null;
        int restCount = 0, plainCount = 0;
        for (long id : ids) {
            if (traits.isPlainAdd(id) && !sparse.mayRoute(id)) {
                if (hasBases && java.util.Arrays.binarySearch(type, id) < 0) {
                    if (plain == null) {
                        plain = new long[ids.length];
                    }
                    plain[plainCount++] = id;
                }
                type = Types.insert(type, id); // no intermediate tables: only the final one is made
            } else {
                if (rest == null) {
                    rest = new long[ids.length];
                }
                rest[restCount++] = id;
            }
        }
        moves.move(idx, type);
        for (int i = 0; i < plainCount; i++) {
            instantiation.idAdded(idx, plain[i]); // an inherited value becomes the own copy
        }
        for (int i = 0; i < restCount; i++) {
            add(idx, rest[i]);
        }
    }

    /**
     * Refuses a change a user asks for on a builtin entity (Flecs v4 builtins, FEATURES ID-10:
     * their traits and policies define the model; {@code *} and {@code _} are wildcards, not
     * entities to tag).
     *
     * @throws BuiltinException when {@code idx} is a builtin
     */
    public void checkNotBuiltin(int idx) {
        if (idx < Builtin.FIRST_USER_INDEX) {
            throw new BuiltinException("cannot change builtin " + paths.elementName(idx) + ": builtins are protected");
        }
        int rel = traits.companionOf(idx);
        if (rel != 0) {
            throw new BuiltinException("cannot change " + paths.elementName(idx) + ": it is the toggle companion of "
                    + paths.elementName(rel) + ", kept by the toggle rules (enable and disable pairs of "
                    + paths.elementName(rel) + " instead)");
        }
    }

    /**
     * The structural traits: they decide how pairs of a relationship are stored and checked, so
     * they cannot be added to or removed from a relationship already in use (FEATURES TRT).
     */
    private static boolean isStructural(long id) {
        return id == Builtin.EXCLUSIVE || id == Builtin.SYMMETRIC || id == Builtin.PAIR_IS_TAG
                || id == Builtin.ACYCLIC || id == Builtin.FINAL || id == Builtin.DONT_FRAGMENT || id == Builtin.UNION;
    }

    private void checkStructuralChange(int idx, long trait, String verb) {
        if (trait == Builtin.CAN_TOGGLE && verb.equals("remove") && traits.isToggledOffAnywhere(idx)) {
            throw new StructuralTraitException("cannot remove CanToggle from " + paths.elementName(idx)
                    + ": it is disabled on some entities (enable it there first)");
        }
        if (trait == Builtin.CAN_TOGGLE && verb.equals("add") && sparse.isSparse(idx)) {
            throw new SparseStorageException("cannot add CanToggle to " + paths.elementName(idx) + ": its pairs are stored"
                    + " sparse (DontFragment), and sparse pairs cannot be toggled in this version");
        }
        if ((trait == Builtin.DONT_FRAGMENT || trait == Builtin.UNION) && verb.equals("add")
                && traits.has(idx, Builtin.CAN_TOGGLE)) {
            throw new SparseStorageException("cannot add " + paths.elementName(Ids.index(trait)) + " to "
                    + paths.elementName(idx) + ": it has CanToggle, and sparse pairs cannot be toggled in this version");
        }
        if (!isStructural(trait)) {
            return;
        }
        if (verb.equals("add") && (trait == Builtin.DONT_FRAGMENT || trait == Builtin.UNION)) {
            sparse.checkMayBeSparse(idx);
        }
        boolean inUse = trait == Builtin.FINAL ? traits.isABase(idx) : traits.inUseAsRelationship(idx);
        if (inUse) {
            throw new StructuralTraitException("cannot " + verb + " " + paths.elementName(Ids.index(trait)) + " "
                    + (verb.equals("add") ? "to " : "from ") + paths.elementName(idx) + ": it is already in use"
                    + (trait == Builtin.FINAL ? " as an IsA base" : " as a relationship")
                    + " (structural traits are set before first use)");
        }
    }

    /**
     * The toggle rules on an add (Flecs v4 CanToggle, held as {@code (Disabled, C)}): C cannot be
     * added while it is disabled on the entity, and {@code (Disabled, C)} (C added disabled) only
     * for a C with CanToggle that the entity does not hold enabled.
     */
    private void checkToggle(int idx, Table t, long id) {
        int disabled = Ids.index(Builtin.DISABLED);
        if (!Ids.isPair(id)) {
            if (t.hasId(Ids.pairOfIndices(disabled, Ids.index(id)))) {
                throw new ToggleException("cannot add " + paths.idToString(id) + " to " + paths.elementName(idx)
                        + ": it is disabled there (enable it instead)");
            }
            return;
        }
        if (Ids.first(id) != disabled) {
            checkPairToggle(idx, t, id);
            return;
        }
        int c = Ids.second(id);
        if (!traits.has(c, Builtin.CAN_TOGGLE)) {
            throw new ToggleException("cannot add " + paths.idToString(id) + " to " + paths.elementName(idx) + ": "
                    + paths.elementName(c) + " lacks the CanToggle trait");
        }
        if (t.hasId(entities.getAny(c))) {
            throw new ToggleException("cannot add " + paths.idToString(id) + " to " + paths.elementName(idx)
                    + ": it holds " + paths.elementName(c) + " enabled (disable it instead)");
        }
    }

    /**
     * The toggle rules for pairs (held as {@code (R~, T)}, {@link Toggles}): {@code (R, T)} cannot be
     * added while it is disabled on the entity, and {@code (R~, T)} ((R, T) added disabled, as an
     * instantiation copies it) only while R has CanToggle and the entity does not hold (R, T) enabled.
     */
    private void checkPairToggle(int idx, Table t, long id) {
        int rel = Ids.first(id), tgt = Ids.second(id);
        if (!traits.has(rel, Builtin.CAN_TOGGLE) && !traits.has(rel, Builtin.DISABLED_RELATIONSHIP)) {
            return; // the usual pair: no toggle rule applies
        }
        int base = traits.companionOf(rel);
        if (base == 0) {
            int companion = traits.companion(rel);
            if (companion != 0 && t.hasId(Ids.pairOfIndices(companion, tgt))) {
                throw new ToggleException("cannot add " + paths.idToString(id) + " to " + paths.elementName(idx)
                        + ": it is disabled there (enable it instead)");
            }
            return;
        }
        if (!traits.has(base, Builtin.CAN_TOGGLE)) {
            throw new ToggleException("cannot add " + paths.idToString(id) + " to " + paths.elementName(idx) + ": "
                    + paths.elementName(base) + " lacks the CanToggle trait");
        }
        if (t.hasId(Ids.pairOfIndices(base, tgt))) {
            throw new ToggleException("cannot add " + paths.idToString(id) + " to " + paths.elementName(idx)
                    + ": it holds (" + paths.elementName(base) + "," + paths.elementName(tgt) + ") enabled (disable it instead)");
        }
    }

    /**
     * For an instantiation ({@link Prefabs}): true when the pair {@code id} of a base is not to be
     * copied because the instance's own type {@code own} or the pairs {@code collected} from nearer
     * bases already take its place: a pair of the same Exclusive relationship (R and its companion
     * R~ count as one, {@link Toggles}), or the same pair in its other toggle state ({@code (R, T)}
     * for {@code (R~, T)} and back: the nearest base decides).
     */
    public boolean takenOnInstantiation(long id, long[] own, LongArrayList collected) {
        int rel = Ids.first(id), base = traits.ruleSubject(rel);
        int companion = base != rel ? rel : traits.has(base, Builtin.CAN_TOGGLE) ? traits.companion(base) : 0;
        if (companion != 0) {
            long other = Ids.pairOfIndices(base != rel ? base : companion, Ids.second(id));
            if (java.util.Arrays.binarySearch(own, other) >= 0 || collected.contains(other)) {
                return true;
            }
        }
        if (!traits.has(base, Builtin.EXCLUSIVE)) {
            return false;
        }
        for (long[] ids : new long[][] {own, collected.toLongArray()}) {
            for (long x : ids) {
                if (Ids.isPair(x) && (Ids.first(x) == base || (companion != 0 && Ids.first(x) == companion))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Adds one checked id to entity index {@code idx} under the traits; an id it has changes nothing. */
    public void add(int idx, long id) {
        add(idx, id, false);
        syncCompanion(idx, id);
    }

    /** A change to an id a toggle companion mirrors ({@link Toggles#sync}) on a relationship reaches R~. */
    private void syncCompanion(int idx, long id) {
        if (toggles != null && idx >= Builtin.FIRST_USER_INDEX && Toggles.mirrored(new long[] {id}).length > 0) {
            toggles.sync(idx);
        }
    }

    /**
     * @param implied added by a builtin trait's {@code (With, X)} (Transitive brings Traversable,
     *     Traversable brings Acyclic, FEATURES TRT-05/TRT-15): an implied Acyclic on a user
     *     relationship in use is accepted, since Quiver accepts cycles in user relationships and
     *     so has no existing data to validate (TRT-21); added explicitly it is still refused
     */
    private void add(int idx, long id, boolean implied) {
        Table t = moves.tableOf(idx);
        if (sparse.owns(t, idx, id)) {
            return;
        }
        if (!(implied && id == Builtin.ACYCLIC)) {
            checkStructuralChange(idx, id, "add");
        }
        checkToggle(idx, t, id);
        if (!Ids.isPair(id)) {
            if (Ids.index(id) != idx && traits.has(Ids.index(id), Builtin.SINGLETON)) {
                throw new SingletonException("cannot add " + paths.elementName(Ids.index(id)) + " to "
                        + paths.elementName(idx) + ": it is a Singleton, which lives on its own entity only");
            }
            moves.move(idx, tables.withId(t, id));
            if (instantiation != null) {
                instantiation.idAdded(idx, id);
            }
            applyWith(idx, Ids.index(id), -1);
            return;
        }
        int rel = Ids.first(id), tgt = Ids.second(id);
        int base = traits.ruleSubject(rel); // R for a disabled pair (R~, T): R's traits rule it (Toggles)
        checkPair(idx, base, tgt);
        var replaced = new LongArrayList();
        long[] type = t.type();
        boolean sparsePair = sparse.route(id);
        if (sparsePair) {
            t = moves.tableOf(idx); // the switch to sparse storage may have moved it
            if (traits.has(rel, Builtin.EXCLUSIVE)) {
                for (int old : sparse.targets(idx, rel)) {
                    replaced.add(Ids.pairOfIndices(rel, old));
                }
            }
        } else if (traits.has(base, Builtin.EXCLUSIVE)) {
            // Flecs v4: a disabled pair stays in the type, so exclusivity counts it (Toggles)
            int other = base != rel ? base : traits.has(base, Builtin.CAN_TOGGLE) ? traits.companion(base) : 0;
            type = Types.withoutPairsOf(type, rel, replaced);
            if (other != 0) {
                type = Types.withoutPairsOf(type, other, replaced);
            }
        }
        if (rel == Ids.index(Builtin.CHILD_OF) && entities.named(idx)) {
            String name = entities.name(idx); // names are bytes: a String only when needed
            long other = names.child(tgt, name);
            if (other != 0 && other != entities.idOf(idx)) {
                throw new NameTakenException("cannot move '" + name + "' under " + paths.path(tgt)
                        + ": a child with that name exists");
            }
        }
        if (sparsePair) {
            if (traits.has(rel, Builtin.EXCLUSIVE)) {
                sparse.replace(idx, rel, tgt); // one move of the name, never through the root
            } else {
                sparse.add(idx, rel, tgt);
            }
        } else {
            moves.move(idx, replaced.isEmpty() ? tables.withId(t, id) : tables.forType(Types.insert(type, id)));
        }
        if (traits.has(base, Builtin.SYMMETRIC)) {
            for (int k = 0; k < replaced.size(); k++) {
                int oldTgt = Ids.second(replaced.getLong(k));
                if (oldTgt != idx && entities.isAliveIndex(oldTgt)) {
                    remove(oldTgt, Ids.pairOfIndices(base, idx));
                }
            }
            long mirror = Ids.pairOfIndices(base, idx);
            if (tgt != idx && !toggles.isDisabled(tgt, mirror)) {
                add(tgt, mirror); // a mirror the target holds disabled stays disabled
            }
        }
        if (instantiation != null) {
            if (rel == Ids.index(Builtin.IS_A)) {
                instantiation.isAAdded(idx, tgt);
            } else {
                instantiation.idAdded(idx, id);
            }
        }
        applyWith(idx, base, tgt);
    }

    /** {@code (With, X)} on {@code idIndex}: adds X (or {@code (X, target)} for a relationship) too. */
    private void applyWith(int idx, int idIndex, int target) {
        int with = Ids.index(Builtin.WITH);
        for (long w : traits.typeOf(idIndex)) {
            if (Ids.isPair(w) && Ids.first(w) == with) {
                int x = Ids.second(w);
                long add = target < 0 ? entities.getAny(x) : Ids.pairOfIndices(x, target);
                if (add != 0 && !Types.hasMatch(sparse.logicalType(idx), add)) {
                    add(idx, add, idIndex < Builtin.FIRST_USER_INDEX);
                }
            }
        }
    }

    private void checkPair(int idx, int rel, int tgt) {
        int childOf = Ids.index(Builtin.CHILD_OF), isA = Ids.index(Builtin.IS_A);
        if (rel == childOf || rel == isA) {
            int[] path = tgt == idx ? new int[0] : traits.path(tgt, rel, idx);
            if (path != null) {
                var cycle = new StringBuilder(paths.elementName(idx)).append(" -> ").append(paths.elementName(tgt));
                for (int p : path) {
                    cycle.append(" -> ").append(paths.elementName(p));
                }
                throw new CycleException("cannot add (" + paths.elementName(rel) + ", " + paths.elementName(tgt) + ") to "
                        + paths.elementName(idx) + ": it would make the cycle " + cycle + " (" + paths.elementName(rel)
                        + " is Acyclic)");
            }
        }
        if (rel == isA && traits.has(tgt, Builtin.FINAL)) {
            throw new FinalException("cannot add (IsA, " + paths.elementName(tgt) + ") to " + paths.elementName(idx) + ": "
                    + paths.elementName(tgt) + " is Final");
        }
        int scope = traits.oneOfScope(rel);
        if (scope != 0 && paths.parentIndex(tgt) != scope) {
            throw new OneOfException("cannot add (" + paths.elementName(rel) + ", " + paths.elementName(tgt) + "): "
                    + paths.elementName(rel) + " is OneOf and the target is not a child of " + paths.elementName(scope));
        }
    }

    /**
     * Entity indices of the entities holding {@code id} (wildcards allowed), copied.
     *
     * @throws IdException         for the null id
     * @throws ConstraintException when a builtin holds it
     */
    public int[] holders(long id) {
        if (id == 0) {
            throw new IdException("the null id matches nothing");
        }
        var out = new it.unimi.dsi.fastutil.ints.IntLinkedOpenHashSet(sparse.holders(id));
        long off = disabledPattern(id);
        if (off != 0) {
            out.addAll(it.unimi.dsi.fastutil.ints.IntArrayList.wrap(sparse.holders(off))); // held disabled (Toggles)
        }
        var keep = new it.unimi.dsi.fastutil.ints.IntArrayList(out.size());
        for (int idx : out) {
            if (idx >= Builtin.FIRST_USER_INDEX && traits.companionOf(idx) != 0) {
                continue; // a toggle companion is kept by the toggle rules, never by bulk changes
            }
            checkNotBuiltin(idx);
            keep.add(idx);
        }
        return keep.toIntArray();
    }

    /**
     * Removes every pair of every Transient relationship ({@link Builtin#TRANSIENT}, Tecs
     * {@code transient}); false when there was none (nothing changed).
     */
    public boolean removeTransientPairs() {
        var rels = new it.unimi.dsi.fastutil.ints.IntArrayList();
        for (Table t : tables.matching(Builtin.TRANSIENT)) {
            for (int r = 0; r < t.count(); r++) {
                int rel = Ids.index(t.entity(r));
                if (traits.inUseAsRelationship(rel)) {
                    rels.add(rel);
                }
            }
        }
        for (int i = 0; i < rels.size(); i++) {
            removeAll(Ids.pairOfIndices(rels.getInt(i), Ids.WILDCARD_INDEX));
        }
        return !rels.isEmpty();
    }

    /**
     * Removes {@code id} (wildcards allowed) from every entity holding it, enabled or disabled
     * (Flecs v4 remove_all).
     *
     * @return the number of entities that held it
     */
    public int removeAll(long id) {
        int changed = 0;
        for (int idx : holders(id)) {
            int before = sparse.logicalType(idx).length;
            removeMatching(idx, id);
            if (sparse.logicalType(idx).length != before) {
                changed++;
            }
        }
        return changed;
    }

    /**
     * Removes an id from entity index {@code idx}; a pattern with wildcards removes every matching
     * id. Removing never triggers cleanup policies (Flecs v4, Tecs: remove never cascades).
     * Symmetric pairs lose their mirror too.
     */
    public void removeMatching(int idx, long pattern) {
        if (!Ids.isWildcard(pattern)) {
            remove(idx, pattern);
            return;
        }
        long off = disabledPattern(pattern);
        int disabled = Ids.index(Builtin.DISABLED);
        for (long have : sparse.logicalType(idx)) {
            // (Disabled, C) is component C held disabled, not a pair with target C: (*, C) leaves it
            boolean toggledComponent = Ids.isPair(have) && Ids.first(have) == disabled && Ids.first(pattern) != disabled;
            if ((Types.matches(pattern, have) && !toggledComponent) || (off != 0 && Types.matches(off, have))) {
                remove(idx, have);
            }
        }
    }

    /**
     * The pattern that matches {@code id} held disabled ({@link Toggles}): {@code (Disabled, C)} for a
     * plain user id C, {@code (R~, X)} for a pair {@code (R, X)} ({@code X} may be a wildcard) whose
     * relationship R has a companion; 0 when nothing of it can be disabled.
     */
    private long disabledPattern(long id) {
        if (!Ids.isPair(id)) {
            return Ids.isWildcard(id) || Ids.index(id) < Builtin.FIRST_USER_INDEX ? 0 : Toggles.disabledPair(id);
        }
        if (Ids.first(id) == Ids.WILDCARD_INDEX || Ids.first(id) == Ids.index(Builtin.ANY)) {
            return 0;
        }
        int companion = traits.companion(Ids.first(id));
        return companion == 0 ? 0 : Ids.pairOfIndices(companion, Ids.second(id));
    }

    /** A named entity losing its parent becomes a root: refused when a root of its name exists. */
    private void checkRootName(int idx) {
        String name = entities.name(idx);
        if (name == null) {
            return;
        }
        long other = names.child(0, name);
        if (other != 0 && other != entities.idOf(idx)) {
            throw new NameTakenException("cannot remove the parent of " + paths.path(idx)
                    + ": a root entity named '" + name + "' exists");
        }
    }

    /**
     * Removes one concrete id from entity index {@code idx} (nothing when it lacks it); a disabled
     * component goes with its {@code (Disabled, C)} pair.
     */
    public void remove(int idx, long id) {
        if (sparse.isSparsePair(id)) {
            // Union / DontFragment: removing (R, X) while the target is Y does nothing (A-34)
            int rel = Ids.first(id), tgt = Ids.second(id);
            if (rel == Ids.index(Builtin.CHILD_OF) && sparse.has(idx, rel, tgt)) {
                checkRootName(idx);
            }
            if (sparse.remove(idx, rel, tgt) && tgt != idx && entities.isAliveIndex(tgt) && traits.has(rel, Builtin.SYMMETRIC)) {
                remove(tgt, Ids.pairOfIndices(rel, idx));
            }
            return;
        }
        Table t = moves.tableOf(idx);
        if (!t.hasId(id)) {
            long stash = toggles.disabledForm(id); // a disabled C or (R, T) goes too
            if (stash == 0 || !t.hasId(stash)) {
                return;
            }
            id = stash;
        }
        checkStructuralChange(idx, id, "remove");
        if (Ids.isPair(id) && Ids.first(id) == Ids.index(Builtin.CHILD_OF)) {
            checkRootName(idx);
        }
        moves.move(idx, tables.withoutId(t, id));
        if (Ids.isPair(id)) {
            int rel = traits.ruleSubject(Ids.first(id)), tgt = Ids.second(id);
            if (tgt != idx && entities.isAliveIndex(tgt) && traits.has(rel, Builtin.SYMMETRIC)) {
                remove(tgt, Ids.pairOfIndices(rel, idx));
            }
        }
        syncCompanion(idx, id);
    }
}
