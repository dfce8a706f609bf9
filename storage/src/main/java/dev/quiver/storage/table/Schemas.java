package dev.quiver.storage.table;

import dev.quiver.index.Ids;
import dev.quiver.storage.Schema;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntSet;

import java.util.function.IntPredicate;

/**
 * The component registry: the schema of each component entity, and the data an id carries (Flecs
 * v4 pair type rules: a pair carries the relationship's schema if it has one, else the target's,
 * unless the relationship is PairIsTag). Not thread-safe.
 */
public final class Schemas {
    private final Int2ObjectOpenHashMap<Schema> byIndex = new Int2ObjectOpenHashMap<>();
    private final IntPredicate pairIsTag;

    /** @param pairIsTag true for a relationship entity index that has the PairIsTag trait */
    public Schemas(IntPredicate pairIsTag) {
        this.pairIsTag = pairIsTag;
    }

    /** The schema of component entity {@code index}, or null. */
    public Schema get(int index) {
        return byIndex.get(index);
    }

    public void put(int index, Schema schema) {
        byIndex.put(index, schema);
    }

    /** Removes the schema of entity {@code index}; true when it had one. */
    public boolean remove(int index) {
        return byIndex.remove(index) != null;
    }

    /** The component entity indices that have a schema. */
    public IntSet indices() {
        return byIndex.keySet();
    }

    public int size() {
        return byIndex.size();
    }

    public void clear() {
        byIndex.clear();
    }

    /**
     * The schema of the data an id carries, or null for a tag: a component's own schema; for a
     * pair the relationship's schema if it has one, else the target's, unless the relationship is
     * PairIsTag.
     */
    public Schema of(long id) {
        if (!Ids.isPair(id)) {
            return byIndex.get(Ids.index(id));
        }
        int rel = Ids.first(id);
        if (pairIsTag.test(rel)) {
            return null;
        }
        return dataOf(id);
    }

    /** Like {@link #of} without the trait check: the schema a persisted column of {@code id} holds. */
    public Schema dataOf(long id) {
        if (!Ids.isPair(id)) {
            return byIndex.get(Ids.index(id));
        }
        Schema s = byIndex.get(Ids.first(id));
        return s != null ? s : byIndex.get(Ids.second(id));
    }
}
