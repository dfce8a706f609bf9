package dev.quiver.snapshots.export;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** Writes the rows of one exported table to one file, row by row (nothing is kept in memory). */
interface TableSink extends AutoCloseable {
    /** Appends a row: the buffer's values in the order of the sink's columns. */
    void write(RowBuffer row) throws IOException;

    /** Finishes the file (for Parquet, writes the footer). */
    @Override
    void close() throws IOException;

    /** Opens a sink of the given format on a new file. */
    static TableSink open(ExportFormat format, Path file, String tableName, List<ExportColumn> columns) throws IOException {
        return format == ExportFormat.PARQUET ? new ParquetSink(file, tableName, columns) : new CsvSink(file, columns);
    }
}
