package dev.quiver.analytics;

/**
 * Weakly connected components: the components of the graph with edges read both ways. Computed
 * by union-find with path halving over the edge list. Components are numbered
 * {@code 0 .. count()-1} in the order of their first node (lowest entity index).
 */
public final class WeakComponents {
    private final int[] component;
    private final int[] size;

    private WeakComponents(int[] component, int[] size) {
        this.component = component;
        this.size = size;
    }

    static WeakComponents of(Graph g) {
        int n = g.nodeCount();
        int[] parent = new int[n];
        for (int v = 0; v < n; v++) {
            parent[v] = v;
        }
        int[] start = g.outStart();
        int[] adj = g.outTargets();
        for (int u = 0; u < n; u++) {
            for (int e = start[u]; e < start[u + 1]; e++) {
                int a = find(parent, u);
                int b = find(parent, adj[e]);
                if (a != b) {
                    // the smaller root wins, so every root is the lowest node of its set
                    if (a < b) {
                        parent[b] = a;
                    } else {
                        parent[a] = b;
                    }
                }
            }
        }
        int[] component = new int[n];
        int count = 0;
        int[] idOfRoot = new int[n];
        for (int v = 0; v < n; v++) {
            int r = find(parent, v);
            if (r == v) {
                idOfRoot[v] = count++;
            }
            component[v] = idOfRoot[r];
        }
        int[] size = new int[count];
        for (int v = 0; v < n; v++) {
            size[component[v]]++;
        }
        return new WeakComponents(component, size);
    }

    private static int find(int[] parent, int v) {
        while (parent[v] != v) {
            parent[v] = parent[parent[v]];
            v = parent[v];
        }
        return v;
    }

    /** Number of components. */
    public int count() {
        return size.length;
    }

    /** The component of a node. */
    public int component(int node) {
        return component[node];
    }

    /** Components indexed by node. Do not modify. */
    public int[] componentArray() {
        return component;
    }

    /** Number of nodes of a component. */
    public int size(int component) {
        return size[component];
    }

    /** The size of the largest component, 0 for an empty graph. */
    public int largest() {
        int m = 0;
        for (int s : size) {
            m = Math.max(m, s);
        }
        return m;
    }
}
