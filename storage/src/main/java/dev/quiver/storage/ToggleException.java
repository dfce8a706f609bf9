package dev.quiver.storage;

/**
 * A toggle refused (Flecs v4 CanToggle): disabling or enabling an id that lacks the
 * {@code CanToggle} trait (for a pair: its relationship), a wildcard pair, a companion pair
 * {@code (R~, T)} named directly, or an id the entity does not own; adding {@code C} or
 * {@code (R, T)} while it is disabled on the entity, or adding {@code (Disabled, C)} or
 * {@code (R~, T)} by hand for an id without CanToggle or one the entity holds enabled. Nothing changed.
 */
public class ToggleException extends ConstraintException {
    private static final long serialVersionUID = 1L;

    public ToggleException(String message) {
        super(message);
    }
}
