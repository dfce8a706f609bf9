package dev.quiver.cli;

import dev.quiver.storage.World;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.List;

/** {@code quiver check WORLD}: verifies every invariant. */
@Command(name = "check", header = "Verify every invariant of a world.",
        description = "Checks that the component index, reverse index and name index agree with the "
                + "tables, that no pair, index entry or name points at a dead entity, and that the files "
                + "hold what the world holds. Exit 0 when all hold; exit 1 with the first violation on "
                + "stderr otherwise. Opens the world read-only.")
final class CheckCommand extends BaseCommand {
    @Parameters(index = "0", paramLabel = "WORLD", description = "The world directory (must exist).")
    Path world;

    @Override
    public Integer call() {
        try (World w = openReader(world)) {
            List<String> violations = w.check();
            if (!violations.isEmpty()) {
                String more = violations.size() > 1 ? " (" + (violations.size() - 1) + " more)" : "";
                err().println("quiver: check failed: " + Errors.oneLine(violations.get(0)) + more);
                return ExitCodes.FAILURE;
            }
            out().println("ok: " + w.directory() + ": " + w.entityCount() + " entities, every invariant holds");
        }
        return ExitCodes.OK;
    }
}
