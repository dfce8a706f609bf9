package dev.quiver.analytics;

import it.unimi.dsi.fastutil.ints.IntArrays;

/**
 * In- and out-degrees of every node: per relationship (the number of pairs {@code (R, *)} the
 * node owns, and of pairs {@code (R, node)} owned by others) and merged over the graph's
 * relationships (distinct neighbours, so an edge present under two relationships counts once).
 * A self-loop counts once in each direction.
 */
public final class Degrees {
    private final Graph graph;
    private final int[] out;
    private final int[] in;

    private Degrees(Graph graph, int[] out, int[] in) {
        this.graph = graph;
        this.out = out;
        this.in = in;
    }

    static Degrees of(Graph g) {
        int n = g.nodeCount();
        int[] s = g.outStart();
        int[] out = new int[n];
        int[] in = new int[n];
        int[] t = g.outTargets();
        for (int v = 0; v < n; v++) {
            out[v] = s[v + 1] - s[v];
        }
        for (int x : t) {
            in[x]++;
        }
        return new Degrees(g, out, in);
    }

    /** The graph these degrees describe. */
    public Graph graph() {
        return graph;
    }

    /** Merged out-degree of a node: its distinct targets. */
    public int out(int node) {
        return out[node];
    }

    /** Merged in-degree of a node: its distinct sources. */
    public int in(int node) {
        return in[node];
    }

    /** Merged out-degrees, indexed by node. Do not modify. */
    public int[] outArray() {
        return out;
    }

    /** Merged in-degrees, indexed by node. Do not modify. */
    public int[] inArray() {
        return in;
    }

    /** Out-degree of a node under the {@code r}-th relationship of {@link Graph#relationships()}. */
    public int out(int node, int r) {
        return graph.outDegreeByRelationship()[r][node];
    }

    /** In-degree of a node under the {@code r}-th relationship of {@link Graph#relationships()}. */
    public int in(int node, int r) {
        return graph.inDegreeByRelationship()[r][node];
    }

    /**
     * The degree distribution: {@code result[d]} is the number of nodes of degree {@code d}.
     *
     * @param direction {@link Direction#OUT} or {@link Direction#IN} (merged degrees), or
     *                  {@link Direction#BOTH} for their sum
     */
    public long[] distribution(Direction direction) {
        int max = 0;
        int n = out.length;
        for (int v = 0; v < n; v++) {
            max = Math.max(max, degree(v, direction));
        }
        long[] h = new long[n == 0 ? 0 : max + 1];
        for (int v = 0; v < n; v++) {
            h[degree(v, direction)]++;
        }
        return h;
    }

    /** The merged degree of a node in a direction ({@link Direction#BOTH}: in + out). */
    public int degree(int node, Direction direction) {
        switch (direction) {
            case OUT:
                return out[node];
            case IN:
                return in[node];
            default:
                return out[node] + in[node];
        }
    }

    /**
     * The {@code k} nodes of highest degree, highest first; ties in node (entity index) order.
     *
     * @throws AnalyticsInputException when {@code k < 0}
     */
    public int[] top(int k, Direction direction) {
        if (k < 0) {
            throw new AnalyticsInputException("top count must be at least 0, got " + k);
        }
        int n = out.length;
        int[] nodes = new int[n];
        for (int v = 0; v < n; v++) {
            nodes[v] = v;
        }
        IntArrays.mergeSort(nodes, (a, b) -> {
            int c = Integer.compare(degree(b, direction), degree(a, direction));
            return c != 0 ? c : Integer.compare(a, b);
        });
        return java.util.Arrays.copyOf(nodes, Math.min(k, n));
    }
}
