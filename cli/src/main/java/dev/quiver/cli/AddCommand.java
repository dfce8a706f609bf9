package dev.quiver.cli;

import dev.quiver.storage.World;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code quiver add WORLD ENTITY ID...}: adds tags and pairs, creating named entities. */
@Command(name = "add", header = "Add tags and pairs to an entity.",
        description = {"Adds each ID to ENTITY in one transaction. An ID is a name or path (a tag or "
                + "component) or a pair \"(Relationship, Target)\". ENTITY and every named entity an ID "
                + "mentions are created when missing.",
            "Example: quiver add w KindOf Transitive; quiver add w dog \"(KindOf, animal)\""})
final class AddCommand extends BaseCommand {
    @Mixin
    ScopeOption scope = new ScopeOption();

    @Parameters(index = "0", paramLabel = "WORLD", description = "The world directory (must exist).")
    Path world;

    @Parameters(index = "1", paramLabel = "ENTITY", description = "The entity's name or path.")
    String entity;

    @Parameters(index = "2..*", arity = "1..*", paramLabel = "ID", description = "Names or pairs \"(R, T)\".")
    List<String> ids;

    @Override
    public Integer call() {
        try (World w = openWriter(world)) {
            scope.apply(w);
            List<String> added = new ArrayList<>();
            w.transaction(tx -> {
                long e = tx.entity(entity);
                for (String text : ids) {
                    long id = tx.ensureId(text);
                    boolean had = tx.owns(e, id);
                    tx.add(e, id);
                    if (!had) {
                        added.add(tx.idToString(id));
                    }
                }
            });
            out().println(entity + ": added " + (added.isEmpty() ? "nothing (it had every id)" : String.join(" ", added)));
        }
        return ExitCodes.OK;
    }
}
