package dev.quiver.analytics;

import dev.quiver.index.Ids;
import dev.quiver.storage.World;

import java.util.Arrays;

/**
 * The entry point of the analytics library.
 *
 * <pre>{@code
 * try (World w = World.openReadOnly(dir)) {
 *     Graph g = Analytics.of(w).graph("DependsOn");
 *     ClosureSizes c = g.closureSizes();
 *     for (int v = 0; v < g.nodeCount(); v++) {
 *         System.out.println(w.path(g.entity(v)) + " " + c.forward(v) + " " + c.reverse(v));
 *     }
 * }
 * }</pre>
 *
 * Results are arrays indexed by graph node (see {@link Graph}); {@link NodeValues} turns any of them
 * into per-entity rows and writes them back to the world as a component.
 */
public final class Analytics {
    /** At most this many relationships in one graph. */
    public static final int MAX_RELATIONSHIPS = 100;

    private final World world;
    private Progress progress = Progress.NONE;

    private Analytics(World world) {
        this.world = world;
    }

    /** Analytics over {@code world} (read-only or writable; only {@link NodeValues#write} writes). */
    public static Analytics of(World world) {
        if (world == null) {
            throw new NullPointerException("world");
        }
        return new Analytics(world);
    }

    /** Reports progress of building and of the long algorithms to {@code p}. */
    public Analytics progress(Progress p) {
        this.progress = p == null ? Progress.NONE : p;
        return this;
    }

    /**
     * Builds the graph of the named relationships (paths, e.g. {@code "DependsOn"}).
     *
     * @throws dev.quiver.storage.UnknownNameException when a name resolves to no entity
     * @throws AnalyticsInputException                 when no relationship is given, or too many
     */
    public Graph graph(String... relationships) {
        if (relationships == null || relationships.length == 0) {
            throw new AnalyticsInputException("no relationship given");
        }
        long[] ids = new long[relationships.length];
        for (int i = 0; i < ids.length; i++) {
            String name = relationships[i] == null ? "" : relationships[i].trim();
            if (name.isEmpty()) {
                throw new AnalyticsInputException("empty relationship name");
            }
            ids[i] = world.resolve(name);
        }
        return graph(ids);
    }

    /**
     * Builds the graph of the given relationship entities (duplicates are dropped).
     *
     * @throws AnalyticsInputException when none is given, too many, or one is a pair or a wildcard
     * @throws dev.quiver.storage.DeadEntityException when one is not alive
     */
    public Graph graph(long... relationships) {
        if (relationships == null || relationships.length == 0) {
            throw new AnalyticsInputException("no relationship given");
        }
        long[] ids = Arrays.stream(relationships).distinct().toArray();
        if (ids.length > MAX_RELATIONSHIPS) {
            throw new AnalyticsInputException("at most " + MAX_RELATIONSHIPS + " relationships, got " + ids.length);
        }
        for (long r : ids) {
            if (Ids.isPair(r) || Ids.isWildcard(r)) {
                throw new AnalyticsInputException("relationship must be an entity, got " + world.idToString(r));
            }
            if (!world.isAlive(r)) {
                throw new dev.quiver.storage.DeadEntityException("relationship " + world.idToString(r) + " is not alive");
            }
        }
        return GraphBuilder.build(world, ids, progress).progress(progress);
    }
}
