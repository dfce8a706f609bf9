package dev.quiver.storage;

import dev.quiver.error.BadInputException;

/** A batch operation asked for a negative number of entities ({@link World#instantiate}). Nothing changed. */
public class BatchSizeException extends BadInputException {
    private static final long serialVersionUID = 1L;

    public BatchSizeException(String message) {
        super(message);
    }
}
