package dev.quiver.storage;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Tecs' walks along a relationship (FEATURES TEC-16, TEC-17; seed 003 {@code world:traverse} and
 * {@code world:walkUp}), for any relationship: Quiver keeps a reverse index for every one (TEC-18).
 * Both only read the world, through {@link World#targets} and {@link World#forEachSource}.
 *
 * <ul>
 *   <li>{@link #walkUp}: from an entity towards the root, following the first target of
 *       {@code (R, *)} at each level (type order, as FEATURES ISA-06 reads bases), calling the
 *       visitor with each ancestor and its depth (the first ancestor has depth 1).</li>
 *   <li>{@link #traverse}: the subtree below a root, depth first, over the entities holding
 *       {@code (R, parent)} (the root itself is not visited; its direct sources have depth 1;
 *       siblings are visited in ascending id order).</li>
 * </ul>
 *
 * <p>A visitor returning false stops the walk. Going deeper than {@code maxDepth} (100 unless
 * given, as in Tecs) raises {@link MaxDepthExceededException}, so a cycle surfaces instead of
 * looping or being cut off silently.
 */
public final class RelationshipWalks {
    /** Tecs' default {@code maxDepth}. */
    public static final int DEFAULT_MAX_DEPTH = 100;

    private RelationshipWalks() {}

    /** Called with each entity a walk reaches and its depth (from 1); return false to stop. */
    @FunctionalInterface
    public interface Visitor {
        boolean visit(long entity, int depth);
    }

    /** {@link #walkUp(World, long, long, Visitor, int)} with {@link #DEFAULT_MAX_DEPTH}. */
    public static void walkUp(World w, long entity, long relationship, Visitor visitor) {
        walkUp(w, entity, relationship, visitor, DEFAULT_MAX_DEPTH);
    }

    /**
     * Walks up from {@code entity}: at each level the first target T of the pairs
     * {@code (relationship, T)} the current entity owns is the next ancestor, and the visitor gets
     * {@code (T, depth)}; the walk ends at an entity without such a pair, or when the visitor
     * returns false.
     *
     * @param maxDepth the deepest ancestor visited (0 or less: none)
     * @throws MaxDepthExceededException when an ancestor lies deeper than {@code maxDepth} (after
     *     the visitor saw levels 1 to {@code maxDepth})
     * @throws DeadEntityException when {@code entity} is not alive
     */
    public static void walkUp(World w, long entity, long relationship, Visitor visitor, int maxDepth) {
        long current = entity;
        for (int depth = 1; ; depth++) {
            long[] targets = w.targets(current, relationship);
            if (targets.length == 0) {
                return;
            }
            if (depth > maxDepth) {
                throw new MaxDepthExceededException("walkUp from " + w.path(entity) + " along " + w.path(relationship)
                        + " went past maxDepth " + maxDepth + " (a cycle?)");
            }
            current = targets[0];
            if (!visitor.visit(current, depth)) {
                return;
            }
        }
    }

    /** {@link #traverse(World, long, long, Visitor, int)} with {@link #DEFAULT_MAX_DEPTH}. */
    public static void traverse(World w, long root, long relationship, Visitor visitor) {
        traverse(w, root, relationship, visitor, DEFAULT_MAX_DEPTH);
    }

    /**
     * Visits the subtree below {@code root} depth first: each entity holding
     * {@code (relationship, root)} at depth 1 (ascending id), and after each its own subtree.
     *
     * @param maxDepth the deepest level visited (0 or less: none)
     * @throws MaxDepthExceededException when the subtree goes deeper than {@code maxDepth} (after
     *     the visitor saw what lies above it)
     * @throws DeadEntityException when {@code root} is not alive
     */
    public static void traverse(World w, long root, long relationship, Visitor visitor, int maxDepth) {
        if (!w.isAlive(root)) {
            throw new DeadEntityException("traverse from " + root + ": not an alive entity");
        }
        visitBelow(w, root, root, relationship, visitor, 1, maxDepth);
    }

    /** Visits the sources of (relationship, parent) and their subtrees; false when the visitor stopped. */
    private static boolean visitBelow(World w, long root, long parent, long relationship, Visitor visitor, int depth,
                                      int maxDepth) {
        long[] sources = sources(w, relationship, parent);
        if (sources.length > 0 && depth > maxDepth) {
            throw new MaxDepthExceededException("traverse from " + w.path(root) + " along " + w.path(relationship)
                    + " went past maxDepth " + maxDepth + " (a cycle?)");
        }
        for (long s : sources) {
            if (!visitor.visit(s, depth) || !visitBelow(w, root, s, relationship, visitor, depth + 1, maxDepth)) {
                return false;
            }
        }
        return true;
    }

    private static long[] sources(World w, long relationship, long target) {
        List<Long> found = new ArrayList<>();
        w.forEachSource(relationship, target, found::add);
        long[] out = found.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(out);
        return out;
    }
}
