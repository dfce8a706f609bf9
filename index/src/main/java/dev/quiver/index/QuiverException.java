package dev.quiver.index;

/**
 * Base of every exception Quiver throws for bad input or a bad world. The CLI maps each to a
 * one-line message and exit code 2. A failed call that throws one changes nothing.
 */
public class QuiverException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public QuiverException(String message) {
        super(message);
    }

    public QuiverException(String message, Throwable cause) {
        super(message, cause);
    }
}
