package dev.quiver.query.iter;

/**
 * The world was written while a pull iteration ({@link QueryIterator}, {@code Query.stream()}) or a
 * {@link TableResult} kept from it was still in use: the tables and rows it points at may have
 * moved, so it refuses to go on rather than read a stale row (the fail-fast rule of Java's
 * collection iterators). Finish or close the iteration before writing, or collect the changes and
 * apply them afterwards.
 */
public class WorldChangedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public WorldChangedException(String message) {
        super(message);
    }
}
