package dev.quiver.storage;

import dev.quiver.error.BadInputException;

/** No world at the given directory (no FORMAT file): it was never created, or the path is wrong (CLI exit 2). */
public class NoWorldException extends BadInputException {
    private static final long serialVersionUID = 1L;

    public NoWorldException(String message) {
        super(message);
    }
}
