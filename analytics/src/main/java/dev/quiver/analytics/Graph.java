package dev.quiver.analytics;

import dev.quiver.index.Ids;
import dev.quiver.storage.World;

/**
 * The directed graph of one or more relationships, as built once per analysis by
 * {@link Analytics#graph(String...)}: an edge {@code u -> v} for every pair {@code (R, v)} that
 * {@code u} owns, for each chosen R. Edges of several relationships are merged (the same
 * {@code (u, v)} under two relationships is one edge); per-relationship degrees are kept apart.
 * Self-loops are kept.
 *
 * <p><b>Nodes.</b> The nodes are the entities that are the source or the target of at least one
 * edge, numbered {@code 0 .. nodeCount()-1} in ascending entity index. Every result array of this
 * package is indexed by node. {@link #entity(int)} gives a node's entity id and {@link #node(long)}
 * the node of an entity (or -1).
 *
 * <p><b>Layout.</b> Compressed sparse rows: the targets of node {@code v} are
 * {@code outTargets()[outStart()[v] .. outStart()[v+1]-1]}, sorted ascending; the in-lists are the
 * transpose, built on first use. Memory is about {@code 8 * edges + 12 * nodes} bytes plus
 * {@code 8 * nodes} per relationship for degrees.
 *
 * <p>The graph is a snapshot: later changes to the world do not show. Results that are shared by
 * several algorithms (strong components, the in-lists) are computed once and cached. Not
 * thread-safe.
 */
public final class Graph {
    private final World world;
    private final long[] relationships;
    private final long[] entity;
    private final int[] nodeOfIndex;
    private final int[] outStart;
    private final int[] out;
    private final int[][] outDegree;
    private final int[][] inDegree;
    private int[] inStart;
    private int[] in;
    private StrongComponents strong;
    private Progress progress = Progress.NONE;

    Graph(World world, long[] relationships, long[] entity, int[] nodeOfIndex, int[] outStart, int[] out,
          int[][] outDegree, int[][] inDegree) {
        this.world = world;
        this.relationships = relationships;
        this.entity = entity;
        this.nodeOfIndex = nodeOfIndex;
        this.outStart = outStart;
        this.out = out;
        this.outDegree = outDegree;
        this.inDegree = inDegree;
    }

    /** Reports progress of the long algorithms (closure sizes, PageRank) to {@code p}. */
    public Graph progress(Progress p) {
        this.progress = p == null ? Progress.NONE : p;
        return this;
    }

    Progress progress() {
        return progress;
    }

    /** The world the graph was read from. */
    public World world() {
        return world;
    }

    /** The relationship entity ids, in the order given. */
    public long[] relationships() {
        return relationships.clone();
    }

    /** Number of nodes. */
    public int nodeCount() {
        return entity.length;
    }

    /** Number of distinct edges {@code (u, v)} over all chosen relationships. */
    public int edgeCount() {
        return out.length;
    }

    /** The entity id of a node. */
    public long entity(int node) {
        return entity[node];
    }

    /** The entity ids of all nodes (a copy): {@code entities()[node]}. */
    public long[] entities() {
        return entity.clone();
    }

    /**
     * The node of an entity, or -1 when it has no edge of the chosen relationships (or is not
     * alive in the world the graph was read from).
     */
    public int node(long entityId) {
        if (Ids.isPair(entityId)) {
            return -1;
        }
        int i = Ids.index(entityId);
        if (i <= 0 || i >= nodeOfIndex.length) {
            return -1;
        }
        int v = nodeOfIndex[i];
        return v >= 0 && entity[v] == entityId ? v : -1;
    }

    /**
     * The node of an entity that the algorithm needs in the graph.
     *
     * @throws AnalyticsInputException when the entity has no edge of the chosen relationships
     */
    int requireNode(long entityId) {
        int v = node(entityId);
        if (v < 0) {
            throw new AnalyticsInputException("entity " + describe(entityId) + " has no pair of "
                    + relationshipNames() + " (it is not a node of the graph)");
        }
        return v;
    }

    private String describe(long e) {
        try {
            return world.isAlive(e) ? world.path(e) : "#" + Ids.index(e);
        } catch (RuntimeException ex) {
            return "#" + Ids.index(e);
        }
    }

    String relationshipNames() {
        StringBuilder sb = new StringBuilder();
        for (long r : relationships) {
            sb.append(sb.length() == 0 ? "" : ",").append(describe(r));
        }
        return sb.toString();
    }

    /** CSR row starts of the out-lists; length {@code nodeCount()+1}. Do not modify. */
    public int[] outStart() {
        return outStart;
    }

