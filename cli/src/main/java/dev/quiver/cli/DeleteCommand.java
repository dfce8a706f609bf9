package dev.quiver.cli;

import dev.quiver.storage.World;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;

/** {@code quiver delete WORLD (ENTITY | --with ID)}: deletes an entity, or every holder of an id, with cleanup. */
@Command(name = "delete", header = "Delete an entity.",
        description = "Deletes ENTITY and applies every cleanup policy it reaches ((OnDelete, ...) and "
                + "(OnDeleteTarget, ...); Remove by default) as one transaction. A Panic policy refuses the "
                + "delete and changes nothing (exit 2).")
final class DeleteCommand extends BaseCommand {
    @Parameters(index = "0", paramLabel = "WORLD", description = "The world directory (must exist).")
    Path world;

    @Parameters(index = "1", arity = "0..1", paramLabel = "ENTITY", description = "The entity's name or path.")
    String entity;

    @Option(names = "--with", paramLabel = "ID", description = "Instead of ENTITY: delete every entity holding ID "
            + "(a name or pair \"(R, T)\", * and _ allowed), in one transaction.")
    String with;

    @Override
    public Integer call() {
        if ((entity == null) == (with == null)) {
            throw new CliInputException("give an ENTITY or --with ID, not both");
        }
        try (World w = openWriter(world)) {
            int before = w.entityCount();
            if (with != null) {
                w.deleteWith(w.id(with));
                out().println("deleted " + (before - w.entityCount()) + " entities (holders of " + with
                        + " and what cleanup took with them)");
                return ExitCodes.OK;
            }
            w.delete(w.resolve(entity));
            int gone = before - w.entityCount();
            out().println("deleted " + entity + (gone > 1 ? " and " + (gone - 1) + " more by cleanup" : ""));
        }
        return ExitCodes.OK;
    }
}
