package dev.quiver.storage;

/**
 * Counts describing a world.
 *
 * @param entities     alive entities, builtins and toggle companions excluded
 * @param tables       archetype tables (empty ones included)
 * @param nonEmptyTables tables with at least one row
 * @param pairs        pair ids held by all entities together
 * @param ids          component-index records (distinct ids, wildcard records included)
 * @param components   components with a schema
 * @param bytesOnDisk  sum of the world directory's file sizes, in bytes (Chronicle files are sparse,
 *                     so allocated blocks may be fewer)
 * @param sparseRelationships relationships whose pairs are stored without fragmenting (FEATURES
 *                     TRT-16: DontFragment, Union, or switched automatically), with pairs held
 * @param sparsePairs  the pairs of those relationships (included in {@code pairs})
 */
public record WorldStats(long entities, long tables, long nonEmptyTables, long pairs, long ids, long components,
                         long bytesOnDisk, long sparseRelationships, long sparsePairs) {
    @Override
    public String toString() {
        return "entities " + entities + "\ntables " + tables + " (" + nonEmptyTables + " non-empty)\npairs " + pairs
                + "\nids " + ids + "\ncomponents " + components + "\nbytes on disk " + bytesOnDisk
                + "\nsparse relationships " + sparseRelationships + " (" + sparsePairs + " pairs)";
    }
}
