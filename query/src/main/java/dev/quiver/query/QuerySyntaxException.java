package dev.quiver.query;

import dev.quiver.error.BadInputException;

/**
 * A query text that does not follow the Flecs v4 Query Language grammar (FEATURES.md QL-01..QL-26).
 * The message names the offending token and its 1-based column, for example
 * {@code unexpected ')' at column 7} or {@code unexpected end of query at column 12}.
 */
public class QuerySyntaxException extends BadInputException implements QueryError {
    private static final long serialVersionUID = 1L;
    private final String token;
    private final int column;

    /**
     * @param message full message; it should already contain the token and {@code at column N}
     * @param token the offending token text
     * @param column 1-based column of the token
     */
    public QuerySyntaxException(String message, String token, int column) {
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
