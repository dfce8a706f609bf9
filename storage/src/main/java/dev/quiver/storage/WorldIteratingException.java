package dev.quiver.storage;

import dev.quiver.error.BadInputException;

/**
 * A write (any call that opens a transaction: add, remove, set, delete, entity creation, ...) was
 * made while a query iteration was handing results to a callback ({@link World#beginIteration}).
 * The write is refused before it changes anything, so the iteration never walks a table whose
 * rows moved under it (Flecs defers such writes to the end of the iteration; Quiver refuses them:
 * collect the changes and apply them after the iteration).
 */
public class WorldIteratingException extends BadInputException {
    private static final long serialVersionUID = 1L;

    public WorldIteratingException(String message) {
        super(message);
    }
}
