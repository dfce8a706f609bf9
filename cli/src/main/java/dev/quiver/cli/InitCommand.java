package dev.quiver.cli;

import dev.quiver.storage.World;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;

/** {@code quiver init WORLD}: creates an empty world. */
@Command(name = "init", header = "Create an empty world.",
        description = "Creates the directory WORLD (if missing) holding a new, empty world. "
                + "Fails if WORLD already holds a world or is a non-empty directory.")
final class InitCommand extends BaseCommand {
    @Parameters(index = "0", paramLabel = "WORLD", description = "The world directory.")
    Path world;

    @Override
    public Integer call() {
        if (World.exists(world)) {
            throw new CliInputException("world " + world + " already exists");
        }
        try (World w = World.create(world)) {
            out().println("created world " + w.directory());
        }
        return ExitCodes.OK;
    }
}
