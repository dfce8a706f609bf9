package dev.quiver.cli;

import dev.quiver.storage.World;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;

/** {@code quiver delete WORLD ENTITY}: deletes an entity with its cleanup policies. */
@Command(name = "delete", header = "Delete an entity.",
        description = "Deletes ENTITY and applies every cleanup policy it reaches ((OnDelete, ...) and "
                + "(OnDeleteTarget, ...); Remove by default) as one transaction. A Panic policy refuses the "
                + "delete and changes nothing (exit 2).")
final class DeleteCommand extends BaseCommand {
    @Parameters(index = "0", paramLabel = "WORLD", description = "The world directory (must exist).")
    Path world;

    @Parameters(index = "1", paramLabel = "ENTITY", description = "The entity's name or path.")
    String entity;

    @Override
    public Integer call() {
        try (World w = openWriter(world)) {
            int before = w.entityCount();
            w.delete(w.resolve(entity));
            int gone = before - w.entityCount();
            out().println("deleted " + entity + (gone > 1 ? " and " + (gone - 1) + " more by cleanup" : ""));
        }
        return ExitCodes.OK;
    }
}
