package dev.quiver.storage;

import dev.quiver.error.BadInputException;

/** A component value that does not fit the component's schema (wrong field, wrong type). */
public class ValueException extends BadInputException {
    private static final long serialVersionUID = 1L;

    public ValueException(String message) {
        super(message);
    }
}
