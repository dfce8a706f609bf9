package dev.quiver.storage;

import dev.quiver.error.BadInputException;

/** A malformed id: a pair inside a pair, a wildcard where a concrete id is needed, an index out of range. */
public class IdException extends BadInputException {
    private static final long serialVersionUID = 1L;

    public IdException(String message) {
        super(message);
    }
}
