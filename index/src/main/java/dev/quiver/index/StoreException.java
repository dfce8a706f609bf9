package dev.quiver.index;

/** A persistent file is missing, unreadable, corrupt, or of another format version. */
public class StoreException extends QuiverException {
    private static final long serialVersionUID = 1L;

    public StoreException(String message) {
        super(message);
    }

    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
