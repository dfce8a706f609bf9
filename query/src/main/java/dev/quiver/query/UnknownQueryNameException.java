package dev.quiver.query;

import dev.quiver.storage.UnknownNameException;

/**
 * A name in a query that resolves to no entity when the query is created (FEATURES.md QL-23,
 * QL-26: names are resolved at creation). It is an {@link UnknownNameException}, so callers that
 * handle unknown names in general handle this one too; the message names the name and its
 * 1-based column, for example {@code unknown name 'Foo' at column 10}.
 */
public class UnknownQueryNameException extends UnknownNameException implements QueryError {
    private static final long serialVersionUID = 1L;
    private final String name;
    private final int column;

    /**
     * @param name the name as written in the query
     * @param column 1-based column of the name
     */
    public UnknownQueryNameException(String name, int column) {
        super("unknown name '" + name + "' at column " + column);
        this.name = name;
        this.column = column;
    }

    @Override
    public String token() {
        return name;
    }

    @Override
    public int column() {
        return column;
    }
}
