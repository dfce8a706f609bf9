package dev.quiver.snapshots.export;

import dev.quiver.error.BadInputException;

/**
 * An export was refused before anything was written: the output directory exists and is not
 * empty (or is a file), its parent is missing, a relationship to export is unknown, two columns
 * would get the same name. Nothing is left on disk.
 */
public class ExportException extends BadInputException {
    private static final long serialVersionUID = 1L;

    /** @param message the one-line message the CLI prints */
    public ExportException(String message) {
        super(message);
    }
}
