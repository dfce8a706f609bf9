package dev.quiver.query.plan;

/**
 * The upward traversal of a term's source (Flecs v4 {@code up R} and {@code self|up R},
 * FEATURES.md QL-15, QS-40..QS-46): the term holds on a source when the source itself has the id
 * ({@link #self()} only), or else when an entity reached by following {@link #relationship()}
 * upward from the source, one or more steps, has it. The nearest such entity is the field's
 * source; several targets of R are searched depth-first in type order, the first target's chain
 * to its root before the next target (Flecs v4 Queries manual, "Relationship traversal").
 *
 * @param relationship the Traversable relationship followed (ChildOf when {@code up} was written
 *     without one)
 * @param text the relationship as written, or "ChildOf"
 * @param self {@code self|up}: the source itself is tried first
 */
public record Up(long relationship, String text, boolean self) {

    @Override
    public String toString() {
        return (self ? "self|up " : "up ") + text;
    }
}
