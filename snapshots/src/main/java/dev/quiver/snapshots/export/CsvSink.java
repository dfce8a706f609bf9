package dev.quiver.snapshots.export;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Writes one table as CSV (RFC 4180): UTF-8, a header line of column names, LF line ends, comma
 * separated; a field holding a comma, a quote, CR or LF is quoted with quotes doubled. An empty
 * column is an empty field. Numbers use Java's {@code toString} ({@code 1.5}, {@code 1.0E-5},
 * {@code NaN}, {@code Infinity}), booleans {@code true}/{@code false}.
 */
final class CsvSink implements TableSink {
    private final BufferedWriter out;
    private final ExportColumn.Kind[] kinds;

    CsvSink(Path file, List<ExportColumn> columns) throws IOException {
        out = new BufferedWriter(new OutputStreamWriter(
                Files.newOutputStream(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                StandardCharsets.UTF_8), 1 << 16);
        kinds = new ExportColumn.Kind[columns.size()];
        for (int i = 0; i < kinds.length; i++) {
            kinds[i] = columns.get(i).kind();
            if (i > 0) {
                out.write(',');
            }
            text(columns.get(i).name());
        }
        out.write('\n');
    }

    @Override
    public void write(RowBuffer row) throws IOException {
        for (int i = 0; i < kinds.length; i++) {
            if (i > 0) {
                out.write(',');
            }
            if (!row.set[i]) {
                continue;
            }
            long w = row.words[i];
            switch (kinds[i]) {
                case INT32:
                case INT64: out.write(Long.toString(w)); break;
                case FLOAT: out.write(Float.toString(Float.intBitsToFloat((int) w))); break;
                case DOUBLE: out.write(Double.toString(Double.longBitsToDouble(w))); break;
                case BOOLEAN: out.write(w != 0 ? "true" : "false"); break;
                case STRING: text(row.strings[i]); break;
                default: throw new IllegalStateException();
            }
        }
        out.write('\n');
    }

    private void text(String s) throws IOException {
        boolean quote = false;
        for (int i = 0; i < s.length() && !quote; i++) {
            char c = s.charAt(i);
            quote = c == ',' || c == '"' || c == '\n' || c == '\r';
        }
        if (!quote) {
            out.write(s);
            return;
        }
        out.write('"');
        out.write(s.replace("\"", "\"\""));
        out.write('"');
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
