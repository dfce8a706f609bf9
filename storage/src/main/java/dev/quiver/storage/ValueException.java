package dev.quiver.storage;

import dev.quiver.index.QuiverException;

/** A component value that does not fit the component's schema (wrong field, wrong type). */
public class ValueException extends QuiverException {
    private static final long serialVersionUID = 1L;

    public ValueException(String message) {
        super(message);
    }
}
