package dev.quiver.storage;

import dev.quiver.error.BadInputException;

/** An add that breaks a relationship trait: a cycle in ChildOf or IsA, IsA to a Final entity (Flecs v4 Final), a OneOf target outside its scope (Flecs v4 OneOf). */
public class ConstraintException extends BadInputException {
    private static final long serialVersionUID = 1L;

    public ConstraintException(String message) {
        super(message);
    }
}
