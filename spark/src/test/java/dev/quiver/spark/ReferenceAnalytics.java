package dev.quiver.spark;

import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * Plain Java versions of the job's analyses, for the tests: a directed graph on vertices 0..n-1
 * (each carrying its 64-bit entity id) with distinct edges. Union-find WCC, Tarjan SCC
 * (iterative), BFS closure sizes, degrees and power-iteration PageRank with the job's conventions.
 * Components are labelled by their smallest entity id, like the job's.
 */
final class ReferenceAnalytics {
    final long[] ids;
    final int[][] out;
    final int[][] in;

    /** @param ids entity id per vertex; @param src @param dst edge ends as vertex numbers, distinct pairs */
    ReferenceAnalytics(long[] ids, int[] src, int[] dst) {
        this.ids = ids;
        int n = ids.length;
        out = adjacency(n, src, dst);
        in = adjacency(n, dst, src);
    }

    private static int[][] adjacency(int n, int[] from, int[] to) {
        int[] count = new int[n];
        for (int f : from) {
            count[f]++;
        }
        int[][] adj = new int[n][];
        for (int i = 0; i < n; i++) {
            adj[i] = new int[count[i]];
        }
        Arrays.fill(count, 0);
        for (int e = 0; e < from.length; e++) {
            adj[from[e]][count[from[e]]++] = to[e];
        }
        return adj;
    }

    /** Weakly connected component per vertex, as the smallest entity id in it. */
    long[] weak() {
        int n = ids.length;
        int[] parent = new int[n];
        for (int i = 0; i < n; i++) {
            parent[i] = i;
        }
        for (int v = 0; v < n; v++) {
            for (int w : out[v]) {
                int a = find(parent, v), b = find(parent, w);
                if (a != b) {
                    parent[a] = b;
                }
            }
        }
        return smallestIdPerLabel(i -> find(parent, i));
    }

    private static int find(int[] parent, int x) {
        while (parent[x] != x) {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        return x;
    }

    /** Strongly connected component per vertex (Tarjan, iterative), as the smallest entity id in it. */
    long[] strong() {
        int n = ids.length;
        int[] index = new int[n], low = new int[n], comp = new int[n], edgePos = new int[n];
        Arrays.fill(index, -1);
        boolean[] onStack = new boolean[n];
        int[] stack = new int[n], call = new int[n];
        int sp = 0, next = 0, comps = 0;
        for (int root = 0; root < n; root++) {
            if (index[root] != -1) {
                continue;
            }
            int cp = 0;
            call[cp++] = root;
            index[root] = low[root] = next++;
            stack[sp++] = root;
            onStack[root] = true;
            while (cp > 0) {
                int v = call[cp - 1];
                if (edgePos[v] < out[v].length) {
                    int w = out[v][edgePos[v]++];
                    if (index[w] == -1) {
                        index[w] = low[w] = next++;
                        stack[sp++] = w;
                        onStack[w] = true;
                        call[cp++] = w;
                    } else if (onStack[w]) {
                        low[v] = Math.min(low[v], index[w]);
                    }
                    continue;
                }
                if (low[v] == index[v]) {
                    int w;
                    do {
                        w = stack[--sp];
                        onStack[w] = false;
                        comp[w] = comps;
                    } while (w != v);
                    comps++;
                }
                cp--;
                if (cp > 0) {
                    int u = call[cp - 1];
                    low[u] = Math.min(low[u], low[v]);
                }
            }
        }
        return smallestIdPerLabel(i -> comp[i]);
    }

    private long[] smallestIdPerLabel(java.util.function.IntUnaryOperator label) {
        int n = ids.length;
        long[] smallest = new long[n];
        Arrays.fill(smallest, Long.MAX_VALUE);
        int[] l = new int[n];
        for (int i = 0; i < n; i++) {
            l[i] = label.applyAsInt(i);
            smallest[l[i]] = Math.min(smallest[l[i]], ids[i]);
        }
        long[] result = new long[n];
        for (int i = 0; i < n; i++) {
            result[i] = smallest[l[i]];
        }
        return result;
    }

    /** Number of other vertices reachable from {@code v} along {@code adj} (BFS). */
    static int reach(int[][] adj, int v) {
        boolean[] seen = new boolean[adj.length];
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        seen[v] = true;
        queue.add(v);
        int count = 0;
        while (!queue.isEmpty()) {
            for (int w : adj[queue.poll()]) {
                if (!seen[w]) {
                    seen[w] = true;
                    count++;
                    queue.add(w);
                }
            }
        }
        return count;
    }

    int descendants(int v) {
        return reach(out, v);
    }

    int ancestors(int v) {
        return reach(in, v);
    }

    /** PageRank with the job's conventions: 1/N start, damping d, dangling rank spread evenly. */
    double[] pageRank(int iterations, double d) {
        int n = ids.length;
        double[] rank = new double[n];
        Arrays.fill(rank, 1.0 / n);
        for (int it = 0; it < iterations; it++) {
            double dangling = 0;
            double[] next = new double[n];
            for (int v = 0; v < n; v++) {
                if (out[v].length == 0) {
                    dangling += rank[v];
                } else {
                    double share = rank[v] / out[v].length;
                    for (int w : out[v]) {
                        next[w] += share;
                    }
                }
            }
            for (int v = 0; v < n; v++) {
                next[v] = (1 - d) / n + d * (next[v] + dangling / n);
            }
            rank = next;
        }
        return rank;
    }
}
