package dev.quiver.cli;

import dev.quiver.storage.World;
import dev.quiver.storage.WorldStats;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.lang.reflect.RecordComponent;
import java.nio.file.Path;

/** {@code quiver stats WORLD}: prints the world's counts. */
@Command(name = "stats", header = "Print a world's counts.",
        description = "Prints the counts of a world (entities, tables, pairs, ids, components, bytes on disk), "
                + "one 'name: value' per line. Opens the world read-only.")
final class StatsCommand extends BaseCommand {
    @Parameters(index = "0", paramLabel = "WORLD", description = "The world directory (must exist).")
    Path world;

    @Override
    public Integer call() throws ReflectiveOperationException {
        try (World w = openReader(world)) {
            WorldStats stats = w.stats();
            out().println("world: " + w.directory());
            for (RecordComponent rc : WorldStats.class.getRecordComponents()) {
                out().println(label(rc.getName()) + ": " + rc.getAccessor().invoke(stats));
            }
        }
        return ExitCodes.OK;
    }

    /** {@code bytesOnDisk} becomes {@code bytes on disk}. */
    static String label(String camel) {
        return camel.replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(java.util.Locale.ROOT);
    }
}
