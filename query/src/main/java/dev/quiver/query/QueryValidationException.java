package dev.quiver.query;

/**
 * A query that parses but that Flecs v4 refuses when it creates the query (its validator,
 * {@code flecs_term_finalize}/{@code flecs_term_verify}): for example traversal over a
 * relationship without the Traversable trait ({@code Transform(up Room)}), {@code up IsA} on a
 * component without {@code (OnInstantiate, Inherit)}, {@code desc} without {@code cascade}, or
 * {@code cascade} on an uncached query. The message names the term and the 1-based column of the
 * offending element, for example
 * {@code cannot traverse non-traversable relationship 'Room' in 'Transform($this|up Room)' at column 14}.
 */
public class QueryValidationException extends QueryInputException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message full message; it should already name the term and contain {@code at column N}
     * @param token the offending token text
     * @param column 1-based column of the token
     */
    public QueryValidationException(String message, String token, int column) {
        super(message, token, column);
    }
}
