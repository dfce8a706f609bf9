package dev.quiver.cli;

import dev.quiver.storage.World;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;

/** {@code quiver rename WORLD ENTITY NAME}: gives an entity a new name under its parent. */
@Command(name = "rename", header = "Rename an entity.",
        description = "Gives ENTITY the name NAME under its parent; its path, its children's paths and the "
                + "name index follow. To move an entity under another parent, add (ChildOf, PARENT): ChildOf is "
                + "Exclusive, so it replaces the old parent. A sibling with that name, a malformed name or a "
                + "builtin is refused (exit 2) and nothing changes.")
final class RenameCommand extends BaseCommand {
    @Parameters(index = "0", paramLabel = "WORLD", description = "The world directory (must exist).")
    Path world;

    @Parameters(index = "1", paramLabel = "ENTITY", description = "The entity's name or path.")
    String entity;

    @Parameters(index = "2", paramLabel = "NAME", description = "The new name (A-Z a-z 0-9 _ -, not all digits).")
    String name;

    @Override
    public Integer call() {
        try (World w = openWriter(world)) {
            long e = w.resolve(entity);
            w.rename(e, name);
            out().println(entity + ": renamed to " + w.path(e));
        }
        return ExitCodes.OK;
    }
}
