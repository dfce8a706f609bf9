package dev.quiver.bench;

/** Bad input to {@code quiver-bench} (a bad option value, a missing file): exit code 2, one line on stderr. */
public final class BenchInputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message the one-line message, without the {@code quiver-bench: } prefix */
    public BenchInputException(String message) {
        super(message);
    }
}
