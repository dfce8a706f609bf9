package dev.quiver.cli;

import dev.quiver.analytics.Analytics;
import dev.quiver.analytics.ClosureSizes;
import dev.quiver.analytics.CommonAncestors;
import dev.quiver.analytics.Communities;
import dev.quiver.analytics.Degrees;
import dev.quiver.analytics.Depths;
import dev.quiver.analytics.Direction;
import dev.quiver.analytics.Graph;
import dev.quiver.analytics.Neighbourhood;
import dev.quiver.analytics.NodeValues;
import dev.quiver.analytics.PageRank;
import dev.quiver.analytics.Progress;
import dev.quiver.analytics.StrongComponents;
import dev.quiver.analytics.TopologicalLayers;
import dev.quiver.analytics.WeakComponents;
import dev.quiver.storage.World;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** {@code quiver analyze WORLD ALGORITHM --relationship R[,R2]}: offline graph analytics. */
@Command(name = "analyze", header = "Graph analytics over one or more relationships.",
        description = {"Runs ALGORITHM over the graph of the given relationships in WORLD (an edge from each "
                + "entity to the target of each of its pairs (R, target)). The world is opened read-only "
                + "unless --write is given.",
            "Per-entity algorithms print one row per entity of the graph, in entity-index order: "
                + "degree (out, in), wcc and scc (component, size; scc components are numbered in "
                + "topological order), topo (order, generation), closure (forward: how many entities it "
                + "reaches by one or more edges, reverse: how many reach it; an entity counts itself only "
                + "on a cycle), depth (shortest and longest distance to a root, i.e. an entity with no "
                + "outgoing edge; root, leaf), pagerank (rank), communities (community, size). "
                + "--summary prints totals instead, --write NAME stores the rows as component NAME.",
            "Walks: path (--entity FROM --entity TO: a shortest path), khop (--entity E --hops K: the "
                + "entities within K edges), lca (--entity A --entity B: lowest common ancestors, reading "
                + "the relationship as transitive and reflexive); --direction out|in|both.",
            "Example: quiver analyze w closure --relationship DependsOn --summary"})
final class AnalyzeCommand extends BaseCommand {
    enum Algorithm { degree, wcc, scc, topo, closure, depth, path, khop, lca, pagerank, communities }

    @Parameters(index = "0", paramLabel = "WORLD", description = "The world directory (must exist).")
    Path world;

    @Parameters(index = "1", paramLabel = "ALGORITHM", description = "One of: ${COMPLETION-CANDIDATES}.")
    Algorithm algorithm;

    @Option(names = {"-r", "--relationship"}, paramLabel = "R", split = ",", required = true,
            description = "The relationships whose pairs are the edges (comma-separated or repeated).")
    List<String> relationships;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "table",
            description = "Output: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    AnalysisReport.Format format;

    @Option(names = "--limit", paramLabel = "N", description = "Print at most N rows of each table.")
    Integer limit;

    @Option(names = "--summary", description = "Print totals only (per-entity algorithms).")
    boolean summary;

    @Option(names = "--cycles", description = "scc, topo: list every cycle group (component, size, members).")
    boolean cycles;

    @Option(names = "--write", paramLabel = "NAME",
            description = "Store the per-entity rows as component NAME (i64/f64 fields named like the columns), "
                    + "in one transaction.")
    String write;

    @Option(names = {"-e", "--entity"}, paramLabel = "E",
            description = "path, lca: two entities (repeat the option); khop: the center.")
    List<String> entities;

    @Option(names = {"-k", "--hops"}, paramLabel = "K", defaultValue = "1", description = "khop: how many edges (default: 1).")
    int hops;

    @Option(names = "--direction", paramLabel = "DIR", defaultValue = "out",
            description = "path, khop: follow edges out (source to target), in, or both (default: out).")
    String direction;

    @Option(names = "--top", paramLabel = "K", defaultValue = "10",
            description = "--summary of degree and pagerank: list the K highest (default: 10).")
    int top;

    @Option(names = "--damping", paramLabel = "D", defaultValue = "0.85", description = "pagerank: damping (default: 0.85).")
    double damping;

    @Option(names = "--iterations", paramLabel = "N", defaultValue = "100",
            description = "pagerank: most iterations; communities: most sweeps (default: 100).")
    int iterations;

    @Option(names = "--tolerance", paramLabel = "T", defaultValue = "1e-6",
            description = "pagerank: stop when the L1 change is below nodes * T (default: 1e-6).")
    double tolerance;

    @Override
    public Integer call() {
        long start = System.nanoTime();
        checkArguments();
        Direction dir = direction();
        try (World w = write != null ? openWriter(world) : openReader(world)) {
            AnalysisReport report = new AnalysisReport(algorithm.name(), relationships);
            if (interactive()) {
                try (AnalysisProgress bar = new AnalysisProgress("analyze " + algorithm)) {
                    run(w, report, dir, bar);
                }
            } else {
                run(w, report, dir, Progress.NONE);
            }
            report.print(format, limit, start, out());
        }
        return ExitCodes.OK;
    }

