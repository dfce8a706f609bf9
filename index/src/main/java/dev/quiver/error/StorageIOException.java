package dev.quiver.error;

/**
 * The operating system refused an I/O operation on a world or an output file (disk full,
 * permission denied, a failed fsync). A transaction that fails this way is not committed: the world
 * reopens as it was before it. The CLI exits with code 1.
 */
public class StorageIOException extends QuiverException {
    private static final long serialVersionUID = 1L;

    public StorageIOException(String message) {
        super(message);
    }

    public StorageIOException(String message, Throwable cause) {
        super(message, cause);
    }
}
