package dev.quiver.storage;

/**
 * A toggle refused (Flecs v4 CanToggle): disabling or enabling an id that lacks the
 * {@code CanToggle} trait, a pair, or an id the entity does not own; adding {@code C} while it is
 * disabled on the entity, or adding {@code (Disabled, C)} by hand for an id without CanToggle. Nothing changed.
 */
public class ToggleException extends ConstraintException {
    private static final long serialVersionUID = 1L;

    public ToggleException(String message) {
        super(message);
    }
}
