package dev.quiver.cli;

import dev.quiver.storage.World;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import dev.quiver.storage.RelationshipWalks;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;

/** {@code quiver sources WORLD RELATIONSHIP TARGET}: the entities owning a pair, through the reverse index. */
@Command(name = "sources", header = "List the entities that own the pair (RELATIONSHIP, TARGET).",
        description = "Prints the path of every entity that owns (RELATIONSHIP, TARGET), one per line, sorted. "
                + "Read from the reverse index, so it costs the number of sources, not the size of the world. "
                + "Only pairs the entities own: for sources through a Transitive relationship, use "
                + "'quiver query WORLD \"(RELATIONSHIP, TARGET)\"'. With --traverse: the whole subtree below TARGET, "
                + "depth first (Tecs traverse), printed as DEPTH<TAB>PATH, siblings in id order.")
final class SourcesCommand extends BaseCommand {
    @Parameters(index = "0", paramLabel = "WORLD", description = "The world directory (must exist).")
    Path world;

    @Parameters(index = "1", paramLabel = "RELATIONSHIP", description = "The relationship's name or path.")
    String relationship;

    @Parameters(index = "2", paramLabel = "TARGET", description = "The target entity's name or path.")
    String target;

    @Option(names = "--traverse", description = "The whole subtree below TARGET, depth first (Tecs traverse).")
    boolean traverse;

    @Option(names = "--max-depth", paramLabel = "N", defaultValue = "100",
            description = "With --traverse: the deepest level (default ${DEFAULT-VALUE}); a deeper subtree (a cycle?) is an error.")
    int maxDepth;

    @Override
    public Integer call() {
        try (World w = openReader(world)) {
            long r = w.resolve(relationship);
            long t = w.resolve(target);
            if (traverse) {
                RelationshipWalks.traverse(w, t, r, (s, depth) -> {
                    out().println(depth + "\t" + w.path(s));
                    return true;
                }, maxDepth);
                return ExitCodes.OK;
            }
            var sources = new LongArrayList();
            w.forEachSource(r, t, sources::add);
            var paths = new ArrayList<String>(sources.size());
            for (int i = 0; i < sources.size(); i++) {
                paths.add(w.path(sources.getLong(i)));
            }
            Collections.sort(paths);
            for (String p : paths) {
                out().println(p);
            }
        }
        return ExitCodes.OK;
    }
}
