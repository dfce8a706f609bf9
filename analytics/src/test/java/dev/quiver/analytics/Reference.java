package dev.quiver.analytics;

import dev.quiver.storage.table.Table;
import dev.quiver.storage.World;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Brute-force graph algorithms for the tests, written the plain way (sets, maps, one BFS per
 * node) over adjacency read entity by entity through {@link World#targets}, independent of the
 * library's table scan and arrays.
 */
final class Reference {
    /** Entity id to its distinct targets under the relationships; every node is a key. */
    final Map<Long, TreeSet<Long>> out = new TreeMap<>();
    final Map<Long, TreeSet<Long>> in = new TreeMap<>();

    Reference(World w, long... relationships) {
        for (Table t : w.tableAccess().allTables()) {
            for (int row = 0; row < t.count(); row++) {
                long e = t.entity(row);
                for (long r : relationships) {
                    for (long x : w.targets(e, r)) {
                        out.computeIfAbsent(e, k -> new TreeSet<>()).add(x);
                        out.computeIfAbsent(x, k -> new TreeSet<>());
                        in.computeIfAbsent(x, k -> new TreeSet<>()).add(e);
                        in.computeIfAbsent(e, k -> new TreeSet<>());
                    }
                }
            }
        }
    }

    Set<Long> nodes() {
        return out.keySet();
    }

    Set<Long> reach(long from, Map<Long, TreeSet<Long>> adj) {
        Set<Long> seen = new HashSet<>();
        ArrayDeque<Long> q = new ArrayDeque<>(adj.get(from));
        seen.addAll(adj.get(from));
        while (!q.isEmpty()) {
            for (long y : adj.get(q.poll())) {
                if (seen.add(y)) {
                    q.add(y);
                }
            }
        }
        return seen; // paths of one or more edges: contains from only on a cycle
    }

    Map<Long, Integer> bfs(long from, boolean outward, boolean inward) {
        Map<Long, Integer> d = new HashMap<>();
        d.put(from, 0);
        ArrayDeque<Long> q = new ArrayDeque<>(List.of(from));
        while (!q.isEmpty()) {
            long x = q.poll();
            List<Long> next = new ArrayList<>();
            if (outward) {
                next.addAll(out.get(x));
            }
            if (inward) {
                next.addAll(in.get(x));
            }
            for (long y : next) {
                if (!d.containsKey(y)) {
                    d.put(y, d.get(x) + 1);
                    q.add(y);
                }
            }
        }
        return d;
    }

    boolean sameStrong(long a, long b) {
        return a == b || (reach(a, out).contains(b) && reach(b, out).contains(a));
    }

    boolean cyclic(long a) {
        return reach(a, out).contains(a);
    }

    /** Longest path (in steps between distinct strong components) from a to a root; -1 when none. */
    Map<Long, Integer> longestToRoot() {
        // relax until fixed point over the condensation: value(x) = 0 for a root, else max over
        // successors y in another component of value(y) + 1, or value(y) for y in the same component
        Map<Long, Integer> v = new HashMap<>();
        for (long x : nodes()) {
            v.put(x, out.get(x).isEmpty() ? 0 : -1);
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (long x : nodes()) {
                int best = v.get(x);
                for (long y : out.get(x)) {
                    int vy = v.get(y);
                    if (vy < 0) {
                        continue;
                    }
                    int cand = sameStrong(x, y) ? vy : vy + 1;
                    if (cand > best) {
                        best = cand;
                    }
                }
                if (best != v.get(x)) {
                    v.put(x, best);
                    changed = true;
                }
            }
        }
        return v;
    }

    /** Generation: longest path in condensation steps from a component no edge enters. */
    Map<Long, Integer> generations() {
        Map<Long, Integer> g = new HashMap<>();
        for (long x : nodes()) {
            g.put(x, 0);
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (long x : nodes()) {
                for (long y : out.get(x)) {
                    int cand = sameStrong(x, y) ? g.get(x) : g.get(x) + 1;
                    if (cand > g.get(y)) {
                        g.put(y, cand);
                        changed = true;
                    }
                }
            }
        }
        return g;
    }

    /** PageRank by solving (I - d M) x = b exactly with Gaussian elimination. */
    Map<Long, Double> pageRank(double damping) {
        List<Long> ids = new ArrayList<>(nodes());
        int n = ids.size();
        Map<Long, Integer> pos = new HashMap<>();
        for (int i = 0; i < n; i++) {
            pos.put(ids.get(i), i);
        }
        double[][] a = new double[n][n + 1];
        for (int i = 0; i < n; i++) {
            a[i][i] = 1;
            a[i][n] = (1 - damping) / n;
        }
        for (int j = 0; j < n; j++) {
            Set<Long> t = out.get(ids.get(j));
            for (int i = 0; i < n; i++) {
                double m = t.isEmpty() ? 1.0 / n : (t.contains(ids.get(i)) ? 1.0 / t.size() : 0);
                a[i][j] -= damping * m;
            }
        }
        for (int c = 0; c < n; c++) {
            int p = c;
            for (int r = c + 1; r < n; r++) {
                if (Math.abs(a[r][c]) > Math.abs(a[p][c])) {
                    p = r;
                }
            }
            double[] tmp = a[c];
            a[c] = a[p];
            a[p] = tmp;
            for (int r = 0; r < n; r++) {
                if (r != c) {
                    double f = a[r][c] / a[c][c];
                    for (int k = c; k <= n; k++) {
                        a[r][k] -= f * a[c][k];
                    }
                }
            }
        }
        Map<Long, Double> out = new HashMap<>();
        for (int i = 0; i < n; i++) {
            out.put(ids.get(i), a[i][n] / a[i][i]);
        }
        return out;
    }

    /** The deterministic label propagation rule, naively: labels are positions in entity order. */
    Map<Long, Integer> labels(int maxSweeps) {
        List<Long> ids = new ArrayList<>(nodes());
        Map<Long, Integer> label = new HashMap<>();
        for (int i = 0; i < ids.size(); i++) {
            label.put(ids.get(i), i);
        }
        for (int s = 0; s < maxSweeps; s++) {
            boolean changed = false;
            for (long x : ids) {
                Map<Integer, Integer> count = new HashMap<>();
                for (long y : out.get(x)) {
                    if (y != x) {
                        count.merge(label.get(y), 1, Integer::sum);
                    }
                }
                for (long y : in.get(x)) {
                    if (y != x) {
                        count.merge(label.get(y), 1, Integer::sum);
                    }
                }
                if (count.isEmpty()) {
                    continue;
                }
                int max = count.values().stream().mapToInt(Integer::intValue).max().getAsInt();
                if (count.getOrDefault(label.get(x), 0) == max) {
                    continue;
                }
                int best = count.entrySet().stream().filter(en -> en.getValue() == max)
                        .mapToInt(Map.Entry::getKey).min().getAsInt();
                label.put(x, best);
                changed = true;
            }
            if (!changed) {
                break;
            }
        }
        return label;
    }
}
