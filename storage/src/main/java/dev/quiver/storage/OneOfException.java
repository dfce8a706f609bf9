package dev.quiver.storage;

/**
 * A pair of a OneOf relationship whose target is not a child of the relationship's scope
 * (Flecs v4 OneOf: {@code R} with the OneOf tag takes its own children as targets,
 * {@code (OneOf, P)} the children of P). Nothing changed.
 */
public class OneOfException extends ConstraintException {
    private static final long serialVersionUID = 1L;

    public OneOfException(String message) {
        super(message);
    }
}
