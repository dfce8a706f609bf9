package dev.quiver.cli;

import dev.quiver.snapshots.SnapshotInfo;
import dev.quiver.snapshots.Snapshots;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;

/** {@code quiver restore FILE WORLD}: restores a snapshot into a new world. */
@Command(name = "restore", header = "Restore a snapshot into a new world.",
        description = "Verifies FILE completely (format, version, checksum) and then restores it into "
                + "WORLD, which must not exist or be an empty directory. A corrupt or truncated snapshot, "
                + "or one of another format version, is refused before anything is created (exit 2).")
final class RestoreCommand extends BaseCommand {
    @Parameters(index = "0", paramLabel = "FILE", description = "The snapshot file.")
    Path file;

    @Parameters(index = "1", paramLabel = "WORLD", description = "The new world directory.")
    Path world;

    @Override
    public Integer call() {
        long start = System.nanoTime();
        SnapshotInfo info = Snapshots.restore(file, world);
        out().println("restored " + info.pages() + " pages from " + file + " into " + world + " in " + millisSince(start));
        return ExitCodes.OK;
    }
}
