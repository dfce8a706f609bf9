package dev.quiver.cli;

import dev.quiver.storage.World;
import dev.quiver.storage.RelationshipWalks;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;

/** {@code quiver targets WORLD ENTITY RELATIONSHIP}: the targets of an entity's pairs of a relationship. */
@Command(name = "targets", header = "List the targets T of ENTITY's pairs (RELATIONSHIP, T).",
        description = "Prints the path of every target T of the pairs (RELATIONSHIP, T) that ENTITY owns, one "
                + "per line, in id order. Only pairs the entity owns: for targets reached through a "
                + "Transitive relationship or through IsA, use 'quiver query WORLD \"RELATIONSHIP(ENTITY, $t)\"'. With --up: the chain of ancestors (Tecs walkUp): "
                + "at each level the first target, printed as DEPTH<TAB>PATH from depth 1.")
final class TargetsCommand extends BaseCommand {
    @Parameters(index = "0", paramLabel = "WORLD", description = "The world directory (must exist).")
    Path world;

    @Parameters(index = "1", paramLabel = "ENTITY", description = "The source entity's name or path.")
    String entity;

    @Parameters(index = "2", paramLabel = "RELATIONSHIP", description = "The relationship's name or path.")
    String relationship;

    @Option(names = "--up", description = "Walk up: the first target, then its first target, and so on (Tecs walkUp).")
    boolean up;

    @Option(names = "--max-depth", paramLabel = "N", defaultValue = "100",
            description = "With --up: the deepest level (default ${DEFAULT-VALUE}); a deeper chain (a cycle?) is an error.")
    int maxDepth;

    @Override
    public Integer call() {
        try (World w = openReader(world)) {
            long e = w.resolve(entity);
            long r = w.resolve(relationship);
            if (up) {
                RelationshipWalks.walkUp(w, e, r, (t, depth) -> {
                    out().println(depth + "\t" + w.path(t));
                    return true;
                }, maxDepth);
                return ExitCodes.OK;
            }
            for (long t : w.targets(e, r)) {
                out().println(w.path(t));
            }
        }
        return ExitCodes.OK;
    }
}
