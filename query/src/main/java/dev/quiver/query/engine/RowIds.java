package dev.quiver.query.engine;

import dev.quiver.index.Ids;

/**
 * The ids of a batch's rows for a field whose id differs by row (a wildcard pair term over a
 * non-fragmenting relationship R, {@link Bindings#fieldRowIds}): row {@code i}'s id is the pair
 * {@code (R, targets[from + i])}. The pairs are made when read, not for every row up front: a
 * table-at-a-time walk over R's marker table (RG-1 {@code (LocatedIn, *|self)}) hands out a
 * million rows in one batch, and filling a million-entry id array nobody reads was a quarter of
 * that iteration. Immutable (the engine never writes the target array after handing it out).
 */
public final class RowIds {
    private final int relationship;
    private final int[] targets;
    private final int from;
    private final int count;
    private long[] array;

    /**
     * @param relationship the entity index of R
     * @param targets      target entity indices; entries {@code from} to {@code from + count - 1} are the rows'
     * @param from         the batch's first entry
     * @param count        rows in the batch
     */
    RowIds(int relationship, int[] targets, int from, int count) {
        this.relationship = relationship;
        this.targets = targets;
        this.from = from;
        this.count = count;
    }

    /** Number of rows. */
    public int count() {
        return count;
    }

    /** The id of row {@code i} (0 to {@link #count()} - 1). */
    public long id(int i) {
        return Ids.pairOfIndices(relationship, targets[from + java.util.Objects.checkIndex(i, count)]);
    }

    /** The ids of all rows, entry {@code i} for row {@code i}: made on the first call and shared after (do not modify it). */
    public long[] toArray() {
        long[] a = array;
        if (a == null) {
            a = new long[count];
            for (int i = 0; i < count; i++) {
                a[i] = Ids.pairOfIndices(relationship, targets[from + i]);
            }
            array = a;
        }
        return a;
    }
}
