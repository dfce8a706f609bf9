package dev.quiver.snapshots.export;

import java.util.Locale;

/**
 * The file format of an export: Apache Parquet (one file per table, Snappy-compressed) or CSV
 * (RFC 4180, UTF-8, a header line). Both hold the same columns ({@link Layout}).
 */
public enum ExportFormat {
    PARQUET("parquet"), CSV("csv");

    private final String extension;

    ExportFormat(String extension) {
        this.extension = extension;
    }

    /** The file extension without a dot: {@code parquet} or {@code csv}. */
    public String extension() {
        return extension;
    }

    /** The vertex table's file name, {@code vertices.parquet} or {@code vertices.csv}. */
    public String verticesFile() {
        return "vertices." + extension;
    }

    /** The edge table's file name, {@code edges.parquet} or {@code edges.csv}. */
    public String edgesFile() {
        return "edges." + extension;
    }

    /**
     * Parses a format name, case-insensitively.
     *
     * @throws ExportException for another name
     */
    public static ExportFormat parse(String name) {
        for (ExportFormat f : values()) {
            if (f.extension.equals(name.toLowerCase(Locale.ROOT))) {
                return f;
            }
        }
        throw new ExportException("unknown export format '" + name + "' (expected parquet or csv)");
    }
}
