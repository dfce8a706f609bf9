package dev.quiver.query.builder;

import dev.quiver.error.BadInputException;

/**
 * A {@link QueryBuilder} used in a way that describes no query: a term without an id, a modifier
 * before any term, {@code scopeClose()} without {@code scopeOpen()}, an unclosed scope, an Or
 * chain that ends in {@code or()}, an element string that is not a name, variable, {@code *},
 * {@code _} or id. The message names the term (1-based, in call order) and the call. The builder
 * is unchanged by the refused call.
 */
public class QueryBuilderException extends BadInputException {
    private static final long serialVersionUID = 1L;

    /** @param message what was wrong, naming the term and the call */
    public QueryBuilderException(String message) {
        super(message);
    }
}
