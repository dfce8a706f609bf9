package dev.quiver.storage;

import dev.quiver.error.BadInputException;

/** A world cannot be created or restored at a path that is a file or a non-empty directory (CLI exit 2). */
public class WorldExistsException extends BadInputException {
    private static final long serialVersionUID = 1L;

    public WorldExistsException(String message) {
        super(message);
    }
}
