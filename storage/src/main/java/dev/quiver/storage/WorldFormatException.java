package dev.quiver.storage;

import dev.quiver.error.BadInputException;

/** The world was written in another format version than this build reads; the message names both (CLI exit 2). */
public class WorldFormatException extends BadInputException {
    private static final long serialVersionUID = 1L;

    public WorldFormatException(String message) {
        super(message);
    }
}
