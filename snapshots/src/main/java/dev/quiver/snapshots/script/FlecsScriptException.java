package dev.quiver.snapshots.script;

import dev.quiver.error.BadInputException;

import java.nio.file.Path;

/**
 * A Flecs Script file that the loader or the world rejects: a syntax error, a construct outside
 * the supported subset ({@code conformance/SUBSET.md}), an unresolved identifier, a bad value, or a
 * change the world refuses (then the world's exception is the cause). The message starts with
 * {@code file:line:column:} (both 1-based, columns in characters). Nothing of the file is loaded.
 */
public class FlecsScriptException extends BadInputException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final int line;
    private final int column;

    /**
     * @param file   the script being loaded
     * @param line   1-based line of the offending token or statement
     * @param column 1-based column of the offending token or statement
     * @param detail what is wrong
     * @param cause  the world's exception, or null
     */
    public FlecsScriptException(Path file, int line, int column, String detail, Throwable cause) {
        super(file + ":" + line + ":" + column + ": " + detail, cause);
        this.file = file;
        this.line = line;
        this.column = column;
    }

    /** The script being loaded. */
    public Path file() {
        return file;
    }

    /** The 1-based line of the error. */
    public int line() {
        return line;
    }

    /** The 1-based column of the error. */
    public int column() {
        return column;
    }
}
