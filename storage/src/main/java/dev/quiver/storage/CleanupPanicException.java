package dev.quiver.storage;

import dev.quiver.error.BadInputException;

/** A delete reached a (OnDelete|OnDeleteTarget, Panic) policy (Flecs v4 cleanup policies); the whole transaction was refused and nothing changed. */
public class CleanupPanicException extends BadInputException {
    private static final long serialVersionUID = 1L;

    public CleanupPanicException(String message) {
        super(message);
    }
}
