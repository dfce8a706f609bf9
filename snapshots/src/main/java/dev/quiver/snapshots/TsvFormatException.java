package dev.quiver.snapshots;

import dev.quiver.error.BadInputException;

import java.nio.file.Path;

/**
 * A line of a TSV pair file that the loader or the world rejects: not exactly three non-empty
 * tab-separated fields, a field that is not an entity name or path, or a pair the world refuses
 * (the world's exception is the cause). The message starts with {@code file:line:}. Nothing of the
 * file is loaded.
 */
public class TsvFormatException extends BadInputException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final long line;

    /**
     * @param file   the file being loaded
     * @param line   the 1-based line number
     * @param detail what is wrong with the line
     * @param cause  the world's exception, or null
     */
    public TsvFormatException(Path file, long line, String detail, Throwable cause) {
        super(file + ":" + line + ": " + detail, cause);
        this.file = file;
        this.line = line;
    }

    /** The file being loaded. */
    public Path file() {
        return file;
    }

    /** The 1-based number of the rejected line. */
    public long line() {
        return line;
    }
}
