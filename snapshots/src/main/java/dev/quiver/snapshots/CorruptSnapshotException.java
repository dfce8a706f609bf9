package dev.quiver.snapshots;

/**
 * A snapshot file is not a Quiver snapshot, is truncated, has trailing bytes, a malformed record,
 * or a checksum that does not match its contents. Thrown before anything is restored.
 */
public class CorruptSnapshotException extends SnapshotException {
    private static final long serialVersionUID = 1L;

    /** @param message names the file and what is wrong with it, with the byte offset where known */
    public CorruptSnapshotException(String message) {
        super(message);
    }
}
