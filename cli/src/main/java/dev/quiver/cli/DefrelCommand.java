package dev.quiver.cli;

import dev.quiver.storage.RelationshipSpec;
import dev.quiver.storage.Schema;
import dev.quiver.storage.World;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code quiver defrel WORLD NAME [--exclusive] [--sparse] [--reverse-index] [--cascade-delete]
 * [--transient] [FIELD:TYPE[=DEFAULT]...]}: a Tecs relationship definition (FEATURES TEC-01),
 * through {@link RelationshipSpec}.
 */
@Command(name = "defrel", header = "Define a relationship the Tecs way (its keys as Quiver traits).",
        description = {"Creates NAME when missing and gives it, in one transaction, the traits of the Tecs keys: "
                + "--exclusive is Exclusive (a new target replaces the old), --cascade-delete is (OnDeleteTarget, "
                + "Delete) (deleting a target deletes its sources), --transient is Transient (left out of "
                + "snapshots and exports), FIELD:TYPE[=DEFAULT] are the fields and defaults (as for quiver "
                + "component). --reverse-index is accepted and changes nothing: every relationship has a reverse "
                + "index. --sparse is DontFragment (non-fragmenting storage; not with fields in this version). Tecs init (a validator) "
                + "is code: the Java library has it (World.validate). Defining again adds what is asked and "
                + "removes nothing. A refused definition (exit 2) changes nothing.",
            "Example: quiver defrel w Follows --exclusive --cascade-delete delay:f64=0.5 maxDistance:f64=100"})
final class DefrelCommand extends BaseCommand {
    @Parameters(index = "0", paramLabel = "WORLD", description = "The world directory (must exist).")
    Path world;

    @Parameters(index = "1", paramLabel = "NAME", description = "The relationship's name or path.")
    String name;

    @Parameters(index = "2..*", arity = "0..*", paramLabel = "FIELD:TYPE[=DEFAULT]",
            description = "The fields of the pair values, in order, each with an optional default.")
    List<String> fields = new ArrayList<>();

    @Option(names = "--exclusive", description = "At most one target per entity (Exclusive).")
    boolean exclusive;

    @Option(names = "--sparse", description = "Non-fragmenting storage: DontFragment (refused with fields in this version).")
    boolean sparse;

    @Option(names = "--reverse-index", description = "Accepted; every relationship has a reverse index.")
    boolean reverseIndex;

    @Option(names = "--cascade-delete", description = "Deleting a target deletes its sources ((OnDeleteTarget, Delete)).")
    boolean cascadeDelete;

    @Option(names = "--transient", description = "Pairs are left out of snapshots and exports (Transient).")
    boolean transientPairs;

    @Override
    public Integer call() {
        Schema schema = fields.isEmpty() ? null : ComponentCommand.parse(fields);
        var spec = new RelationshipSpec(name, exclusive, sparse, cascadeDelete, transientPairs, schema, null);
        try (World w = openWriter(world)) {
            long r = spec.define(w);
            StringBuilder sb = new StringBuilder("relationship ").append(w.path(r));
            for (long id : w.type(r)) {
                sb.append(' ').append(w.idToString(id));
            }
            if (schema != null) {
                sb.append(' ').append(w.schema(r));
            }
            out().println(sb);
        }
        return ExitCodes.OK;
    }
}
