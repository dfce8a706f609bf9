package dev.quiver.storage;

import dev.quiver.error.BadInputException;

/**
 * A walk along a relationship ({@link RelationshipWalks}) found an entity deeper than its
 * {@code maxDepth} (Tecs {@code walkUp}, FEATURES TEC-17): usually a cycle in a relationship that
 * is not Acyclic. The walk's callback was called for every level up to {@code maxDepth}; the world
 * is unchanged (walks only read).
 */
public class MaxDepthExceededException extends BadInputException {
    private static final long serialVersionUID = 1L;

    public MaxDepthExceededException(String message) {
        super(message);
    }
}
