package dev.quiver.cli;

import dev.quiver.snapshots.SnapshotInfo;
import dev.quiver.snapshots.Snapshots;
import dev.quiver.storage.World;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;

/** {@code quiver snapshot WORLD FILE}: writes a snapshot file. */
@Command(name = "snapshot", header = "Write a snapshot of a world to one file.",
        description = "Writes the committed state of WORLD to FILE, a single checksummed file (replaced "
                + "atomically if it exists). Opens the world read-only. Restore it with 'quiver restore'.")
final class SnapshotCommand extends BaseCommand {
    @Parameters(index = "0", paramLabel = "WORLD", description = "The world directory (must exist).")
    Path world;

    @Parameters(index = "1", paramLabel = "FILE", description = "The snapshot file to write.")
    Path file;

    @Override
    public Integer call() {
        long start = System.nanoTime();
        try (World w = openReader(world)) {
            SnapshotInfo info = Snapshots.write(w, file);
            out().println("snapshot " + info.file() + ": " + info.pages() + " pages, " + info.bytes() + " bytes in "
                    + millisSince(start));
        }
        return ExitCodes.OK;
    }
}
