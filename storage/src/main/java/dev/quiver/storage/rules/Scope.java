package dev.quiver.storage.rules;

import dev.quiver.index.Ids;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.entity.EntityIndex;
import dev.quiver.storage.entity.Names;

/**
 * The current scope and lookups relative to a parent (Flecs v4 namespacing and scoping,
 * FEATURES.md ENT-05, ENT-07; the Flecs manual's "Namespacing" and "Scoping" sections):
 * <ul>
 *   <li>a relative lookup reads a path below a parent ({@code ecs_lookup_path(world, parent,
 *       path)}): the parent's children, never the root's;</li>
 *   <li>while a scope is set ({@code ecs_set_scope}), entities are created below it, a path given
 *       to create an entity is read below it, and a lookup searches the scope, then each of its
 *       ancestors, then the root ({@code ecs_lookup}'s recursive search), so that names declared
 *       outside the scope (components, tags, relationships) stay visible.</li>
 * </ul>
 * The scope is state of one open world, like Flecs' (not persisted and not undone by a refused
 * transaction). Read-only over the entity index; creation is {@link Hierarchy}'s. Not thread-safe.
 */
public final class Scope {
    private final EntityIndex entities;
    private final Paths paths;
    /** The scope entity, or 0 for the root. */
    private long scope;

    public Scope(EntityIndex entities, Paths paths) {
        this.entities = entities;
        this.paths = paths;
    }

    /** The current scope, or 0 for the root. */
    public long current() {
        return scope;
    }

    /**
     * Sets the scope and returns the previous one.
     *
     * @param e an alive entity, or 0 for the root
     * @throws dev.quiver.storage.DeadEntityException when {@code e} is not alive
     */
    public long set(long e) {
        if (e != 0) {
            entities.get(e, paths::describe);
        }
        long prev = scope;
        scope = e;
        return prev;
    }

    /**
     * The parent new entities get: the scope, or 0.
     *
     * @throws dev.quiver.storage.DeadEntityException when the scope was deleted since it was set
     */
    public long parentForNew() {
        if (scope != 0) {
            entities.get(scope, id -> "the current scope " + paths.describe(id));
        }
        return scope;
    }

    /** The entity at {@code path} below {@code parent} (0: the root), or 0. */
    public long lookupFrom(long parent, String[] parts) {
        if (parent == 0) {
            return paths.lookup(parts);
        }
        if (parts.length == 1) { // an index or a builtin is found from anywhere
            boolean index = Paths.isIndex(parts[0]);
            long r = index || Builtin.alias(parts[0]) != 0 ? paths.lookup(parts) : paths.lookupBelow(0, parts);
            if (r != 0 && (index || Ids.index(r) < Builtin.FIRST_USER_INDEX)) {
                return r;
            }
        }
        if (!entities.isAlive(parent)) {
            return 0;
        }
        return paths.lookupBelow(Ids.index(parent), parts);
    }

    /** The entity at {@code path} below the scope only (creation reads paths so), or 0. */
    public long lookupInScope(String[] parts) {
        return lookupFrom(scope, parts);
    }

    /** The entity at {@code path}: below the scope, then below each ancestor, then from the root; or 0. */
    public long lookup(String path) {
        if (scope == 0 || path == null || path.isEmpty()) {
            return paths.lookup(path);
        }
        String[] parts = Names.split(path);
        if (entities.isAlive(scope)) {
            for (int at = Ids.index(scope); at != 0; at = paths.parentIndex(at)) {
                long e = paths.lookupBelow(at, parts);
                if (e != 0) {
                    return e;
                }
            }
        }
        return paths.lookup(parts);
    }
}
