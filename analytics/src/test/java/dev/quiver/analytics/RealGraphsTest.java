package dev.quiver.analytics;

import dev.quiver.snapshots.TsvLoader;
import dev.quiver.storage.World;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The algorithms on the real graphs of shared/data (Debian 12 dependencies, WordNet 3.0 nouns),
 * against facts from the data's README and answers.tsv (computed there with SQLite recursive CTEs
 * and a BFS) and against answers computed here independently, by BFS over adjacency read straight
 * from the TSV files (a random sample of nodes; the seed is printed, {@code -Dquiver.seed=N}
 * repeats it).
 */
class RealGraphsTest {
    @TempDir
    static Path dir;
    static World w;
    static Path data;
    /** relationship -> subject -> targets, straight from the TSV files. */
    static final Map<String, Map<String, List<String>>> OUT = new HashMap<>();
    static final Map<String, Map<String, List<String>>> IN = new HashMap<>();

    /** The repository's test data (the Debian and WordNet graphs and answers.tsv, with their notes). */
    static Path testdata() {
        String p = System.getProperty("quiver.testdata");
        return p != null ? Path.of(p) : Path.of("../testdata");
    }

    @BeforeAll
    static void load() throws IOException {
        data = testdata();
        long t0 = System.nanoTime();
        w = World.create(dir.resolve("world"));
        TsvLoader loader = new TsvLoader(w);
        for (String f : new String[] {"debian_deps.tsv.gz", "wordnet_nouns.tsv.gz"}) {
            loader.load(data.resolve(f));
            try (BufferedReader r = new BufferedReader(new InputStreamReader(
                    new GZIPInputStream(Files.newInputStream(data.resolve(f))), StandardCharsets.UTF_8))) {
                r.readLine();
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    String[] p = line.split("\t");
                    OUT.computeIfAbsent(p[1], k -> new HashMap<>()).computeIfAbsent(p[0], k -> new ArrayList<>()).add(p[2]);
                    IN.computeIfAbsent(p[1], k -> new HashMap<>()).computeIfAbsent(p[2], k -> new ArrayList<>()).add(p[0]);
                }
            }
        }
        System.out.printf("RealGraphsTest: loaded in %.1f s%n", (System.nanoTime() - t0) / 1e9);
    }

    @AfterAll
    static void close() {
        if (w != null) {
            w.close();
        }
    }

    private static int node(Graph g, String name) {
        int v = g.node(w.resolve(name));
        assertTrue(v >= 0, name);
        return v;
    }

    /** Nodes reached by one or more edges, by BFS over the TSV adjacency. */
    private static Set<String> reach(Map<String, List<String>> adj, String from) {
        Set<String> seen = new HashSet<>();
        ArrayDeque<String> q = new ArrayDeque<>();
        q.add(from);
        while (!q.isEmpty()) {
            for (String y : adj.getOrDefault(q.poll(), List.of())) {
                if (seen.add(y)) {
                    q.add(y);
                }
            }
        }
        return seen;
    }

    @Test
    void debianCyclesMatchTheReadme() {
        Graph g = Analytics.of(w).graph("DependsOn");
        assertEquals(59_681, g.nodeCount());
        assertEquals(264_839, g.edgeCount());
        StrongComponents s = g.strongComponents();
        int[] cyc = s.cyclicComponents();
        assertEquals(58, cyc.length);
        Map<Integer, Integer> hist = new TreeMap<>();
        int inCycles = 0;
        for (int c : cyc) {
            hist.merge(s.size(c), 1, Integer::sum);
            inCycles += s.size(c);
        }
        assertEquals(155, inCycles);
        assertEquals(Map.of(11, 1, 7, 1, 6, 1, 5, 1, 4, 5, 3, 8, 2, 41), hist);
        int largest = s.component(node(g, "node_util"));
        assertEquals(11, s.size(largest));
        for (String m : "libjs_util node_assert node_debbundle_es_to_primitive node_deep_equal node_define_properties "
                .concat("node_es_abstract node_istanbul node_parse_json node_read_pkg node_tape node_util").split(" ")) {
            assertEquals(largest, s.component(node(g, m)), m);
        }
        for (String m : "libruby libruby3_1 rake ruby ruby3_1 ruby_rubygems ruby_sdbm".split(" ")) {
            assertEquals(s.component(node(g, "ruby")), s.component(node(g, m)), m);
        }
        assertEquals(s.component(node(g, "libc6")), s.component(node(g, "libgcc_s1")));
        // every edge goes forward in the topological order
        int[] st = g.outStart();
        int[] t = g.outTargets();
        for (int v = 0; v < g.nodeCount(); v++) {
            for (int e = st[v]; e < st[v + 1]; e++) {
                assertTrue(s.component(v) <= s.component(t[e]));
            }
        }
        assertEquals(135, Analytics.of(w).graph("Recommends").strongComponents().cyclicComponents().length);
        StrongComponents both = Analytics.of(w).graph("DependsOn", "Recommends").strongComponents();
        int[] bc = both.cyclicComponents();
        assertEquals(971, bc.length);
        int members = 0;
        for (int c : bc) {
            members += both.size(c);
        }
        assertEquals(2_889, members);
        assertEquals(243, both.largest());
    }

    @Test
    void closureSizesMatchAnswersAndBfs() throws IOException {
        Map<String, Graph> graphs = new HashMap<>();
        Map<String, ClosureSizes> closures = new HashMap<>();
        int checked = 0;
        for (String line : Files.readAllLines(data.resolve("answers.tsv")).subList(1, 54)) {
            String[] p = line.split("\t");
            String q = p[0].trim();
            long expect = Long.parseLong(p[1].trim());
            java.util.regex.Matcher m;
            if ((m = java.util.regex.Pattern.compile("\\((\\w+), (\\w+)\\)").matcher(q)).matches()) {
                Graph g = graphs.computeIfAbsent(m.group(1), r -> Analytics.of(w).graph(r));
                ClosureSizes c = closures.computeIfAbsent(m.group(1), r -> g.closureSizes());
                int v = g.node(w.resolve(m.group(2)));
                assertEquals(expect, v < 0 ? 0 : c.reverse(v), q);
                checked++;
            } else if ((m = java.util.regex.Pattern.compile("(\\w+)\\((\\w+), \\$x\\)").matcher(q)).matches()) {
                Graph g = graphs.computeIfAbsent(m.group(1), r -> Analytics.of(w).graph(r));
                ClosureSizes c = closures.computeIfAbsent(m.group(1), r -> g.closureSizes());
                int v = g.node(w.resolve(m.group(2)));
                assertEquals(expect, v < 0 ? 0 : c.forward(v), q);
                checked++;
            } else if ((m = java.util.regex.Pattern.compile("(\\w+)\\((\\w+), (\\w+)\\)").matcher(q)).matches()) {
                Graph g = graphs.computeIfAbsent(m.group(1), r -> Analytics.of(w).graph(r));
                long a = w.resolve(m.group(2));
                long b = w.resolve(m.group(3));
                boolean reached = a == b ? g.strongComponents().isCyclic(g.strongComponents().component(g.node(a)))
                        : g.shortestPath(a, b, Direction.OUT).length > 0;
                assertEquals(expect, reached ? 1 : 0, q);
                checked++;
            }
        }
        assertEquals(50, checked, "single-term answer lines");
        // a random sample, against BFS over the TSV adjacency
        long seed = Long.getLong("quiver.seed", System.nanoTime());
        System.out.println("RealGraphsTest: closure sample seed " + seed + " (rerun with -Dquiver.seed=" + seed + ")");
        Random rnd = new Random(seed);
        for (String rel : new String[] {"DependsOn", "KindOf"}) {
            Graph g = graphs.computeIfAbsent(rel, r -> Analytics.of(w).graph(r));
            ClosureSizes c = closures.computeIfAbsent(rel, r -> g.closureSizes());
            for (int i = 0; i < 150; i++) {
                int v = rnd.nextInt(g.nodeCount());
                String name = w.path(g.entity(v));
                assertEquals(reach(OUT.get(rel), name).size(), c.forward(v), rel + " forward " + name);
                assertEquals(reach(IN.get(rel), name).size(), c.reverse(v), rel + " reverse " + name);
            }
        }
        // DependsOn with Recommends: the general bitset path, on a graph with 971 cycle groups
        Graph g = Analytics.of(w).graph("DependsOn", "Recommends");
        ClosureSizes c = g.closureSizes();
        Map<String, List<String>> out = new HashMap<>();
        Map<String, List<String>> in = new HashMap<>();
        for (String rel : new String[] {"DependsOn", "Recommends"}) {
            OUT.get(rel).forEach((k, v) -> out.computeIfAbsent(k, x -> new ArrayList<>()).addAll(v));
            IN.get(rel).forEach((k, v) -> in.computeIfAbsent(k, x -> new ArrayList<>()).addAll(v));
        }
        for (int i = 0; i < 100; i++) {
            int v = rnd.nextInt(g.nodeCount());
            String name = w.path(g.entity(v));
            assertEquals(reach(out, name).size(), c.forward(v), "DependsOn,Recommends forward " + name);
            assertEquals(reach(in, name).size(), c.reverse(v), "DependsOn,Recommends reverse " + name);
        }
    }

    @Test
    void wordnetDepthsAndCommonAncestors() {
        Graph kind = Analytics.of(w).graph("KindOf");
        Depths d = kind.depths();
        assertEquals(19, d.maxDepth(), "longest KindOf chain (README)");
        assertEquals(0, d.shortest(node(kind, "entity_n_01")));
        assertTrue(d.isRoot(node(kind, "entity_n_01")));
        assertTrue(d.isLeaf(node(kind, "toy_poodle_n_01")));
        assertEquals(14, Analytics.of(w).graph("PartOf").depths().maxDepth());
        assertEquals(11, Analytics.of(w).graph("MemberOf").depths().maxDepth());
        assertEquals(0, kind.strongComponents().cyclicComponents().length, "KindOf is acyclic");
        // dog and cat: carnivore, checked against the common hypernyms computed from the TSV
        CommonAncestors lca = kind.lowestCommonAncestors(w.resolve("dog_n_01"), w.resolve("cat_n_01"));
        assertEquals(List.of("carnivore_n_01"), names(kind, lca.nodes()));
        Set<String> common = reach(OUT.get("KindOf"), "dog_n_01");
        common.retainAll(reach(OUT.get("KindOf"), "cat_n_01"));
        Set<String> lowest = new HashSet<>(common);
        for (String c : common) {
            lowest.removeAll(reach(OUT.get("KindOf"), c));
        }
        assertEquals(lowest, new HashSet<>(names(kind, lca.nodes())));
        // an entity is its own ancestor: lca(dog, animal) is animal
        assertEquals(List.of("animal_n_01"),
                names(kind, kind.lowestCommonAncestors(w.resolve("dog_n_01"), w.resolve("animal_n_01")).nodes()));
        long[] path = kind.shortestPath(w.resolve("dog_n_01"), w.resolve("entity_n_01"), Direction.OUT);
        assertEquals(w.resolve("dog_n_01"), path[0]);
        assertEquals(d.shortest(node(kind, "dog_n_01")) + 1, path.length);
    }

    @Test
    void debianComponentsRanksAndLayers() {
        Graph g = Analytics.of(w).graph("DependsOn");
        // weak components against union-find over the TSV edges
        Map<String, String> parent = new HashMap<>();
        OUT.get("DependsOn").forEach((s, ts) -> ts.forEach(t -> union(parent, s, t)));
        Set<String> roots = new HashSet<>();
        for (String x : new ArrayList<>(parent.keySet())) {
            roots.add(find(parent, x));
        }
        WeakComponents wcc = g.weakComponents();
        assertEquals(roots.size(), wcc.count());
        PageRank pr = g.pageRank();
        assertTrue(pr.converged());
        double sum = 0;
        for (double r : pr.rankArray()) {
            sum += r;
        }
        assertEquals(1.0, sum, 1e-9);
        TopologicalLayers topo = g.topologicalLayers();
        int[] sizes = topo.generationSizes();
        assertEquals(g.strongComponents().count(), java.util.Arrays.stream(sizes).sum());
        assertEquals(0, topo.nodeGeneration(node(g, "zutty")), "nothing depends on zutty");
        Degrees deg = g.degrees();
        int top = deg.top(1, Direction.IN)[0];
        assertEquals(IN.get("DependsOn").values().stream().mapToInt(List::size).max().getAsInt(), deg.in(top));
        Communities com = g.communities();
        assertEquals(g.nodeCount(), java.util.Arrays.stream(com.communityArray()).map(x -> 1).sum());
        assertTrue(com.count() >= wcc.count(), "communities never join weak components");
    }

    private static void union(Map<String, String> parent, String a, String b) {
        String ra = find(parent, a);
        String rb = find(parent, b);
        if (!ra.equals(rb)) {
            parent.put(ra, rb);
        }
    }

    private static String find(Map<String, String> parent, String x) {
        parent.putIfAbsent(x, x);
        while (!parent.get(x).equals(x)) {
            parent.put(x, parent.get(parent.get(x)));
            x = parent.get(x);
        }
        return x;
    }

    private static List<String> names(Graph g, int[] nodes) {
        List<String> out = new ArrayList<>();
        for (int v : nodes) {
            out.add(w.path(g.entity(v)));
        }
        return out;
    }
}
