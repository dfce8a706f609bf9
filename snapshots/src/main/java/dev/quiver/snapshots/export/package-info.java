/**
 * Export of a world as a vertex table and an edge table, in Parquet or CSV, for DuckDB, pandas
 * and Spark (GraphFrames convention: {@code id} on vertices, {@code src}/{@code dst} on edges).
 *
 * <p>{@link dev.quiver.snapshots.export.Exporter#export} plans the columns from the table types
 * ({@code Layout}), then streams each archetype table's rows into a {@code TableSink}
 * ({@code ParquetSink} or {@code CsvSink}) through one reused row buffer, into a temporary sibling
 * directory that is renamed into place when both files are complete. The Parquet writer is
 * parquet-java's, used through its Hadoop-free paths, so no Hadoop class is loaded.
 */
package dev.quiver.snapshots.export;
