package dev.quiver.storage.rules;

import dev.quiver.index.Ids;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.NameTakenException;
import dev.quiver.storage.ConstraintException;
import dev.quiver.storage.entity.EntityIndex;
import dev.quiver.storage.entity.EntityNames;
import dev.quiver.storage.entity.Names;
import dev.quiver.storage.table.TableMoves;
import dev.quiver.storage.tx.Changes;

/**
 * Creating entities in the hierarchy (Flecs v4 {@code ecs_entity} and ChildOf hierarchies): a new
 * entity starts in the root table, is filed by name under its parent, and gets
 * {@code (ChildOf, parent)} when it has one; a path creates every missing element. Not
 * thread-safe; runs inside a transaction.
 */
public final class Hierarchy {
    private final EntityIndex entities;
    private final EntityNames names;
    private final TableMoves moves;
    private final TraitRules rules;
    private final Paths paths;
    private final Changes changes;

    public Hierarchy(EntityIndex entities, EntityNames names, TableMoves moves, TraitRules rules, Paths paths,
                     Changes changes) {
        this.paths = paths;
        this.entities = entities;
        this.names = names;
        this.moves = moves;
        this.rules = rules;
        this.changes = changes;
    }

    /**
     * Creates the entity at a path that {@link Paths#lookup} did not find, with every missing
     * parent.
     *
     * @throws dev.quiver.storage.IdException when a name to create breaks the name grammar ({@link Names#check})
     */
    public long createPath(String[] parts) {
        return createPath(0, parts);
    }

    /**
     * Creates the entity at a path below {@code root} (0: the root; the current scope) that a
     * lookup there did not find, with every missing parent.
     */
    public long createPath(long root, String[] parts) {
        if (parts.length == 1) {
            // a name just looked up and absent: create it without looking it up again
            Names.check(parts[0]);
            return create(parts[0], root);
        }
        long parent = root;
        for (String part : parts) {
            long e = names.child(Ids.index(parent), part);
            if (e == 0) {
                Names.check(part);
                e = create(part, parent);
            }
            parent = e;
        }
        return parent;
    }

    /** Creates an entity (anonymous when {@code name} is null) under {@code parent} (0: a root). */
    public long create(String name, long parent) {
        int idx = entities.allocate();
        changes.meta();
        return place(idx, name, parent);
    }

    /** Makes index {@code idx} a live entity: root table, name, parent. */
    public long place(int idx, String name, long parent) {
        long e = entities.revive(idx, name);
        moves.placeNew(idx, e);
        changes.entity(idx);
        if (name != null) {
            names.put(Ids.index(parent), name, e);
        }
        if (parent != 0) {
            rules.add(idx, Ids.pair(Builtin.CHILD_OF, parent));
        }
        return e;
    }

    /**
     * Gives entity index {@code idx} a new name under its parent; the name index follows.
     *
     * @throws IdException         when {@code name} breaks the name grammar
     * @throws ConstraintException when a sibling already has that name
     */
    public void rename(int idx, String name) {
        Names.check(name);
        String old = entities.name(idx);
        if (name.equals(old)) {
            return;
        }
        int parent = paths.parentIndex(idx);
        if (names.child(parent, name) != 0) {
            throw new NameTakenException("cannot rename " + (old == null ? "#" + idx : old) + " to '" + name
                    + "': a sibling has that name");
        }
        if (old != null) {
            names.remove(parent, old);
        }
        entities.setName(idx, name);
        changes.entity(idx);
        names.put(parent, name, entities.idOf(idx));
    }

    /**
     * A new world's builtins (Flecs v4): the named builtin entities at their fixed indices, then
     * the builtin traits: ChildOf is Exclusive, Acyclic, Traversable, DontInherit and deletes its
     * children with their parent; IsA is Transitive, Reflexive, Acyclic and Traversable;
     * Transitive has {@code (With, Traversable)} and Traversable {@code (With, Acyclic)}.
     */
    public void placeBuiltins() {
        for (int i = 1; i < Builtin.FIRST_USER_INDEX; i++) {
            String name = Builtin.name(i);
            if (name != null) {
                place(i, name, 0);
            }
        }
        int cf = Ids.index(Builtin.CHILD_OF), isA = Ids.index(Builtin.IS_A);
        for (long trait : new long[] {Builtin.EXCLUSIVE, Builtin.ACYCLIC, Builtin.TRAVERSABLE, Builtin.DONT_INHERIT,
            Ids.pair(Builtin.ON_DELETE_TARGET, Builtin.DELETE)}) {
            rules.add(cf, trait);
        }
        for (long trait : new long[] {Builtin.TRANSITIVE, Builtin.REFLEXIVE, Builtin.ACYCLIC, Builtin.TRAVERSABLE}) {
            rules.add(isA, trait);
        }
        // Flecs v4: Transitive brings Traversable, which brings Acyclic (FEATURES TRT-05, TRT-15)
        rules.add(Ids.index(Builtin.TRANSITIVE), Ids.pair(Builtin.WITH, Builtin.TRAVERSABLE));
        rules.add(Ids.index(Builtin.TRAVERSABLE), Ids.pair(Builtin.WITH, Builtin.ACYCLIC));
        // Union = Exclusive + DontFragment (FEATURES TRT-07)
        rules.add(Ids.index(Builtin.UNION), Ids.pair(Builtin.WITH, Builtin.EXCLUSIVE));
        rules.add(Ids.index(Builtin.UNION), Ids.pair(Builtin.WITH, Builtin.DONT_FRAGMENT));
    }
}
