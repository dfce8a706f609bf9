package dev.quiver.query.iter;

import dev.quiver.error.BadInputException;

/**
 * A field's value was asked for in a form it does not have: the field carries no data (a tag, an
 * unset field, a wildcard or transitive id the source does not own), the requested Java type does
 * not fit the component's members, the member does not exist, or the field is not owned by the
 * table's rows when a column was asked for, or one id was asked of a field whose id differs by
 * row.
 */
public class FieldValueException extends BadInputException {
    private static final long serialVersionUID = 1L;

    public FieldValueException(String message) {
        super(message);
    }

    public FieldValueException(String message, Throwable cause) {
        super(message, cause);
    }
}
