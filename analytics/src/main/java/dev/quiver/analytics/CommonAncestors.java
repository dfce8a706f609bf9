package dev.quiver.analytics;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntArrays;

import java.util.Arrays;

/**
 * The lowest common ancestors of two nodes, reading the relationships as transitive and reflexive
 * (an edge {@code u -> v} makes v an ancestor of u, e.g. a WordNet hypernym; every node is its own
 * ancestor). A common ancestor is <em>lowest</em> when no other common ancestor lies below it, that
 * is no edge enters its cycle group (any node of it) from a common ancestor outside the group (all
 * ancestors of a common ancestor are common, so one edge is enough to tell). In a DAG this is the usual set of minimal
 * common ancestors; {@code lca(dog, cat)} in WordNet's KindOf is {@code carnivore_n_01}.
 *
 * <p>Results are ordered by the sum of the two shortest distances, then by node.
 *
 * @param nodes     the lowest common ancestors (empty when the two share no ancestor)
 * @param distanceA fewest edges from the first node to each, {@code distanceA[i]} for {@code nodes[i]}
 * @param distanceB fewest edges from the second node to each
 */
public record CommonAncestors(int[] nodes, int[] distanceA, int[] distanceB) {
    static CommonAncestors of(Graph g, int a, int b) {
        int[] da = distances(g, a);
        int[] db = distances(g, b);
        StrongComponents s = g.strongComponents();
        int[] inStart = g.inStart();
        int[] in = g.inSources();
        // a cycle group is entered when an edge comes into any of its nodes from a common ancestor
        // outside it: then every node of the group lies above that ancestor (found by a random test:
        // checking the in-edges of the node alone missed edges into the rest of its group)
        boolean[] entered = new boolean[s.count()];
        for (int c = 0; c < da.length; c++) {
            if (da[c] < 0 || db[c] < 0) {
                continue;
            }
            for (int e = inStart[c]; e < inStart[c + 1]; e++) {
                int d = in[e];
                if (da[d] >= 0 && db[d] >= 0 && s.component(d) != s.component(c)) {
                    entered[s.component(c)] = true;
                    break;
                }
            }
        }
        IntArrayList found = new IntArrayList();
        for (int c = 0; c < da.length; c++) {
            if (da[c] >= 0 && db[c] >= 0 && !entered[s.component(c)]) {
                found.add(c);
            }
        }
        int[] nodes = found.toIntArray();
        IntArrays.mergeSort(nodes, (x, y) -> {
            int cmp = Integer.compare(da[x] + db[x], da[y] + db[y]);
            return cmp != 0 ? cmp : Integer.compare(x, y);
        });
        int[] ra = new int[nodes.length];
        int[] rb = new int[nodes.length];
        for (int i = 0; i < nodes.length; i++) {
            ra[i] = da[nodes[i]];
            rb[i] = db[nodes[i]];
        }
        return new CommonAncestors(nodes, ra, rb);
    }

    /** Fewest edges from {@code from} to every node along the out-lists, -1 when unreachable. */
    private static int[] distances(Graph g, int from) {
        int n = g.nodeCount();
        int[] dist = new int[n];
        Arrays.fill(dist, -1);
        int[] start = g.outStart();
        int[] adj = g.outTargets();
        int[] queue = new int[n];
        int head = 0;
        int tail = 0;
        dist[from] = 0;
        queue[tail++] = from;
        while (head < tail) {
            int v = queue[head++];
            for (int e = start[v]; e < start[v + 1]; e++) {
                int w = adj[e];
                if (dist[w] < 0) {
                    dist[w] = dist[v] + 1;
                    queue[tail++] = w;
                }
            }
        }
        return dist;
    }

    /** Number of lowest common ancestors. */
    public int size() {
        return nodes.length;
    }
}
