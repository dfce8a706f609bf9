package dev.quiver.storage;

import dev.quiver.index.QuiverException;

/** The world directory is held by another writer (or a writer holds it while a reader opens it); the message names the holder's pid. */
public class WorldLockedException extends QuiverException {
    private static final long serialVersionUID = 1L;

    public WorldLockedException(String message) {
        super(message);
    }
}
