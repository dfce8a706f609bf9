package dev.quiver.storage;

/**
 * A component with the {@code Singleton} trait added to an entity other than its own (Flecs v4
 * Singleton: the component lives on its own entity only, FEATURES TRT Singleton). Nothing changed.
 */
public class SingletonException extends ConstraintException {
    private static final long serialVersionUID = 1L;

    public SingletonException(String message) {
        super(message);
    }
}
