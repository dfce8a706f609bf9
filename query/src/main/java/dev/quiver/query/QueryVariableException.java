package dev.quiver.query;

import dev.quiver.error.BadInputException;

/**
 * A variable set before evaluation ({@link Query#set}, {@code quiver query --var NAME=ENTITY}) that
 * the query cannot take: the query has no such named variable, the variable is {@code $this} or
 * anonymous, or the entity is not alive (Flecs v4 iterator variables, FEATURES.md QL variables).
 * Nothing is evaluated.
 */
public class QueryVariableException extends BadInputException {
    private static final long serialVersionUID = 1L;
    private final String variable;

    /**
     * @param message  what is wrong, naming the variable
     * @param variable the variable's name without {@code $}
     */
    public QueryVariableException(String message, String variable) {
        super(message);
        this.variable = variable;
    }

    /** The variable's name without {@code $}. */
    public String variable() {
        return variable;
    }
}
