package dev.quiver.snapshots.export;

import java.util.List;
import java.util.function.LongPredicate;

/**
 * What to export.
 *
 * @param format        the file format
 * @param relationships paths of the relationships whose pairs become edges; empty for every
 *                      relationship
 * @param keep          the entities to export as vertices, or null for all; an edge is exported
 *                      only when both its source and its target are kept (the CLI's
 *                      {@code --query} passes the entities a query returns)
 */
public record ExportOptions(ExportFormat format, List<String> relationships, LongPredicate keep) {
    public ExportOptions {
        relationships = List.copyOf(relationships);
    }

    /** Every entity and every relationship, in {@code format}. */
    public static ExportOptions all(ExportFormat format) {
        return new ExportOptions(format, List.of(), null);
    }
}
