package dev.quiver.analytics;

import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;
import dev.quiver.storage.World;

import java.util.ArrayList;
import java.util.List;

/**
 * Per-node results as named columns (integers or reals), ready to print one row per entity or to
 * write back to the world as a component ({@link #write}). The factories give each per-entity
 * algorithm its standard columns, e.g. {@code forward, reverse} for closure sizes.
 */
public final class NodeValues {
    /** One column: exactly one of {@code ints} and {@code reals} is non-null; indexed by node. */
    public record Column(String name, long[] ints, double[] reals) {
        /** True when the column holds integers (stored as {@code i64}), false for reals ({@code f64}). */
        public boolean integral() {
            return ints != null;
        }

        /** The value at a node as a Long or a Double. */
        public Object value(int node) {
            return ints != null ? (Object) ints[node] : (Object) reals[node];
        }
    }

    private final Graph graph;
    private final List<Column> columns = new ArrayList<>();

    /** Empty columns over the nodes of {@code graph}. */
    public NodeValues(Graph graph) {
        this.graph = graph;
    }

    /** Adds an integer column (values indexed by node). */
    public NodeValues add(String name, int[] values) {
        long[] l = new long[values.length];
        for (int i = 0; i < l.length; i++) {
            l[i] = values[i];
        }
        return add(new Column(name, l, null));
    }

    /** Adds a real column (values indexed by node). */
    public NodeValues add(String name, double[] values) {
        return add(new Column(name, null, values.clone()));
    }

    private NodeValues add(Column c) {
        int n = c.ints != null ? c.ints.length : c.reals.length;
        if (n != graph.nodeCount()) {
            throw new IllegalArgumentException("column " + c.name + " has " + n + " values for " + graph.nodeCount() + " nodes");
        }
        columns.add(c);
        return this;
    }

    /** The graph whose nodes the rows are. */
    public Graph graph() {
        return graph;
    }

    /** The columns, in order. */
    public List<Column> columns() {
        return List.copyOf(columns);
    }

    /** Out- and in-degree, merged over the relationships: columns {@code out, in}. */
    public static NodeValues of(Degrees d) {
        return new NodeValues(d.graph()).add("out", d.outArray()).add("in", d.inArray());
    }

    /** Weak components: columns {@code component, size}. */
    public static NodeValues of(Graph g, WeakComponents w) {
        int[] size = new int[g.nodeCount()];
        for (int v = 0; v < size.length; v++) {
            size[v] = w.size(w.component(v));
        }
        return new NodeValues(g).add("component", w.componentArray()).add("size", size);
    }

    /** Strong components: columns {@code component, size} (component = topological position). */
    public static NodeValues of(StrongComponents s) {
        Graph g = s.graph();
        int[] size = new int[g.nodeCount()];
        for (int v = 0; v < size.length; v++) {
            size[v] = s.size(s.component(v));
        }
        return new NodeValues(g).add("component", s.componentArray()).add("size", size);
    }

    /** Topological layers: columns {@code order, generation}. */
    public static NodeValues of(TopologicalLayers t) {
        Graph g = t.strongComponents().graph();
        int[] gen = new int[g.nodeCount()];
        for (int v = 0; v < gen.length; v++) {
            gen[v] = t.nodeGeneration(v);
        }
        return new NodeValues(g).add("order", t.strongComponents().componentArray()).add("generation", gen);
    }

    /** Closure sizes: columns {@code forward, reverse}. */
    public static NodeValues of(Graph g, ClosureSizes c) {
        return new NodeValues(g).add("forward", c.forwardArray()).add("reverse", c.reverseArray());
    }

    /** Depths: columns {@code shortest, longest, root, leaf} (root and leaf are 0 or 1). */
    public static NodeValues of(Graph g, Depths d) {
        int n = g.nodeCount();
        int[] root = new int[n];
        int[] leaf = new int[n];
        for (int v = 0; v < n; v++) {
            root[v] = d.isRoot(v) ? 1 : 0;
            leaf[v] = d.isLeaf(v) ? 1 : 0;
        }
        return new NodeValues(g).add("shortest", d.shortestArray()).add("longest", d.longestArray())
                .add("root", root).add("leaf", leaf);
    }

    /** PageRank: column {@code rank}. */
    public static NodeValues of(Graph g, PageRank p) {
        return new NodeValues(g).add("rank", p.rankArray());
    }

    /** Communities: columns {@code community, size}. */
    public static NodeValues of(Graph g, Communities c) {
        int[] size = new int[g.nodeCount()];
        for (int v = 0; v < size.length; v++) {
            size[v] = c.size(c.community(v));
        }
        return new NodeValues(g).add("community", c.communityArray()).add("size", size);
    }

    /** The component schema of these columns: {@code i64} for integers, {@code f64} for reals. */
    public Schema schema() {
        Object[] pairs = new Object[columns.size() * 2];
        for (int i = 0; i < columns.size(); i++) {
            pairs[2 * i] = columns.get(i).name();
            pairs[2 * i + 1] = columns.get(i).integral() ? FieldType.I64 : FieldType.F64;
        }
        return Schema.of(pairs);
    }

    /**
     * Stores the values as a component on every node's entity, in one transaction: declares the
     * component {@code name} with {@link #schema()} (re-declaring an equal schema is fine) and sets
     * it on each entity, so that queries (e.g. {@code Impact}) and rules can use them.
     *
     * @return the component's id
     * @throws dev.quiver.storage.ConstraintException when {@code name} already has another schema
     *                                                or is in use as a plain id
     * @throws dev.quiver.storage.ReadOnlyException   when the world is open read-only
     * @throws dev.quiver.storage.IdException         when {@code name} is not a valid path
     */
    public long write(World world, String name) {
        Schema schema = schema();
        int n = graph.nodeCount();
        int cols = columns.size();
        return world.transactionResult(w -> {
            long c = w.component(name, schema);
            Object[] row = new Object[cols];
            for (int v = 0; v < n; v++) {
                for (int i = 0; i < cols; i++) {
                    row[i] = columns.get(i).value(v);
                }
                w.set(graph.entity(v), c, row);
            }
            return c;
        });
    }
}
