package dev.quiver.storage.table;

/**
 * Told when a table of a {@link TableSet} appears (created, restored, read back by a rollback) or
 * disappears (dropped, taken out by a rollback, forgotten by a reload); a rollback that reads a
 * table back tells both, in that order. Cached queries keep their matched tables with it (Flecs v4
 * table events, {@code EcsOnTableCreate} / {@code EcsOnTableDelete}). Called inside the mutation:
 * a listener only reads the table's id and type, and must not change the world.
 */
public interface TableListener {
    /** Table {@code t} now exists. */
    void created(Table t);

    /** Table {@code t} no longer exists. */
    void deleted(Table t);
}
