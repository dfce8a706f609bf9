package dev.quiver.storage;

import dev.quiver.error.BadInputException;

/** A name or path that resolves to no entity (CLI exit 2). */
public class UnknownNameException extends BadInputException {
    private static final long serialVersionUID = 1L;

    public UnknownNameException(String message) {
        super(message);
    }
}
