package dev.quiver.storage;

/**
 * A name already taken where names must be unique: among the children of one parent
 * (FEATURES ENT-06), by a rename, a reparent or unparenting a named entity. Nothing changed.
 */
public class NameTakenException extends ConstraintException {
    private static final long serialVersionUID = 1L;

    public NameTakenException(String message) {
        super(message);
    }
}
