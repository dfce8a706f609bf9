package dev.quiver.storage;

import dev.quiver.index.Ids;

import java.util.function.IntFunction;

/**
 * The in-memory name index: (parent entity index, name) to entity id (Flecs v4 entity names and
 * paths: a name is unique among the children of one parent).
 *
 * <p>One open-addressing table (linear probing, at most 3/4 full, backward-shift deletion) whose
 * slots hold the entity id and its parent index. The key's name is not stored but read from the
 * entity (the {@code names} lookup given to the constructor), so the index costs 12 bytes per
 * slot and no objects. The world persists it in pages by entity index range (see
 * {@code World}), so that adding entities rewrites only the pages of the new entities. Not
 * thread-safe.
 */
final class NameIndex {
    private final IntFunction<String> names;
    /** Entity ids, 0 for an empty slot; the length is a power of two. */
    private long[] entities = new long[1024];
    private int[] parents = new int[1024];
    private int size;

    /** @param names the name of an entity index (the key's name, never stored here) */
    NameIndex(IntFunction<String> names) {
        this.names = names;
    }

    private static int hash(int parent, String name) {
        int h = (name.hashCode() * 31 + parent) * 0x9E3779B9;
        return h ^ (h >>> 16);
    }

    private boolean matches(int slot, int parent, String name) {
        return parents[slot] == parent && name.equals(names.apply(Ids.index(entities[slot])));
    }

    /** The entity id named {@code name} under {@code parent}, or 0. */
    long get(int parent, String name) {
        long[] es = entities;
        int mask = es.length - 1;
        for (int i = hash(parent, name) & mask; es[i] != 0; i = (i + 1) & mask) {
            if (matches(i, parent, name)) {
                return es[i];
            }
        }
        return 0;
    }

    /**
     * Maps (parent, name) to {@code entity}.
     *
     * @return the entity the key mapped to before (now replaced), or 0
     */
    long put(int parent, String name, long entity) {
        if ((size + 1) * 4L > entities.length * 3L) {
            resize(entities.length * 2);
        }
        long[] es = entities;
        int mask = es.length - 1;
        int i = hash(parent, name) & mask;
        for (; es[i] != 0; i = (i + 1) & mask) {
            if (matches(i, parent, name)) {
                long old = es[i];
                es[i] = entity;
                return old;
            }
        }
        es[i] = entity;
        parents[i] = parent;
        size++;
        return 0;
    }

    /**
     * Removes the key.
     *
     * @return the entity it mapped to, or 0 when it was absent
     */
    long remove(int parent, String name) {
        long[] es = entities;
        int[] ps = parents;
        int mask = es.length - 1;
        int i = hash(parent, name) & mask;
        while (es[i] != 0 && !matches(i, parent, name)) {
            i = (i + 1) & mask;
        }
        long removed = es[i];
        if (removed == 0) {
            return 0;
        }
        // backward-shift deletion keeps every probe chain unbroken without tombstones
        int gap = i;
        for (int j = (gap + 1) & mask; es[j] != 0; j = (j + 1) & mask) {
            int home = hash(ps[j], names.apply(Ids.index(es[j]))) & mask;
            if (((j - home) & mask) >= ((j - gap) & mask)) {
                es[gap] = es[j];
                ps[gap] = ps[j];
                gap = j;
            }
        }
        es[gap] = 0;
        ps[gap] = 0;
        size--;
        return removed;
    }

    private void resize(int capacity) {
        long[] oldE = entities;
        int[] oldP = parents;
        long[] es = new long[capacity];
        int[] ps = new int[capacity];
        int mask = capacity - 1;
        for (int k = 0; k < oldE.length; k++) {
            if (oldE[k] != 0) {
                int i = hash(oldP[k], names.apply(Ids.index(oldE[k]))) & mask;
                while (es[i] != 0) {
                    i = (i + 1) & mask;
                }
                es[i] = oldE[k];
                ps[i] = oldP[k];
            }
        }
        entities = es;
        parents = ps;
    }

    /** Number of names. */
    int size() {
        return size;
    }

    /** Every entry: (parent index, entity id), in no particular order. */
    void forEach(EntryVisitor visitor) {
        long[] es = entities;
        for (int i = 0; i < es.length; i++) {
            if (es[i] != 0) {
                visitor.visit(parents[i], es[i]);
            }
        }
    }

    @FunctionalInterface
    interface EntryVisitor {
        void visit(int parent, long entity);
    }
}
