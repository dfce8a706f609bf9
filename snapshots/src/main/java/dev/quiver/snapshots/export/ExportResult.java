package dev.quiver.snapshots.export;

import java.nio.file.Path;

/**
 * The outcome of an export.
 *
 * @param directory the output directory
 * @param vertices  vertex rows written
 * @param edges     edge rows written
 * @param bytes     total size of the files written, in bytes
 * @param millis    wall time, in milliseconds
 */
public record ExportResult(Path directory, long vertices, long edges, long bytes, long millis) {}
