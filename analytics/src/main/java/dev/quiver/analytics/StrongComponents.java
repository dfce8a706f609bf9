package dev.quiver.analytics;

import it.unimi.dsi.fastutil.ints.IntArrays;

import java.util.Arrays;

/**
 * Strongly connected components and the condensation (the DAG with one node per component and an
 * edge {@code C -> D} when some edge leads from C to D), by an iterative Tarjan walk (an explicit
 * stack of (node, next edge), so a chain of a million nodes needs no deep recursion).
 *
 * <p>Components are numbered {@code 0 .. count()-1} in <b>topological order</b>: every edge between
 * two components goes from a lower to a higher number (so sources, such as the packages nothing
 * depends on, come first and sinks last). A component is <b>cyclic</b> (a non-trivial cycle group)
 * when it has more than one node, or one node with a self-loop; its nodes reach themselves.
 */
public final class StrongComponents {
    private final Graph graph;
    private final int[] component;
    private final int[] size;
    private final boolean[] cyclic;
    private final int[] memberStart;
    private final int[] members;
    private final int[] dagStart;
    private final int[] dag;

    private StrongComponents(Graph graph, int[] component, int[] size, boolean[] cyclic, int[] memberStart,
                             int[] members, int[] dagStart, int[] dag) {
        this.graph = graph;
        this.component = component;
        this.size = size;
        this.cyclic = cyclic;
        this.memberStart = memberStart;
        this.members = members;
        this.dagStart = dagStart;
        this.dag = dag;
    }

    static StrongComponents of(Graph g) {
        int n = g.nodeCount();
        int[] start = g.outStart();
        int[] adj = g.outTargets();
        int[] index = new int[n];
        Arrays.fill(index, -1);
        int[] low = new int[n];
        boolean[] onStack = new boolean[n];
        int[] stack = new int[n];
        int sp = 0;
        int[] callNode = new int[n];
        int[] callEdge = new int[n];
        int[] comp = new int[n];
        int counter = 0;
        int count = 0;
        for (int root = 0; root < n; root++) {
            if (index[root] >= 0) {
                continue;
            }
            int csp = 0;
            index[root] = low[root] = counter++;
            stack[sp++] = root;
            onStack[root] = true;
            callNode[csp] = root;
            callEdge[csp] = start[root];
            csp++;
            while (csp > 0) {
                int v = callNode[csp - 1];
                int e = callEdge[csp - 1];
                if (e < start[v + 1]) {
                    callEdge[csp - 1] = e + 1;
                    int w = adj[e];
                    if (index[w] < 0) {
                        index[w] = low[w] = counter++;
                        stack[sp++] = w;
                        onStack[w] = true;
                        callNode[csp] = w;
                        callEdge[csp] = start[w];
                        csp++;
                    } else if (onStack[w] && index[w] < low[v]) {
                        low[v] = index[w];
                    }
                } else {
                    csp--;
                    if (low[v] == index[v]) {
                        int x;
                        do {
                            x = stack[--sp];
                            onStack[x] = false;
                            comp[x] = count;
                        } while (x != v);
                        count++;
                    }
                    if (csp > 0) {
                        int u = callNode[csp - 1];
                        if (low[v] < low[u]) {
                            low[u] = low[v];
                        }
                    }
                }
            }
        }
        // Tarjan completes sinks first: reverse the numbering into topological order
        int[] size = new int[count];
        for (int v = 0; v < n; v++) {
            comp[v] = count - 1 - comp[v];
            size[comp[v]]++;
        }
        int[] memberStart = new int[count + 1];
        for (int c = 0; c < count; c++) {
            memberStart[c + 1] = memberStart[c] + size[c];
        }
        int[] members = new int[n];
        int[] fill = Arrays.copyOf(memberStart, count);
        for (int v = 0; v < n; v++) {
            members[fill[comp[v]]++] = v;
        }
        boolean[] cyclic = new boolean[count];
        int[] dagStart = new int[count + 1];
        int[] dag = new int[Math.max(16, Math.min(adj.length, 1 << 20))];
        int[] mark = new int[count];
        Arrays.fill(mark, -1);
        int m = 0;
        for (int c = 0; c < count; c++) {
            cyclic[c] = size[c] > 1;
            dagStart[c] = m;
            for (int i = memberStart[c]; i < memberStart[c + 1]; i++) {
                int u = members[i];
                for (int e = start[u]; e < start[u + 1]; e++) {
                    int d = comp[adj[e]];
                    if (d == c) {
                        if (adj[e] == u) {
                            cyclic[c] = true;
                        }
                    } else if (mark[d] != c) {
                        mark[d] = c;
                        if (m == dag.length) {
                            dag = Arrays.copyOf(dag, Math.max(m * 2, 16));
                        }
                        dag[m++] = d;
                    }
                }
            }
            IntArrays.quickSort(dag, dagStart[c], m);
        }
        dagStart[count] = m;
        return new StrongComponents(g, comp, size, cyclic, memberStart, members, dagStart, Arrays.copyOf(dag, m));
    }

    /** The graph these components partition. */
    public Graph graph() {
        return graph;
    }

    /** Number of components (trivial ones included). */
    public int count() {
        return size.length;
    }

    /** The component of a node (its position in topological order). */
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

    /** Component sizes indexed by component. Do not modify. */
    public int[] sizeArray() {
        return size;
    }

    /** True when the component is a non-trivial cycle group (several nodes, or a self-loop). */
    public boolean isCyclic(int component) {
        return cyclic[component];
    }

    /** The nodes of a component, ascending. */
    public int[] members(int component) {
        return Arrays.copyOfRange(members, memberStart[component], memberStart[component + 1]);
    }

    /** The cyclic components, in component order. */
    public int[] cyclicComponents() {
        int k = 0;
        for (boolean b : cyclic) {
            k += b ? 1 : 0;
        }
        int[] out = new int[k];
        k = 0;
        for (int c = 0; c < cyclic.length; c++) {
            if (cyclic[c]) {
                out[k++] = c;
            }
        }
        return out;
    }

    /** The size of the largest component, 0 for an empty graph. */
    public int largest() {
        int m = 0;
        for (int s : size) {
            m = Math.max(m, s);
        }
        return m;
    }

    /**
     * The condensation's CSR row starts: the successors of component {@code c} are
     * {@code condensationTargets()[condensationStart()[c] .. condensationStart()[c+1]-1]}, distinct,
     * ascending, and all greater than {@code c}. Do not modify.
     */
    public int[] condensationStart() {
        return dagStart;
    }

    /** The condensation's CSR targets (see {@link #condensationStart()}). Do not modify. */
    public int[] condensationTargets() {
        return dag;
    }

    /** Number of condensation edges. */
    public int condensationEdgeCount() {
        return dag.length;
    }
}
