package dev.quiver.error;

/**
 * Base of every exception Quiver throws on purpose. It is abstract: each failure belongs to one of
 * the three kinds of this package ({@link BadInputException}, {@link StorageIOException},
 * {@link CorruptionException}), so callers can tell a mistake of theirs from a failing disk.
 */
public abstract class QuiverException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    protected QuiverException(String message) {
        super(message);
    }

    protected QuiverException(String message, Throwable cause) {
        super(message, cause);
    }
}
