package dev.quiver.error;

/**
 * A world file does not hold what Quiver wrote: a page whose checksum does not match, a truncated
 * page, a damaged map header. The message names the file and, where known, the page. Nothing is
 * read as data from a damaged page. The CLI exits with code 1.
 */
public class CorruptionException extends QuiverException {
    private static final long serialVersionUID = 1L;

    public CorruptionException(String message) {
        super(message);
    }

    public CorruptionException(String message, Throwable cause) {
        super(message, cause);
    }
}
