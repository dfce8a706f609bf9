package dev.quiver.cli;

import dev.quiver.error.BadInputException;

/**
 * Bad input found by the CLI itself: a world that is missing (or already exists for {@code init}),
 * an input file that cannot be read, a malformed JSON value, conflicting arguments. Exit code 2;
 * nothing was changed.
 */
public class CliInputException extends BadInputException {
    private static final long serialVersionUID = 1L;

    /** @param message the one-line message printed after {@code quiver: } */
    public CliInputException(String message) {
        super(message);
    }

    /**
     * @param message the one-line message printed after {@code quiver: }
     * @param cause   the underlying error
     */
    public CliInputException(String message, Throwable cause) {
        super(message, cause);
    }
}
