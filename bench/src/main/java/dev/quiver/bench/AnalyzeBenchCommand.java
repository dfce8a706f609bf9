package dev.quiver.bench;

import dev.quiver.analytics.Analytics;
import dev.quiver.analytics.Graph;
import dev.quiver.snapshots.TsvLoader;
import dev.quiver.storage.World;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code quiver-bench analyze}: times the analytics library in-process on a warm JVM, on real pair
 * files or on RG-1: building the graph, each algorithm alone, and the bundle of the issue's figure
 * (strong and weak components, topological layers, closure sizes both ways and PageRank).
 */
@Command(name = "analyze", header = "Time graph analytics (in-process, warm) on pair files or RG-1.",
        description = {"Loads FILE... into a new world (or builds RG-1 with --rg1 DEPTH), then times, over the graph of "
                + "--relationship: the graph build, scc, wcc, topo, closure, pagerank, and all of them together "
                + "(build included): median (min-max) of --repeat runs after --warmup untimed rounds.",
            "Example: quiver-bench analyze ../shared/data/debian_deps.tsv.gz --relationship DependsOn"})
final class AnalyzeBenchCommand extends BenchCommand {
    @Parameters(arity = "0..*", paramLabel = "FILE", description = "TSV pair files (.tsv or .tsv.gz), loaded in order.")
    List<Path> files = new ArrayList<>();

    @Option(names = "--rg1", paramLabel = "DEPTH", description = "Build RG-1 of this depth instead of loading files "
            + "(the relationship is then LocatedIn).")
    Integer rg1;

    @Option(names = "--relationship", split = ",", paramLabel = "R", description = "The relationships (comma-separated).")
    List<String> relationships = new ArrayList<>();

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "5", description = "Timed runs (default ${DEFAULT-VALUE}).")
    int repeat;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "3", description = "Untimed rounds first (default ${DEFAULT-VALUE}).")
    int warmup;

    @Override
    public Integer call() {
        if ((rg1 == null) == files.isEmpty()) {
            throw new BenchInputException("give pair FILEs or --rg1 DEPTH (one of the two)");
        }
        for (Path f : files) {
            if (!Files.isRegularFile(f)) {
                throw new BenchInputException("file " + f + " does not exist or is not a regular file");
            }
        }
        if (rg1 != null && relationships.isEmpty()) {
            relationships = List.of("LocatedIn");
        }
        if (relationships.isEmpty()) {
            throw new BenchInputException("--relationship is required with pair files");
        }
        if (repeat < 1 || warmup < 0) {
            throw new BenchInputException("--repeat must be at least 1 and --warmup at least 0");
        }
        checkCommonOptions();
        String loadAtStart = Machine.loadAverage();
        Path work = workDirectory("quiver-bench-analyze-");
        Path worldDir = work.resolve("world");
        Rg1World rg = null;
        World w = null;
        try {
            if (rg1 != null) {
                rg = Rg1World.create(new Rg1Spec(rg1), worldDir);
                w = rg.world();
            } else {
                w = World.create(worldDir);
                for (Path f : files) {
                    new TsvLoader(w).load(f);
                }
            }
            World world = w;
            String[] rels = relationships.toArray(new String[0]);
            Graph g = Analytics.of(w).graph(rels);
            out().println("graph of " + String.join(",", rels) + ": " + count(g.nodeCount()) + " nodes, "
                    + count(g.edgeCount()) + " edges");
            out().println(String.format(Locale.ROOT, "median (min-max) of %d runs after %d warm-up rounds", repeat, warmup));
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("relationships", String.join(",", rels));
            m.put("nodes", g.nodeCount());
            m.put("edges", g.edgeCount());
            // each algorithm on a fresh graph, so that no cached strong components flatter the figure
            time("build", m, x -> Analytics.of(world).graph(rels));
            Graph[] fresh = new Graph[1];
            timeOn("scc", m, () -> fresh[0] = Analytics.of(world).graph(rels), x -> fresh[0].strongComponents());
            timeOn("wcc", m, () -> fresh[0] = Analytics.of(world).graph(rels), x -> fresh[0].weakComponents());
            timeOn("topo", m, () -> fresh[0] = Analytics.of(world).graph(rels), x -> fresh[0].topologicalLayers());
            timeOn("closure", m, () -> fresh[0] = Analytics.of(world).graph(rels), x -> fresh[0].closureSizes());
            timeOn("pagerank", m, () -> fresh[0] = Analytics.of(world).graph(rels), x -> fresh[0].pageRank());
            time("all (build, scc, wcc, topo, closure, pagerank)", m, x -> {
                Graph a = Analytics.of(world).graph(rels);
                a.strongComponents();
                a.weakComponents();
                a.topologicalLayers();
                a.closureSizes();
                a.pageRank();
            });
            printEnvironment(loadAtStart);
            m.putAll(environment(loadAtStart));
            writeJson(m);
            return QuiverBench.OK;
        } finally {
            if (rg != null) {
                rg.close();
            } else if (w != null) {
                w.close();
            }
            cleanUp(work, worldDir);
        }
    }

    private void time(String name, Map<String, Object> m, Consumer<Void> body) {
        timeOn(name, m, () -> null, body);
    }

    /** Runs {@code setup} untimed before each run of {@code body}. */
    private void timeOn(String name, Map<String, Object> m, java.util.function.Supplier<Object> setup, Consumer<Void> body) {
        for (int i = 0; i < warmup; i++) {
            setup.get();
            body.accept(null);
        }
        Samples ms = new Samples();
        for (int i = 0; i < repeat; i++) {
            setup.get();
            long t0 = System.nanoTime();
            body.accept(null);
            ms.add((System.nanoTime() - t0) / 1e6);
        }
        out().println(String.format(Locale.ROOT, "  %-28s %s", figure(ms, "ms"), name));
        out().flush();
        m.put(name.split(" ")[0] + "_median_ms", ms.median());
    }
}