    private void checkArguments() {
        if (limit != null && limit < 0) {
            throw new CliInputException("--limit must be 0 or more, got " + limit);
        }
        int want = algorithm == Algorithm.path || algorithm == Algorithm.lca ? 2 : algorithm == Algorithm.khop ? 1 : 0;
        int got = entities == null ? 0 : entities.size();
        if (got != want) {
            throw new CliInputException(want == 0 ? algorithm + " takes no --entity"
                    : algorithm + " needs " + want + (want == 1 ? " --entity" : " --entity options") + ", got " + got);
        }
        if (write != null && want > 0) {
            throw new CliInputException("--write needs a per-entity algorithm, not " + algorithm);
        }
        if (cycles && algorithm != Algorithm.scc && algorithm != Algorithm.topo) {
            throw new CliInputException("--cycles is for scc and topo");
        }
        if (top < 0) {
            throw new CliInputException("--top must be 0 or more, got " + top);
        }
    }

    private Direction direction() {
        switch (direction.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "out":
                return Direction.OUT;
            case "in":
                return Direction.IN;
            case "both":
                return Direction.BOTH;
            default:
                throw new CliInputException("--direction must be out, in or both, got '" + direction + "'");
        }
    }

    private void run(World w, AnalysisReport report, Direction dir, Progress progress) {
        Graph g = Analytics.of(w).progress(progress).graph(relationships.toArray(new String[0]));
        NodeValues values;
        switch (algorithm) {
            case degree:
                values = degree(g, report);
                break;
            case wcc: {
                WeakComponents c = g.weakComponents();
                Map<String, Object> f = summary ? report.facts("summary") : null;
                if (f != null) {
                    totals(g, f);
                    f.put("components", c.count());
                    f.put("largest", c.largest());
                }
                values = NodeValues.of(g, c);
                break;
            }
            case scc: {
                StrongComponents s = g.strongComponents();
                if (summary) {
                    Map<String, Object> f = report.facts("summary");
                    totals(g, f);
                    sccFacts(s, f);
                }
                values = NodeValues.of(s);
                break;
            }
            case topo: {
                TopologicalLayers t = g.topologicalLayers();
                if (summary) {
                    Map<String, Object> f = report.facts("summary");
                    totals(g, f);
                    f.put("components", t.strongComponents().count());
                    f.put("generations", t.generationCount());
                    f.put("cycle_groups", t.cycles().length);
                }
                values = NodeValues.of(t);
                break;
            }
            case closure: {
                ClosureSizes c = g.closureSizes();
                if (summary) {
                    Map<String, Object> f = report.facts("summary");
                    totals(g, f);
                    extremes(g, c.forwardArray(), "forward", f);
                    extremes(g, c.reverseArray(), "reverse", f);
                }
                values = NodeValues.of(g, c);
                break;
            }
            case depth: {
                Depths d = g.depths();
                if (summary) {
                    Map<String, Object> f = report.facts("summary");
                    totals(g, f);
                    f.put("roots", d.rootCount());
                    f.put("leaves", d.leafCount());
                    f.put("max_depth", d.maxDepth());
                    int unreachable = 0;
                    for (int x : d.shortestArray()) {
                        unreachable += x < 0 ? 1 : 0;
                    }
                    f.put("no_root_reachable", unreachable);
                }
                values = NodeValues.of(g, d);
                break;
            }
            case pagerank: {
                PageRank p = g.pageRank(damping, iterations, tolerance);
                if (summary) {
                    Map<String, Object> f = report.facts("summary");
                    totals(g, f);
                    f.put("iterations", p.iterations());
                    f.put("converged", p.converged());
                    topRows(g, p.rankArray(), report.rows("top", "entity", "rank"));
                }
                values = NodeValues.of(g, p);
                break;
            }
            case communities: {
                Communities c = g.communities(iterations);
                if (summary) {
                    Map<String, Object> f = report.facts("summary");
                    totals(g, f);
                    f.put("communities", c.count());
                    f.put("largest", c.largest());
                    f.put("sweeps", c.sweeps());
                    f.put("converged", c.converged());
                }
                values = NodeValues.of(g, c);
                break;
            }
            case path: {
                long[] p = g.shortestPath(w.resolve(entities.get(0)), w.resolve(entities.get(1)), dir);
                List<Object[]> rows = report.rows("path", "step", "entity");
                for (int i = 0; i < p.length; i++) {
                    rows.add(new Object[] {i, w.path(p[i])});
                }
                return;
            }
            case khop: {
                Neighbourhood nb = g.neighbourhood(w.resolve(entities.get(0)), hops, dir);
                List<Object[]> rows = report.rows("entities", "entity", "distance");
                for (int i = 0; i < nb.size(); i++) {
                    rows.add(new Object[] {w.path(g.entity(nb.nodes()[i])), nb.distance()[i]});
                }
                return;
            }
            case lca: {
                CommonAncestors a = g.lowestCommonAncestors(w.resolve(entities.get(0)), w.resolve(entities.get(1)));
                List<Object[]> rows = report.rows("ancestors", "entity", "distance_a", "distance_b");
                for (int i = 0; i < a.size(); i++) {
                    rows.add(new Object[] {w.path(g.entity(a.nodes()[i])), a.distanceA()[i], a.distanceB()[i]});
                }
                return;
            }
            default:
                throw new IllegalStateException(algorithm.name());
        }
        if (cycles) {
            cycleRows(w, g.strongComponents(), report.rows("cycles", "component", "size", "members"));
        }
        if (!summary) {
            entityRows(w, values, report);
        }
        if (write != null) {
            values.write(w, write);
            if (summary || format == AnalysisReport.Format.table) {
                report.facts("written").put("component", write);
            }
        }
    }

