package dev.quiver.query;

import dev.quiver.error.BadInputException;

/**
 * A query refused when it is created, at a place in its text: the root of the syntax, validation
 * and not-yet-supported errors. The message names the offending token and its 1-based column.
 */
public abstract class QueryInputException extends BadInputException implements QueryError {
    private static final long serialVersionUID = 1L;
    private final String token;
    private final int column;

    /**
     * @param message full message, naming the token and {@code at column N}
     * @param token the offending token text
     * @param column 1-based column of the token
     */
    protected QueryInputException(String message, String token, int column) {
        super(message);
        this.token = token;
        this.column = column;
    }

    @Override
    public String token() {
        return token;
    }

    @Override
    public int column() {
        return column;
    }
}
