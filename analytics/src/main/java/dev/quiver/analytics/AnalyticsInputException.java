package dev.quiver.analytics;

import dev.quiver.error.BadInputException;

/**
 * Bad input to an analysis: no relationship given, an entity that is not a node of the graph where
 * the algorithm needs one, a negative hop count, a damping factor outside (0, 1). Nothing was changed.
 * Unknown names raise {@link dev.quiver.storage.UnknownNameException} instead.
 */
public class AnalyticsInputException extends BadInputException {
    private static final long serialVersionUID = 1L;

    /** @param message one line naming the bad value */
    public AnalyticsInputException(String message) {
        super(message);
    }
}
