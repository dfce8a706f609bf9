package dev.quiver.analytics;

import dev.quiver.storage.World;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every algorithm against {@link Reference} on random small worlds: several relationships (one left
 * out of the analysis), cycles, self-loops, deleted entities, and graph shapes that take each code
 * path (general graphs, DAGs, forests pointing up and down). Each case prints its seed; run one
 * again with {@code -Dquiver.seed=N}.
 */
class RandomGraphsTest {
    @TempDir
    Path dir;

    static LongStream seeds() {
        String fixed = System.getProperty("quiver.seed");
        if (fixed != null) {
            return LongStream.of(Long.parseLong(fixed));
        }
        long fresh = System.nanoTime();
        System.out.println("RandomGraphsTest: fresh seed " + fresh + " (rerun with -Dquiver.seed=" + fresh + ")");
        return LongStream.concat(LongStream.rangeClosed(1, 30), LongStream.of(fresh));
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void agreesWithBruteForce(long seed) {
        Random rnd = new Random(seed);
        int shape = (int) (seed % 4); // 0 general, 1 DAG, 2 forest towards roots, 3 forest away from roots
        int n = 3 + rnd.nextInt(40);
        String msg = "seed " + seed + " shape " + shape + " n " + n;
        try (World w = World.create(dir.resolve("w" + seed))) {
            long[] e = new long[n];
            long r1 = w.entity("R1");
            long r2 = w.entity("R2");
            long r3 = w.entity("R3");
            w.transaction(x -> {
                for (int i = 0; i < n; i++) {
                    e[i] = x.entity("e" + i);
                }
                double p = rnd.nextDouble() * 3.0 / n;
                for (int i = 0; i < n; i++) {
                    if (shape >= 2) {
                        if (i > 0 && rnd.nextInt(5) > 0) {
                            int j = rnd.nextInt(i);
                            if (shape == 2) {
                                x.add(e[i], x.pair(r1, e[j]));
                            } else {
                                x.add(e[j], x.pair(r1, e[i]));
                            }
                        }
                        continue;
                    }
                    for (int j = 0; j < n; j++) {
                        if (shape == 1 && j <= i) {
                            continue;
                        }
                        if (rnd.nextDouble() < p) {
                            x.add(e[i], x.pair(rnd.nextInt(3) == 0 ? r2 : r1, e[j]));
                        }
                        if (rnd.nextDouble() < p) {
                            x.add(e[i], x.pair(r3, e[j]));
                        }
                    }
                    if (shape == 0 && rnd.nextInt(10) == 0) {
                        x.add(e[i], x.pair(r1, e[i])); // self-loop
                    }
                }
            });
            // delete a few entities: their pairs, and pairs pointing at them, go with them
            int deletions = rnd.nextInt(3);
            for (int d = 0; d < deletions; d++) {
                int i = rnd.nextInt(n);
                if (w.isAlive(e[i])) {
                    w.delete(e[i]);
                }
            }
            long[] rels = shape == 0 || shape == 1 ? new long[] {r1, r2} : new long[] {r1};
            Graph g = Analytics.of(w).graph(rels);
            Reference ref = new Reference(w, rels);
            System.out.println("RandomGraphsTest: " + msg + ": " + g.nodeCount() + " nodes, " + g.edgeCount()
                    + " edges, " + g.strongComponents().cyclicComponents().length + " cycle groups");
            check(g, ref, rnd, msg);
            // the in-lists (a transpose of the table scan) agree with the world's reverse index
            for (int v = 0; v < g.nodeCount(); v++) {
                java.util.TreeSet<Integer> sources = new java.util.TreeSet<>();
                for (long r : rels) {
                    w.tableAccess().forEachSourceIndex(r, dev.quiver.index.Ids.index(g.entity(v)), sources::add);
                }
                java.util.TreeSet<Integer> in = new java.util.TreeSet<>();
                for (int x = g.inStart()[v]; x < g.inStart()[v + 1]; x++) {
                    in.add(dev.quiver.index.Ids.index(g.entity(g.inSources()[x])));
                }
                assertEquals(sources, in, msg + ": in-list of " + g.entity(v) + " against the reverse index");
            }
        }
    }

    private static void check(Graph g, Reference ref, Random rnd, String msg) {
        List<Long> nodes = new ArrayList<>(ref.nodes());
        assertEquals(nodes.size(), g.nodeCount(), msg + ": nodes");
        for (int v = 0; v < g.nodeCount(); v++) {
            assertEquals((long) nodes.get(v), g.entity(v), msg + ": node order");
            assertEquals(v, g.node(g.entity(v)), msg);
        }
        // degrees
        Degrees deg = g.degrees();
        for (int v = 0; v < g.nodeCount(); v++) {
            long x = g.entity(v);
            assertEquals(ref.out.get(x).size(), deg.out(v), msg + ": out-degree");
            assertEquals(ref.in.get(x).size(), deg.in(v), msg + ": in-degree");
        }
        long[] dist = deg.distribution(Direction.OUT);
        assertEquals(g.nodeCount(), LongStream.of(dist).sum(), msg);
        int[] top = deg.top(3, Direction.IN);
        for (int i = 1; i < top.length; i++) {
            assertTrue(deg.in(top[i - 1]) >= deg.in(top[i]), msg + ": top order");
        }
        // weak components: same component iff connected ignoring direction
        WeakComponents wcc = g.weakComponents();
        for (int v = 0; v < g.nodeCount(); v++) {
            Map<Long, Integer> und = ref.bfs(g.entity(v), true, true);
            for (int u = 0; u < g.nodeCount(); u++) {
                assertEquals(und.containsKey(g.entity(u)), wcc.component(u) == wcc.component(v), msg + ": wcc");
            }
            assertEquals(und.size(), wcc.size(wcc.component(v)), msg + ": wcc size");
        }
        // strong components, condensation order, cycles
        StrongComponents scc = g.strongComponents();
        for (int v = 0; v < g.nodeCount(); v++) {
            long x = g.entity(v);
            assertEquals(ref.cyclic(x), scc.isCyclic(scc.component(v)), msg + ": cyclic " + x);
            for (int u = 0; u < g.nodeCount(); u++) {
                assertEquals(ref.sameStrong(x, g.entity(u)), scc.component(u) == scc.component(v), msg + ": scc");
            }
            for (long y : ref.out.get(x)) {
                assertTrue(scc.component(v) <= scc.component(g.node(y)), msg + ": topological numbering");
            }
        }
        // topological generations
        TopologicalLayers topo = g.topologicalLayers();
        Map<Long, Integer> gens = ref.generations();
        for (int v = 0; v < g.nodeCount(); v++) {
            assertEquals((int) gens.get(g.entity(v)), topo.nodeGeneration(v), msg + ": generation");
        }
        // closure sizes
        ClosureSizes cs = g.closureSizes();
        for (int v = 0; v < g.nodeCount(); v++) {
            long x = g.entity(v);
            assertEquals(ref.reach(x, ref.out).size(), cs.forward(v), msg + ": forward closure of " + x);
            assertEquals(ref.reach(x, ref.in).size(), cs.reverse(v), msg + ": reverse closure of " + x);
        }
        // depths
        Depths dep = g.depths();
        Map<Long, Integer> longest = ref.longestToRoot();
        for (int v = 0; v < g.nodeCount(); v++) {
            long x = g.entity(v);
            Map<Long, Integer> d = ref.bfs(x, true, false);
            int shortest = d.entrySet().stream().filter(en -> ref.out.get(en.getKey()).isEmpty())
                    .mapToInt(Map.Entry::getValue).min().orElse(-1);
            assertEquals(shortest, dep.shortest(v), msg + ": shortest depth");
            assertEquals((int) longest.get(x), dep.longest(v), msg + ": longest depth");
            assertEquals(ref.out.get(x).isEmpty(), dep.isRoot(v), msg);
            assertEquals(ref.in.get(x).isEmpty(), dep.isLeaf(v), msg);
        }
        // paths and neighbourhoods, from a few random nodes
        for (int t = 0; t < 6 && g.nodeCount() > 0; t++) {
            long a = g.entity(rnd.nextInt(g.nodeCount()));
            long b = g.entity(rnd.nextInt(g.nodeCount()));
            Direction dir = Direction.values()[rnd.nextInt(3)];
            Map<Long, Integer> d = ref.bfs(a, dir != Direction.IN, dir != Direction.OUT);
            long[] path = g.shortestPath(a, b, dir);
            if (!d.containsKey(b)) {
                assertEquals(0, path.length, msg + ": no path");
            } else {
                assertEquals(d.get(b) + 1, path.length, msg + ": path length");
                assertEquals(a, path[0], msg);
                assertEquals(b, path[path.length - 1], msg);
                for (int i = 1; i < path.length; i++) {
                    boolean fwd = ref.out.get(path[i - 1]).contains(path[i]);
                    boolean bwd = ref.in.get(path[i - 1]).contains(path[i]);
                    assertTrue(dir == Direction.OUT ? fwd : dir == Direction.IN ? bwd : fwd || bwd, msg + ": path edge");
                }
            }
            int k = rnd.nextInt(4);
            Neighbourhood nb = g.neighbourhood(a, k, dir);
            Map<Long, Integer> expect = new HashMap<>();
            d.forEach((y, dy) -> {
                if (dy >= 1 && dy <= k) {
                    expect.put(y, dy);
                }
            });
            Map<Long, Integer> got = new HashMap<>();
            for (int i = 0; i < nb.size(); i++) {
                got.put(g.entity(nb.nodes()[i]), nb.distance()[i]);
                if (i > 0) {
                    assertTrue(nb.distance()[i - 1] <= nb.distance()[i], msg + ": neighbourhood order");
                }
            }
            assertEquals(expect, got, msg + ": neighbourhood of " + a + " k " + k + " " + dir);
            // lowest common ancestors (reflexive ancestors, minimal among the common ones)
            Map<Long, Integer> da = ref.bfs(a, true, false);
            Map<Long, Integer> db = ref.bfs(b, true, false);
            Set<Long> common = new HashSet<>(da.keySet());
            common.retainAll(db.keySet());
            Set<Long> lowest = new HashSet<>();
            for (long c : common) {
                boolean below = false;
                for (long o : common) {
                    if (o != c && ref.bfs(o, true, false).containsKey(c) && !ref.bfs(c, true, false).containsKey(o)) {
                        below = true;
                    }
                }
                if (!below) {
                    lowest.add(c);
                }
            }
            CommonAncestors lca = g.lowestCommonAncestors(a, b);
            Set<Long> gotLca = new HashSet<>();
            for (int i = 0; i < lca.size(); i++) {
                long c = g.entity(lca.nodes()[i]);
                gotLca.add(c);
                assertEquals((int) da.get(c), lca.distanceA()[i], msg);
                assertEquals((int) db.get(c), lca.distanceB()[i], msg);
            }
            assertEquals(lowest, gotLca, msg + ": lca of " + a + ", " + b);
        }
        // PageRank against the exact linear solution
        PageRank pr = g.pageRank(0.85, 1000, 1e-15);
        Map<Long, Double> exact = ref.pageRank(0.85);
        double sum = 0;
        for (int v = 0; v < g.nodeCount(); v++) {
            assertEquals(exact.get(g.entity(v)), pr.rank(v), 1e-9, msg + ": pagerank");
            sum += pr.rank(v);
        }
        if (g.nodeCount() > 0) {
            assertEquals(1.0, sum, 1e-9, msg);
        }
        // label propagation against the naive rule
        Communities com = g.communities(50);
        Map<Long, Integer> labels = ref.labels(50);
        for (int v = 0; v < g.nodeCount(); v++) {
            for (int u = 0; u < g.nodeCount(); u++) {
                assertEquals(labels.get(g.entity(v)).equals(labels.get(g.entity(u))),
                        com.community(v) == com.community(u), msg + ": communities");
            }
        }
    }

    /** The bitset closure program on DAGs wider than one window, with cyclic (heavy) components. */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void bitsetClosureAcrossWindows(long seed) {
        Random rnd = new Random(seed * 31 + 7);
        int nc = 64 + rnd.nextInt(400);
        int[] size = new int[nc];
        List<int[]> lists = new ArrayList<>();
        int[] start = new int[nc + 1];
        List<Integer> adj = new ArrayList<>();
        double p = rnd.nextDouble() * 4.0 / nc;
        for (int c = 0; c < nc; c++) {
            size[c] = rnd.nextInt(6) == 0 ? 2 + rnd.nextInt(4) : 1;
            start[c] = adj.size();
            for (int d = c + 1; d < nc; d++) {
                if (rnd.nextDouble() < p) {
                    adj.add(d);
                }
            }
        }
        start[nc] = adj.size();
        int[] a = adj.stream().mapToInt(Integer::intValue).toArray();
        int budget = nc * (1 + rnd.nextInt(2)); // one or two words per window: several windows
        int[] got = ClosureSizes.bitsetReach(nc, start, a, size, budget, Progress.NONE, "test");
        int[] expect = new int[nc];
        for (int c = 0; c < nc; c++) {
            boolean[] seen = new boolean[nc];
            java.util.ArrayDeque<Integer> q = new java.util.ArrayDeque<>();
            q.add(c);
            while (!q.isEmpty()) {
                int x = q.poll();
                for (int e = start[x]; e < start[x + 1]; e++) {
                    if (!seen[a[e]]) {
                        seen[a[e]] = true;
                        expect[c] += size[a[e]];
                        q.add(a[e]);
                    }
                }
            }
        }
        assertArrayEquals(expect, got, "seed " + seed + " nc " + nc);
    }
}
