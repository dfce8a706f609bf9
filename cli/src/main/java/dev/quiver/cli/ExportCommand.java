package dev.quiver.cli;

import dev.quiver.query.Query;
import dev.quiver.snapshots.export.ExportFormat;
import dev.quiver.snapshots.export.ExportOptions;
import dev.quiver.snapshots.export.ExportResult;
import dev.quiver.snapshots.export.Exporter;
import dev.quiver.storage.World;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code quiver export WORLD DIR}: writes the vertex and edge tables for DuckDB, pandas and Spark. */
@Command(name = "export", header = "Export a world as vertex and edge tables (Parquet or CSV).",
        description = {"Writes DIR/vertices.EXT (id, name, path, one column per component field such as "
                + "Position.x) and DIR/edges.EXT (src, dst, relationship, and the fields of pairs that carry data), "
                + "the GraphFrames convention; ids are 64-bit entity ids. Tags are not exported; builtin entities "
                + "are not vertices. DIR must be missing or empty; the files are written to a temporary sibling and "
                + "renamed when complete, so a failed export leaves nothing. Opens WORLD read-only.",
            "Example: quiver export w out --format parquet --relationship DependsOn --query '(DependsOn, libc6)'"})
final class ExportCommand extends BaseCommand {
    @Parameters(index = "0", paramLabel = "WORLD", description = "The world directory (must exist).")
    Path world;

    @Parameters(index = "1", paramLabel = "DIR", description = "The output directory (missing or empty).")
    Path dir;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "parquet",
            description = "parquet or csv (default: ${DEFAULT-VALUE}).")
    String format;

    @Option(names = "--relationship", paramLabel = "R", split = ",",
            description = "Export only the pairs of these relationships as edges (comma-separated, repeatable).")
    List<String> relationships = new ArrayList<>();

    @Option(names = "--query", paramLabel = "QUERY",
            description = "Export only the entities this query returns as $this (Flecs query language), and the "
                    + "edges whose source and target are both among them.")
    String query;

    @Override
    public Integer call() {
        long start = System.nanoTime();
        ExportFormat f = ExportFormat.parse(format);
        try (World w = openReader(world)) {
            LongOpenHashSet kept = query == null ? null : entitiesOf(w, query);
            ExportOptions options = new ExportOptions(f, relationships, kept == null ? null : kept::contains);
            ExportResult r = Exporter.export(w, dir, options);
            out().println("exported " + world + " to " + dir + " (" + f.extension() + "): " + r.vertices() + " vertices, "
                    + r.edges() + " edges, " + r.bytes() + " bytes in " + millisSince(start));
        }
        return ExitCodes.OK;
    }

    /** The $this entities of a query's results. */
    private static LongOpenHashSet entitiesOf(World w, String text) {
        Query q = Query.parse(w, text);
        if (!q.hasThis()) {
            throw new CliInputException("--query must return entities as $this, e.g. '(DependsOn, libc6)'; '" + text
                    + "' has no $this");
        }
        LongOpenHashSet kept = new LongOpenHashSet();
        q.forEach(r -> kept.add(r.thisEntity()));
        return kept;
    }
}
