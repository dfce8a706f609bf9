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
                + "stderr otherwise. Warnings follow the ok line on stdout as 'warning: ...' lines and keep exit 0: "
                + "each cycle in a user relationship (ChildOf and IsA refuse cycles, user relationships "
                + "accept them as in Flecs; Symmetric ones are left out), named as 'cycle in R: a -> b -> a'. "
                + "Opens the world read-only.")
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
            List<String> warnings = w.warnings();
            out().println("ok: " + w.directory() + ": " + w.entityCount() + " entities, every invariant holds"
                    + (warnings.isEmpty() ? "" : " (" + warnings.size() + (warnings.size() == 1 ? " warning)" : " warnings)")));
            for (String warning : warnings) {
                out().println("warning: " + Errors.oneLine(warning));
            }
        }
        return ExitCodes.OK;
    }
}
