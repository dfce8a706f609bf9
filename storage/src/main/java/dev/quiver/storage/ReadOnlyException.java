package dev.quiver.storage;

import dev.quiver.index.QuiverException;

/** A mutation on a world opened read-only. */
public class ReadOnlyException extends QuiverException {
    private static final long serialVersionUID = 1L;

    public ReadOnlyException(String message) {
        super(message);
    }
}
