package dev.quiver.analytics;

/**
 * The nodes within k edges of a center (the center excluded), in order of distance then node.
 *
 * @param nodes    the nodes
 * @param distance {@code distance[i]} is the number of edges from the center to {@code nodes[i]}, 1..k
 */
public record Neighbourhood(int[] nodes, int[] distance) {
    /** Number of nodes. */
    public int size() {
        return nodes.length;
    }
}
