package dev.quiver.storage;

/**
 * An add refused because it would close a cycle in an Acyclic relationship Quiver enforces (ChildOf
 * and IsA, FEATURES TRT-04): the message names the cycle, for example
 * {@code a -> b -> a}. Nothing changed.
 */
public class CycleException extends ConstraintException {
    private static final long serialVersionUID = 1L;

    public CycleException(String message) {
        super(message);
    }
}
