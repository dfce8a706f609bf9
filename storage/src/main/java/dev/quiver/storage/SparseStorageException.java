package dev.quiver.storage;

/**
 * A request that non-fragmenting ("sparse") pair storage (FEATURES TRT-16, Flecs v4.1
 * DontFragment) does not support: a sparse relationship whose pairs would carry data, or
 * DontFragment on a builtin relationship (ChildOf and IsA keep one table per target, like Flecs
 * keeps IsA). Nothing changed.
 */
public class SparseStorageException extends ConstraintException {
    private static final long serialVersionUID = 1L;

    public SparseStorageException(String message) {
        super(message);
    }
}
