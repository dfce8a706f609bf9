package dev.quiver.snapshots;

import dev.quiver.error.BadInputException;

/**
 * A snapshot cannot be written or restored: the file is unreadable, the restore target is not an
 * empty directory, or (through the subclasses) the file is corrupt or of another format version.
 * Every snapshot error leaves the world and the file system as they were.
 */
public class SnapshotException extends BadInputException {
    private static final long serialVersionUID = 1L;

    /** @param message the one-line message the CLI prints */
    public SnapshotException(String message) {
        super(message);
    }

    /**
     * @param message the one-line message the CLI prints
     * @param cause   the underlying failure
     */
    public SnapshotException(String message, Throwable cause) {
        super(message, cause);
    }
}
