package dev.quiver.storage;

import dev.quiver.error.BadInputException;

/** The world directory is held by another writer (or a writer holds it while a reader opens it); the message names the holder's pid. */
public class WorldLockedException extends BadInputException {
    private static final long serialVersionUID = 1L;

    public WorldLockedException(String message) {
        super(message);
    }
}
