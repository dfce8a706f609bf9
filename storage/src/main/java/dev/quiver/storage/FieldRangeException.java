package dev.quiver.storage;

/**
 * A number outside its field's declared range ({@link Schema#withRange}): refused by every set,
 * and by a schema whose default lies outside it. Nothing changes.
 */
public class FieldRangeException extends ValueException {
    private static final long serialVersionUID = 1L;

    public FieldRangeException(String message) {
        super(message);
    }
}
