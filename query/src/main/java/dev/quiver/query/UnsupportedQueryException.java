package dev.quiver.query;

/**
 * A query that is valid Flecs v4 Query Language but uses a construct this engine does not evaluate
 * (yet), or one the spec rejects on purpose (FEATURES.md QL-14, QL-15, QL-23: "a valid but
 * unimplemented construct fails with UNSUPPORTED"). The message names the construct and its
 * 1-based column, for example {@code unsupported: operator 'and |' at column 11}.
 */
public class UnsupportedQueryException extends QueryInputException {
    private static final long serialVersionUID = 1L;

    /**
     * @param what short description of the construct
     * @param token the offending token text
     * @param column 1-based column of the token
     */
    public UnsupportedQueryException(String what, String token, int column) {
        super("unsupported: " + what + " at column " + column, token, column);
    }
}
