package dev.quiver.snapshots;

import java.nio.file.Path;

/**
 * What a snapshot file holds, as written, verified or restored.
 *
 * @param file  the snapshot file
 * @param pages the number of page records
 * @param bytes the size of the file, in bytes
 */
public record SnapshotInfo(Path file, long pages, long bytes) {
    @Override
    public String toString() {
        return file + ": " + pages + " pages, " + bytes + " bytes";
    }
}
