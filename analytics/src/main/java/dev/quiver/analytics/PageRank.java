package dev.quiver.analytics;

/**
 * PageRank by power iteration (pull form over the in-lists), with the conventions of NetworkX's
 * {@code pagerank}: rank starts uniform at {@code 1/n}; each step gives every node
 * {@code (1 - damping) / n}, plus {@code damping} times the rank flowing in along edges (a node
 * splits its rank evenly over its distinct targets, a self-loop included), plus {@code damping}
 * times the rank of dangling nodes (no outgoing edge) spread evenly over all nodes. Iteration stops
 * when the L1 change is below {@code n * tolerance} or after {@code maxIterations}. Ranks sum to 1.
 */
public final class PageRank {
    private final double[] rank;
    private final int iterations;
    private final boolean converged;

    private PageRank(double[] rank, int iterations, boolean converged) {
        this.rank = rank;
        this.iterations = iterations;
        this.converged = converged;
    }

    static PageRank of(Graph g, double damping, int maxIterations, double tolerance) {
        if (!(damping > 0 && damping < 1)) {
            throw new AnalyticsInputException("damping must lie in (0, 1), got " + damping);
        }
        if (maxIterations < 1) {
            throw new AnalyticsInputException("iterations must be at least 1, got " + maxIterations);
        }
        if (!(tolerance >= 0)) {
            throw new AnalyticsInputException("tolerance must be at least 0, got " + tolerance);
        }
        int n = g.nodeCount();
        if (n == 0) {
            return new PageRank(new double[0], 0, true);
        }
        int[] outStart = g.outStart();
        int[] inStart = g.inStart();
        int[] in = g.inSources();
        double[] invOut = new double[n];
        for (int v = 0; v < n; v++) {
            int d = outStart[v + 1] - outStart[v];
            invOut[v] = d == 0 ? 0 : 1.0 / d;
        }
        double[] x = new double[n];
        double[] next = new double[n];
        double[] share = new double[n];
        java.util.Arrays.fill(x, 1.0 / n);
        int it = 0;
        boolean converged = false;
        Progress p = g.progress();
        while (it < maxIterations) {
            double dangling = 0;
            for (int v = 0; v < n; v++) {
                share[v] = x[v] * invOut[v];
                if (invOut[v] == 0) {
                    dangling += x[v];
                }
            }
            double base = (1 - damping) / n + damping * dangling / n;
            double err = 0;
            for (int v = 0; v < n; v++) {
                double sum = 0;
                for (int e = inStart[v]; e < inStart[v + 1]; e++) {
                    sum += share[in[e]];
                }
                double r = base + damping * sum;
                next[v] = r;
                err += Math.abs(r - x[v]);
            }
            double[] t = x;
            x = next;
            next = t;
            it++;
            p.update("pagerank", it, maxIterations);
            if (err < n * tolerance) {
                converged = true;
                break;
            }
        }
        return new PageRank(x, it, converged);
    }

    /** The rank of a node; all ranks sum to 1. */
    public double rank(int node) {
        return rank[node];
    }

    /** Ranks indexed by node. Do not modify. */
    public double[] rankArray() {
        return rank;
    }

    /** Number of iterations run. */
    public int iterations() {
        return iterations;
    }

    /** True when the tolerance was reached within the iteration limit. */
    public boolean converged() {
        return converged;
    }
}
