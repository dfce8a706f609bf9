package dev.quiver.storage;

import dev.quiver.error.BadInputException;

/**
 * The world directory is held by another writer (or a writer holds it while a reader opens it, or
 * readers hold it while the writer or a recovery needs it); the message names the live holders' pids,
 * the writer and the readers told apart.
 */
public class WorldLockedException extends BadInputException {
    private static final long serialVersionUID = 1L;

    public WorldLockedException(String message) {
        super(message);
    }
}
