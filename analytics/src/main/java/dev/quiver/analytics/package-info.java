/**
 * Offline graph analytics over a stored world: degrees, weakly and strongly connected components
 * with the condensation, topological layers, exact transitive closure sizes, depth, shortest paths,
 * k-hop neighbourhoods, lowest common ancestors, PageRank and label propagation communities.
 *
 * <p>Entry point: {@link dev.quiver.analytics.Analytics#of(dev.quiver.storage.World)}, then
 * {@link dev.quiver.analytics.Analytics#graph(String...)} builds a {@link dev.quiver.analytics.Graph}
 * once (a compressed sparse row adjacency over the pairs of the chosen relationships, read from the
 * component index's tables) and every algorithm runs on it. Results are primitive arrays indexed by
 * <em>node</em>: nodes are the entities that own or are the target of at least one of the chosen
 * pairs, numbered densely in entity-index order; {@link dev.quiver.analytics.Graph#entity(int)} and
 * {@link dev.quiver.analytics.Graph#node(long)} convert. No algorithm allocates an object per entity,
 * and none recurses, so deep graphs (a chain of a million entities) cannot overflow the stack.
 */
package dev.quiver.analytics;
