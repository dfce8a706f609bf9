package dev.quiver.storage;

/**
 * A set refused by the {@link Validator} of its component or relationship (Tecs {@code init}
 * failing, FEATURES TEC-06), or a {@link RelationshipSpec} that cannot be defined (a validator or
 * defaults without fields). Nothing changed.
 */
public class ValidationException extends ValueException {
    private static final long serialVersionUID = 1L;

    public ValidationException(String message) {
        super(message);
    }
}
