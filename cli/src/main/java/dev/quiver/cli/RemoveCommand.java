package dev.quiver.cli;

import dev.quiver.storage.World;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code quiver remove WORLD ENTITY ID...}: removes tags, components and pairs. */
@Command(name = "remove", header = "Remove tags, components and pairs from an entity.",
        description = "Removes each ID from ENTITY in one transaction. ENTITY and every name must exist; "
                + "an ID the entity does not have is left alone. \"(R, *)\" removes every pair of R.")
final class RemoveCommand extends BaseCommand {
    @Mixin
    ScopeOption scope = new ScopeOption();

    @Parameters(index = "0", paramLabel = "WORLD", description = "The world directory (must exist).")
    Path world;

    @Parameters(index = "1", arity = "0..1", paramLabel = "ENTITY", description = "The entity's name or path.")
    String entity;

    @Parameters(index = "2..*", arity = "0..*", paramLabel = "ID", description = "Names or pairs \"(R, T)\".")
    List<String> ids = new ArrayList<>();

    @Option(names = "--all", paramLabel = "ID", description = "Instead of ENTITY and IDs: remove ID (a name or pair "
            + "\"(R, T)\", * and _ allowed) from every entity holding it, in one transaction.")
    String all;

    @Override
    public Integer call() {
        if (all != null) {
            if (entity != null) {
                throw new CliInputException("--all takes no ENTITY or IDs");
            }
            try (World w = openWriter(world)) {
                scope.apply(w);
                long id = w.id(all);
                int holders = w.removeAll(id); // sparse and disabled pairs too (FEATURES TRT-16, CanToggle)
                out().println("removed " + all + " from " + holders + " entities");
            }
            return ExitCodes.OK;
        }
        if (entity == null || ids.isEmpty()) {
            throw new CliInputException("give ENTITY and at least one ID, or --all ID");
        }
        try (World w = openWriter(world)) {
            scope.apply(w);
            List<String> removed = new ArrayList<>();
            w.transaction(tx -> {
                long e = tx.resolve(entity);
                for (String text : ids) {
                    long id = tx.id(text);
                    long[] had = tx.type(e);
                    tx.remove(e, id); // an id held disabled goes too (Flecs v4 CanToggle)
                    if (!java.util.Arrays.equals(had, tx.type(e))) {
                        removed.add(tx.idToString(id));
                    }
                }
            });
            out().println(entity + ": removed "
                    + (removed.isEmpty() ? "nothing (it had none of these ids)" : String.join(" ", removed)));
        }
        return ExitCodes.OK;
    }
}
