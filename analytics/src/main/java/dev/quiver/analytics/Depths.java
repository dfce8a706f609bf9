package dev.quiver.analytics;

import java.util.Arrays;

/**
 * Distance to the roots. A <b>root</b> is a node with no outgoing edge (the top of a hierarchy whose
 * edges point from child to parent: {@code entity_n_01} for KindOf, {@code n0} for RG-1's
 * LocatedIn, a package with no dependency); a <b>leaf</b> is a node no edge enters.
 * <ul>
 *   <li>{@code shortest(v)}: the fewest edges on a path from v to some root (0 for a root); by one
 *       breadth-first search from all roots along the in-lists.</li>
 *   <li>{@code longest(v)}: the most edges on a path from v to some root, counted on the
 *       condensation (the steps between cycle groups; within a DAG this is the plain longest path);
 *       by dynamic programming in reverse topological order.</li>
 * </ul>
 * Both are -1 for a node from which no root can be reached (it can only reach cycles that have no
 * way out).
 */
public final class Depths {
    private final Graph graph;
    private final int[] shortest;
    private final int[] longest;

    private Depths(Graph graph, int[] shortest, int[] longest) {
        this.graph = graph;
        this.shortest = shortest;
        this.longest = longest;
    }

    static Depths of(Graph g, StrongComponents s) {
        int n = g.nodeCount();
        int[] start = g.outStart();
        int[] inStart = g.inStart();
        int[] in = g.inSources();
        int[] shortest = new int[n];
        Arrays.fill(shortest, -1);
        int[] queue = new int[n];
        int head = 0;
        int tail = 0;
        for (int v = 0; v < n; v++) {
            if (start[v + 1] == start[v]) {
                shortest[v] = 0;
                queue[tail++] = v;
            }
        }
        while (head < tail) {
            int v = queue[head++];
            for (int e = inStart[v]; e < inStart[v + 1]; e++) {
                int u = in[e];
                if (shortest[u] < 0) {
                    shortest[u] = shortest[v] + 1;
                    queue[tail++] = u;
                }
            }
        }
        int nc = s.count();
        int[] cs = s.condensationStart();
        int[] dag = s.condensationTargets();
        int[] lc = new int[nc];
        for (int c = nc - 1; c >= 0; c--) {
            if (cs[c + 1] == cs[c]) {
                lc[c] = s.isCyclic(c) ? -1 : 0;
                continue;
            }
            int best = -1;
            for (int e = cs[c]; e < cs[c + 1]; e++) {
                int d = lc[dag[e]];
                if (d >= 0 && d + 1 > best) {
                    best = d + 1;
                }
            }
            lc[c] = best;
        }
        int[] longest = new int[n];
        for (int v = 0; v < n; v++) {
            longest[v] = lc[s.component(v)];
        }
        return new Depths(g, shortest, longest);
    }

    /** Fewest edges from the node to a root; 0 for a root, -1 when no root is reachable. */
    public int shortest(int node) {
        return shortest[node];
    }

    /** Most condensation edges from the node to a root; 0 for a root, -1 when no root is reachable. */
    public int longest(int node) {
        return longest[node];
    }

    /** Shortest depths indexed by node. Do not modify. */
    public int[] shortestArray() {
        return shortest;
    }

    /** Longest depths indexed by node. Do not modify. */
    public int[] longestArray() {
        return longest;
    }

    /** True when the node has no outgoing edge. */
    public boolean isRoot(int node) {
        int[] s = graph.outStart();
        return s[node + 1] == s[node];
    }

    /** True when no edge enters the node. */
    public boolean isLeaf(int node) {
        int[] s = graph.inStart();
        return s[node + 1] == s[node];
    }

    /** Number of roots. */
    public int rootCount() {
        int k = 0;
        for (int v = 0; v < shortest.length; v++) {
            k += isRoot(v) ? 1 : 0;
        }
        return k;
    }

    /** Number of leaves. */
    public int leafCount() {
        int k = 0;
        for (int v = 0; v < shortest.length; v++) {
            k += isLeaf(v) ? 1 : 0;
        }
        return k;
    }

    /** The largest longest depth, -1 when no node reaches a root (or the graph is empty). */
    public int maxDepth() {
        int m = -1;
        for (int d : longest) {
            m = Math.max(m, d);
        }
        return m;
    }
}
