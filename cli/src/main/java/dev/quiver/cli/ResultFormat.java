package dev.quiver.cli;

import java.io.PrintWriter;

/**
 * How {@code quiver query} prints answers. Rows are printed as the engine yields them (table by
 * table), never collected first; {@code --limit} stops the evaluation early. Fields that carry
 * data print their component value (the member map of the id on the field's source).
 *
 * <ul>
 *   <li>{@code table}: columns {@code this}, one per variable, and the matched fields (each
 *       {@code id}, {@code id@source} or {@code -}, followed by its value as
 *       {@code {member: value, ...}}), then a line with the count and time; for humans. Columns
 *       are aligned over the first {@value TablePrinter#ALIGNED} rows.</li>
 *   <li>{@code json}: one object {@code {"query", "count", "results": [...]}} (the count is
 *       computed first); each result {@code {"this", "vars", "fields": [{"id", "source", "set",
 *       "value"}]}}.</li>
 *   <li>{@code jsonl}: one result object per line.</li>
 *   <li>{@code csv} (RFC 4180 quoting) and {@code tsv} (tab, newline and backslash escaped as
 *       {@code \t}, {@code \n}, {@code \\}): a header line {@code this, $var..., field0, value0,
 *       ...}, then one line per result; a value cell holds the value as a JSON object.</li>
 *   <li>{@code count}: the number of results alone.</li>
 *   <li>{@code canonical}: the conformance block of each query ({@link CanonicalBlock}); printed by
 *       {@link QueryCommand} itself.</li>
 * </ul>
 * With several queries ({@code --queries-file}), {@code table} prints one block per query,
 * {@code json} an array of query objects, {@code jsonl} one query object per line, {@code csv}
 * and {@code tsv} one table with a leading {@code query} column, and {@code count} lines
 * {@code query<TAB>count}.
 */
enum ResultFormat {
    table, json, jsonl, csv, tsv, count, canonical;

    /** Receives the answers of one or several queries, then {@link #close()} once after the last. */
    interface Printer extends Answer.RowSink {
        /** Ends the output (closes a JSON array). */
        void close();
    }

    /**
     * A printer of this format.
     *
     * @param several the output holds several queries' answers ({@code --queries-file})
     * @throws IllegalStateException for {@code count} and {@code canonical}, printed elsewhere
     */
    Printer printer(PrintWriter out, boolean several) {
        switch (this) {
            case table:
                return new TablePrinter(out, several);
            case json:
                return new JsonPrinter(out, several, false);
            case jsonl:
                return new JsonPrinter(out, several, true);
            case csv:
                return new DelimitedPrinter(out, several, ',');
            case tsv:
                return new DelimitedPrinter(out, several, '\t');
            default:
                throw new IllegalStateException(name() + " is not printed row by row");
        }
    }

    /** True when the format prints the count before the rows (it is then computed first). */
    boolean countFirst(boolean several) {
        return this == json || (this == jsonl && several);
    }
}
