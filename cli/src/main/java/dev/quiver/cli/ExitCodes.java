package dev.quiver.cli;

/** The exit codes of the {@code quiver} command. */
public final class ExitCodes {
    private ExitCodes() {}

    /** The command did what was asked. */
    public static final int OK = 0;

    /**
     * A failure that is not the input's fault: a check violation, an internal error, an I/O error
     * ({@link dev.quiver.error.StorageIOException}), a corrupt world
     * ({@link dev.quiver.error.CorruptionException}).
     */
    public static final int FAILURE = 1;

    /**
     * Bad input: an unknown name, a malformed query, id, JSON value or TSV line, a missing or locked
     * world, a corrupt snapshot, a bad option (every {@link dev.quiver.error.BadInputException} and
     * every picocli parameter error). Nothing was changed.
     */
    public static final int BAD_INPUT = 2;
}
