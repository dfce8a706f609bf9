package dev.quiver.storage.entity;

import dev.quiver.index.Ids;
import dev.quiver.index.NameIndex;
import dev.quiver.storage.tx.Changes;

/**
 * The name index of a world, kept in step with the entity index: {@code (parent index, name)} to
 * entity (Flecs v4: a name is unique among the children of one parent). Every change is reported
 * to the transaction's {@link Changes}. Not thread-safe.
 */
public final class EntityNames {
    private final EntityIndex entities;
    private final Changes changes;
    private NameIndex index;

    public EntityNames(EntityIndex entities, Changes changes) {
        this.entities = entities;
        this.changes = changes;
        this.index = new NameIndex(entities::name);
    }

    /** Forgets every name (before a reload). */
    public void clear() {
        index = new NameIndex(entities::name);
    }

    /** The child of {@code parentIndex} (0: a root entity) named {@code name}, or 0. */
    public long child(int parentIndex, String name) {
        return index.get(parentIndex, name);
    }

    /** Files entity {@code e} under its parent by name (replacing a stale entry of that key). */
    public void put(int parentIndex, String name, long e) {
        long replaced = index.put(parentIndex, name, e);
        changes.name(Ids.index(e));
        if (replaced != 0) {
            changes.name(Ids.index(replaced));
        }
    }

    /** Removes the entry of {@code (parentIndex, name)}. */
    public void remove(int parentIndex, String name) {
        long removed = index.remove(parentIndex, name);
        if (removed != 0) {
            changes.name(Ids.index(removed));
        }
    }

    /** A named entity changed parent: its entry moves from the old parent to the new one. */
    public void reparent(int index, int oldParent, int newParent) {
        String name = entities.name(index);
        if (name == null || oldParent == newParent) {
            return;
        }
        long e = entities.idOf(index);
        if (child(oldParent, name) == e) {
            remove(oldParent, name);
        }
        put(newParent, name, e);
    }

    /** Files an entry read from a committed state (no change recorded). */
    public void restore(int parentIndex, String name, long e) {
        index.put(parentIndex, name, e);
    }

    public int size() {
        return index.size();
    }

    /** Calls {@code visitor} with every entry. */
    public void forEach(NameIndex.EntryVisitor visitor) {
        index.forEach(visitor);
    }
}
