package dev.quiver.analytics;

import java.util.Arrays;

/**
 * Communities by label propagation (Raghavan, Albert, Kumara 2007), made deterministic: the graph
 * is read as undirected (a node's neighbours are its targets and its sources, an edge present both
 * ways counting twice; self-loops ignored); every node starts with its own label; sweeps visit the
 * nodes in node order and give each the label most frequent among its neighbours, keeping its
 * current label when that is among the most frequent and otherwise taking the smallest; sweeps
 * stop when one changes nothing, or after {@code maxSweeps}. Isolated nodes keep their own label.
 * Communities are numbered {@code 0 .. count()-1} in the order of their first node.
 */
public final class Communities {
    private final int[] community;
    private final int[] size;
    private final int sweeps;
    private final boolean converged;

    private Communities(int[] community, int[] size, int sweeps, boolean converged) {
        this.community = community;
        this.size = size;
        this.sweeps = sweeps;
        this.converged = converged;
    }

    static Communities of(Graph g, int maxSweeps) {
        if (maxSweeps < 1) {
            throw new AnalyticsInputException("sweeps must be at least 1, got " + maxSweeps);
        }
        int n = g.nodeCount();
        int[] os = g.outStart();
        int[] ot = g.outTargets();
        int[] is = g.inStart();
        int[] it = g.inSources();
        int[] label = new int[n];
        for (int v = 0; v < n; v++) {
            label[v] = v;
        }
        int[] count = new int[n];
        int[] touched = new int[n];
        int sweeps = 0;
        boolean converged = n == 0;
        Progress p = g.progress();
        while (!converged && sweeps < maxSweeps) {
            boolean changed = false;
            for (int v = 0; v < n; v++) {
                int nt = 0;
                for (int e = os[v]; e < os[v + 1]; e++) {
                    int w = ot[e];
                    if (w != v && count[label[w]]++ == 0) {
                        touched[nt++] = label[w];
                    }
                }
                for (int e = is[v]; e < is[v + 1]; e++) {
                    int w = it[e];
                    if (w != v && count[label[w]]++ == 0) {
                        touched[nt++] = label[w];
                    }
                }
                if (nt == 0) {
                    continue;
                }
                int best = -1;
                int bestCount = 0;
                for (int i = 0; i < nt; i++) {
                    int l = touched[i];
                    int c = count[l];
                    if (c > bestCount || (c == bestCount && l < best)) {
                        best = l;
                        bestCount = c;
                    }
                }
                int mine = count[label[v]];
                for (int i = 0; i < nt; i++) {
                    count[touched[i]] = 0;
                }
                if (mine == bestCount) {
                    continue;
                }
                label[v] = best;
                changed = true;
            }
            sweeps++;
            p.update("communities", sweeps, maxSweeps);
            converged = !changed;
        }
        int[] id = new int[n];
        Arrays.fill(id, -1);
        int k = 0;
        int[] community = new int[n];
        for (int v = 0; v < n; v++) {
            if (id[label[v]] < 0) {
                id[label[v]] = k++;
            }
            community[v] = id[label[v]];
        }
        int[] size = new int[k];
        for (int c : community) {
            size[c]++;
        }
        return new Communities(community, size, sweeps, converged);
    }

    /** Number of communities. */
    public int count() {
        return size.length;
    }

    /** The community of a node. */
    public int community(int node) {
        return community[node];
    }

    /** Communities indexed by node. Do not modify. */
    public int[] communityArray() {
        return community;
    }

    /** Number of nodes of a community. */
    public int size(int community) {
        return size[community];
    }

    /** The size of the largest community, 0 for an empty graph. */
    public int largest() {
        int m = 0;
        for (int s : size) {
            m = Math.max(m, s);
        }
        return m;
    }

    /** Number of sweeps run. */
    public int sweeps() {
        return sweeps;
    }

    /** True when the last sweep changed no label. */
    public boolean converged() {
        return converged;
    }
}