    private NodeValues degree(Graph g, AnalysisReport report) {
        Degrees d = g.degrees();
        NodeValues v = NodeValues.of(d);
        long[] rels = g.relationships();
        if (rels.length > 1) {
            for (int r = 0; r < rels.length; r++) {
                int[] o = new int[g.nodeCount()];
                int[] i = new int[g.nodeCount()];
                for (int x = 0; x < o.length; x++) {
                    o[x] = d.out(x, r);
                    i[x] = d.in(x, r);
                }
                String name = relationships.get(r).trim();
                v.add("out_" + name, o).add("in_" + name, i);
            }
        }
        if (summary) {
            Map<String, Object> f = report.facts("summary");
            totals(g, f);
            long[] outDist = d.distribution(Direction.OUT);
            long[] inDist = d.distribution(Direction.IN);
            f.put("max_out", Math.max(0, outDist.length - 1));
            f.put("max_in", Math.max(0, inDist.length - 1));
            List<Object[]> rows = report.rows("distribution", "degree", "out", "in");
            for (int k = 0; k < Math.max(outDist.length, inDist.length); k++) {
                long o = k < outDist.length ? outDist[k] : 0;
                long i = k < inDist.length ? inDist[k] : 0;
                if (o != 0 || i != 0) {
                    rows.add(new Object[] {k, o, i});
                }
            }
            List<Object[]> topOut = report.rows("top_out", "entity", "out");
            for (int x : d.top(top, Direction.OUT)) {
                topOut.add(new Object[] {g.world().path(g.entity(x)), d.out(x)});
            }
            List<Object[]> topIn = report.rows("top_in", "entity", "in");
            for (int x : d.top(top, Direction.IN)) {
                topIn.add(new Object[] {g.world().path(g.entity(x)), d.in(x)});
            }
        }
        return v;
    }

    private static void totals(Graph g, Map<String, Object> f) {
        f.put("entities", g.nodeCount());
        f.put("edges", g.edgeCount());
    }

    private static void sccFacts(StrongComponents s, Map<String, Object> f) {
        int[] cyc = s.cyclicComponents();
        int members = 0;
        for (int c : cyc) {
            members += s.size(c);
        }
        f.put("components", s.count());
        f.put("nontrivial", cyc.length);
        f.put("entities_in_cycles", members);
        f.put("largest", s.largest());
        f.put("condensation_edges", s.condensationEdgeCount());
    }

    private static void extremes(Graph g, int[] a, String name, Map<String, Object> f) {
        long sum = 0;
        int best = -1;
        for (int v = 0; v < a.length; v++) {
            sum += a[v];
            if (best < 0 || a[v] > a[best]) {
                best = v;
            }
        }
        f.put(name + "_total", sum);
        f.put(name + "_max", best < 0 ? 0 : a[best]);
        f.put(name + "_max_entity", best < 0 ? "-" : g.world().path(g.entity(best)));
    }

    private void topRows(Graph g, double[] rank, List<Object[]> rows) {
        Integer[] order = new Integer[rank.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> rank[a] != rank[b] ? Double.compare(rank[b], rank[a]) : Integer.compare(a, b));
        for (int i = 0; i < Math.min(top, order.length); i++) {
            rows.add(new Object[] {g.world().path(g.entity(order[i])), rank[order[i]]});
        }
    }

    private static void cycleRows(World w, StrongComponents s, List<Object[]> rows) {
        for (int c : s.cyclicComponents()) {
            List<String> names = new ArrayList<>();
            for (int v : s.members(c)) {
                names.add(w.path(s.graph().entity(v)));
            }
            rows.add(new Object[] {c, s.size(c), names});
        }
    }

    private static void entityRows(World w, NodeValues values, AnalysisReport report) {
        List<NodeValues.Column> cols = values.columns();
        String[] header = new String[cols.size() + 1];
        header[0] = "entity";
        for (int i = 0; i < cols.size(); i++) {
            header[i + 1] = cols.get(i).name();
        }
        Graph g = values.graph();
        report.rows("entities", new AnalysisReport.Rows() {
            @Override
            public int size() {
                return g.nodeCount();
            }

            @Override
            public Object[] get(int v) {
                Object[] r = new Object[header.length];
                r[0] = w.path(g.entity(v));
                for (int i = 0; i < cols.size(); i++) {
                    r[i + 1] = cols.get(i).value(v);
                }
                return r;
            }
        }, header);
    }
}
