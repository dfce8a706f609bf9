package dev.quiver.storage;

import dev.quiver.index.QuiverException;

/** A name or path that resolves to no entity (CLI exit 2). */
public class UnknownNameException extends QuiverException {
    private static final long serialVersionUID = 1L;

    public UnknownNameException(String message) {
        super(message);
    }
}
