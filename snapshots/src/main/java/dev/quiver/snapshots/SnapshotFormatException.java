package dev.quiver.snapshots;

/**
 * An intact snapshot (its checksum verifies) of a format version this Quiver cannot read. The
 * message names both the file's version and the supported one.
 */
public class SnapshotFormatException extends SnapshotException {
    private static final long serialVersionUID = 1L;

    private final int fileVersion;
    private final int supportedVersion;

    /**
     * @param file             the snapshot file, for the message
     * @param fileVersion      the version the file declares
     * @param supportedVersion the version this build reads and writes
     */
    public SnapshotFormatException(String file, int fileVersion, int supportedVersion) {
        super("snapshot " + file + " has format version " + fileVersion + "; this Quiver reads version "
                + supportedVersion);
        this.fileVersion = fileVersion;
        this.supportedVersion = supportedVersion;
    }

    /** The format version the file declares. */
    public int fileVersion() {
        return fileVersion;
    }

    /** The format version this build reads and writes. */
    public int supportedVersion() {
        return supportedVersion;
    }
}
