package dev.quiver.cli;

import dev.quiver.storage.World;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** {@code quiver load WORLD FILE...}: loads TSV pair files and Flecs Script files. */
@Command(name = "load", header = "Load TSV pair files or Flecs Script files into a world.",
        description = {"Loads each FILE (lines 'subject<TAB>relationship<TAB>target', plain or gzip, an "
                + "optional header line) into WORLD, creating the world if it is missing and every name when "
                + "missing. Each file is one transaction: a malformed line is reported as file:line and "
                + "nothing of that file is loaded (files before it stay loaded).",
            "A FILE whose name ends in .flecs is a Flecs Script file (the subset of the conformance worlds: "
                + "entities, children, tags, pairs, structs and values, kinds, prefabs, IsA bases, singletons, "
                + "traits); an error is reported as file:line:column and nothing of that file is loaded.",
            "Example: quiver load w examples/wordnet/wordnet_nouns.tsv.gz"})
final class LoadCommand extends BaseCommand {
    @Parameters(index = "0", paramLabel = "WORLD", description = "The world directory (created when missing).")
    Path world;

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "FILE",
            description = "TSV pair files (.tsv, .tsv.gz) or Flecs Script files (.flecs).")
    List<Path> files;

    @Override
    public Integer call() {
        long start = System.nanoTime();
        Loads.requireReadable(files);
        boolean created = !World.exists(world);
        boolean dirExisted = Files.exists(world);
        World w = created ? World.create(world) : World.open(world);
        boolean committed = false;
        try {
            List<Long> results = Loads.load(w, files, interactive(), out(), "");
            committed = true;
            long lines = results.stream().mapToLong(Long::longValue).sum();
            boolean scripts = files.stream().allMatch(Loads::isScript);
            out().println((created ? "created " : "") + "world " + world + ": loaded " + lines
                    + (scripts ? " statements from " : " lines from ")
                    + files.size() + (files.size() == 1 ? " file" : " files") + ", " + w.entityCount()
                    + " entities, in " + millisSince(start));
            return ExitCodes.OK;
        } catch (RuntimeException e) {
            // the failing file rolled back; a new world is kept only if an earlier file committed to it
            committed = w.entityCount() > 0;
            throw e;
        } finally {
            w.close();
            if (created && !committed) {
                Loads.undoCreate(world, dirExisted);
            }
        }
    }
}
