package dev.quiver.storage;

/**
 * An {@code (IsA, F)} refused because F is Final (Flecs v4 Final, FEATURES TRT-12 and ISA-09):
 * nothing may inherit from a Final entity. Nothing changed.
 */
public class FinalException extends ConstraintException {
    private static final long serialVersionUID = 1L;

    public FinalException(String message) {
        super(message);
    }
}
