package dev.quiver.storage;

/**
 * A component declared with a schema it cannot take: another schema (other fields or other
 * defaults) than the one it has, or a first schema for an entity already in use as an id (its
 * tables would change layout). Nothing changed.
 */
public class SchemaConflictException extends ConstraintException {
    private static final long serialVersionUID = 1L;

    public SchemaConflictException(String message) {
        super(message);
    }
}
