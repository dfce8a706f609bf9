package dev.quiver.query.cache;

import dev.quiver.error.BadInputException;

/**
 * An ordering or grouping a cached query cannot use: an unknown component, relationship or
 * member, a tag where a component with members is needed, {@code groupBy} together with
 * {@code cascade} (cascade is Flecs' group by depth), or ordering a query without {@code $this}.
 * The message names the offending text.
 */
public class QueryOrderingException extends BadInputException {
    private static final long serialVersionUID = 1L;

    /** @param message what is wrong, naming the offending text */
    public QueryOrderingException(String message) {
        super(message);
    }
}
