package dev.quiver.error;

/**
 * The caller asked for something Quiver refuses: an unknown name, a malformed query, id or value, a
 * constraint violation, a missing or locked world, a corrupt input file. The call changed nothing.
 * The CLI prints the message on one line and exits with code 2.
 */
public class BadInputException extends QuiverException {
    private static final long serialVersionUID = 1L;

    public BadInputException(String message) {
        super(message);
    }

    public BadInputException(String message, Throwable cause) {
        super(message, cause);
    }
}
