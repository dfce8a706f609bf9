package dev.quiver.storage;

import dev.quiver.error.BadInputException;

/** A mutation on a world opened read-only. */
public class ReadOnlyException extends BadInputException {
    private static final long serialVersionUID = 1L;

    public ReadOnlyException(String message) {
        super(message);
    }
}
