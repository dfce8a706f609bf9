package dev.quiver.storage;

import dev.quiver.error.BadInputException;

/** An entity id that is not alive (deleted, or a stale generation). */
public class DeadEntityException extends BadInputException {
    private static final long serialVersionUID = 1L;

    public DeadEntityException(String message) {
        super(message);
    }
}