    /** CSR targets of the out-lists, each list sorted ascending. Do not modify. */
    public int[] outTargets() {
        return out;
    }

    /** CSR row starts of the in-lists (the transpose); length {@code nodeCount()+1}. Do not modify. */
    public int[] inStart() {
        ensureIn();
        return inStart;
    }

    /** CSR sources of the in-lists, each list sorted ascending. Do not modify. */
    public int[] inSources() {
        ensureIn();
        return in;
    }

    private void ensureIn() {
        if (inStart == null) {
            int[][] t = GraphBuilder.transpose(entity.length, outStart, out);
            inStart = t[0];
            in = t[1];
        }
    }

    /** True when the node has the edge {@code v -> v}. */
    public boolean hasSelfLoop(int v) {
        return java.util.Arrays.binarySearch(out, outStart[v], outStart[v + 1], v) >= 0;
    }

    int[][] outDegreeByRelationship() {
        return outDegree;
    }

    int[][] inDegreeByRelationship() {
        return inDegree;
    }

    // ------------------------------------------------------------------ algorithms

    /** In- and out-degrees, per relationship and merged. O(nodes). */
    public Degrees degrees() {
        return Degrees.of(this);
    }

    /** Weakly connected components (edges read both ways). O(nodes + edges). */
    public WeakComponents weakComponents() {
        return WeakComponents.of(this);
    }

    /** Strongly connected components and the condensation (computed once, then cached). O(nodes + edges). */
    public StrongComponents strongComponents() {
        if (strong == null) {
            strong = StrongComponents.of(this);
        }
        return strong;
    }

    /** Topological order and generations of the condensation. O(nodes + edges). */
    public TopologicalLayers topologicalLayers() {
        return TopologicalLayers.of(strongComponents());
    }

    /** Exact transitive closure sizes in both directions. See {@link ClosureSizes} for the cost. */
    public ClosureSizes closureSizes() {
        return ClosureSizes.of(this, strongComponents());
    }

    /** Shortest and longest distance to a root, roots and leaves. O(nodes + edges). */
    public Depths depths() {
        return Depths.of(this, strongComponents());
    }

    /**
     * A shortest path (fewest edges) from one entity to another along {@code direction}.
     *
     * @return the entities on the path, {@code from} first and {@code to} last ({@code [from]} when
     *         they are the same); empty when {@code to} cannot be reached
     * @throws AnalyticsInputException when either entity is not a node of the graph
     */
    public long[] shortestPath(long from, long to, Direction direction) {
        return Walks.shortestPath(this, requireNode(from), requireNode(to), direction);
    }

    /**
     * The entities within {@code k} edges of {@code center} along {@code direction}, the center
     * itself excluded, ordered by distance then node.
     *
     * @throws AnalyticsInputException when the entity is not a node or {@code k < 0}
     */
    public Neighbourhood neighbourhood(long center, int k, Direction direction) {
        if (k < 0) {
            throw new AnalyticsInputException("hop count must be at least 0, got " + k);
        }
        return Walks.neighbourhood(this, requireNode(center), k, direction);
    }

    /**
     * The lowest common ancestors of two entities, reading the relationships as transitive and
     * reflexive ({@code u -> v} means v is an ancestor of u; every entity is its own ancestor).
     *
     * @throws AnalyticsInputException when either entity is not a node of the graph
     */
    public CommonAncestors lowestCommonAncestors(long a, long b) {
        return CommonAncestors.of(this, requireNode(a), requireNode(b));
    }

    /** PageRank with damping 0.85, at most 100 iterations, tolerance 1e-6 per node (NetworkX's defaults). */
    public PageRank pageRank() {
        return PageRank.of(this, 0.85, 100, 1e-6);
    }

    /**
     * PageRank by power iteration.
     *
     * @param damping       probability of following an edge, in (0, 1)
     * @param maxIterations at most this many iterations (at least 1)
     * @param tolerance     stop when the L1 change of the rank vector is below {@code nodes * tolerance}
     * @throws AnalyticsInputException for a damping outside (0, 1), fewer than one iteration or a
     *                                 negative tolerance
     */
    public PageRank pageRank(double damping, int maxIterations, double tolerance) {
        return PageRank.of(this, damping, maxIterations, tolerance);
    }

    /** Label propagation communities, at most 100 sweeps. O(sweeps * (nodes + edges)). */
    public Communities communities() {
        return Communities.of(this, 100);
    }

    /**
     * Label propagation communities.
     *
     * @param maxSweeps at most this many sweeps over all nodes (at least 1)
     */
    public Communities communities(int maxSweeps) {
        return Communities.of(this, maxSweeps);
    }
}
