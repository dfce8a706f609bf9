package dev.quiver.query;

/**
 * A query text that does not follow the Flecs v4 Query Language grammar (FEATURES.md QL-01..QL-26).
 * The message names the offending token and its 1-based column, for example
 * {@code unexpected ')' at column 7} or {@code unexpected end of query at column 12}.
 */
public class QuerySyntaxException extends QueryInputException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message full message; it should already contain the token and {@code at column N}
     * @param token the offending token text
     * @param column 1-based column of the token
     */
    public QuerySyntaxException(String message, String token, int column) {
        super(message, token, column);
    }
}
