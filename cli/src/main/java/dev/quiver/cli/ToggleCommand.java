package dev.quiver.cli;

import dev.quiver.storage.World;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;

/**
 * {@code quiver disable WORLD ENTITY ID} and {@code quiver enable WORLD ENTITY ID}: toggle a
 * component, tag or pair without removing it (Flecs v4 CanToggle, {@link dev.quiver.storage.Toggling#disable}).
 */
abstract class ToggleCommand extends BaseCommand {
    @Parameters(index = "0", paramLabel = "WORLD", description = "The world directory (must exist).")
    Path world;

    @Parameters(index = "1", paramLabel = "ENTITY", description = "The entity's name or path.")
    String entity;

    @Parameters(index = "2", paramLabel = "ID", description = "A component or tag with the CanToggle trait, or a pair (R, T) whose relationship R has it.")
    String id;

    abstract boolean enable();

    @Override
    public Integer call() {
        try (World w = openWriter(world)) {
            long e = w.resolve(entity);
            long c = w.id(id);
            boolean was = !w.toggling().isDisabled(e, c);
            if (enable()) {
                w.toggling().enable(e, c);
            } else {
                w.toggling().disable(e, c);
            }
            String state = enable() ? "enabled" : "disabled";
            out().println(entity + ": " + w.idToString(c) + (was == enable() ? " was already " : " ") + state);
        }
        return ExitCodes.OK;
    }

    @Command(name = "disable", header = "Disable a component, tag or pair on an entity without removing it.",
            description = {"ID must have the CanToggle trait (quiver add WORLD ID CanToggle). While disabled, "
                    + "the entity holds (Disabled, ID) in place of ID, with its value: queries for ID skip the "
                    + "entity, and show lists (Disabled, ID). A pair (R, T) needs CanToggle on R: while disabled, "
                    + "queries for (R, T), (R, *) and (R, $x) skip it, targets and sources leave it out, and show "
                    + "lists (R, T) marked (disabled). An ID without CanToggle, a wildcard pair, a pair of a "
                    + "DontFragment relationship, or an ID the entity does not own is refused (exit 2) and nothing "
                    + "changes.",
                "Example: quiver add w Visible CanToggle; quiver add w ship Visible; quiver disable w ship Visible",
                "Example: quiver add w Likes CanToggle; quiver add w bob \"(Likes, alice)\"; "
                    + "quiver disable w bob \"(Likes, alice)\""})
    static final class Disable extends ToggleCommand {
        @Override
        boolean enable() {
            return false;
        }
    }

    @Command(name = "enable", header = "Enable a component, tag or pair disabled with quiver disable.",
            description = "Puts ID back on ENTITY with the value it had. Refused (exit 2, nothing changes) like "
                    + "disable.")
    static final class Enable extends ToggleCommand {
        @Override
        boolean enable() {
            return true;
        }
    }
}
