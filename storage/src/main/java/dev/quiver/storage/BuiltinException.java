package dev.quiver.storage;

/**
 * A change a user asked for on a builtin entity: adding to or removing from its type,
 * renaming it, or making a wildcard ({@code *}, {@code _}) hold an id (Flecs v4 builtins,
 * FEATURES ID-10: their traits and policies define the model). Nothing changed.
 */
public class BuiltinException extends ConstraintException {
    private static final long serialVersionUID = 1L;

    public BuiltinException(String message) {
        super(message);
    }
}
