package dev.quiver.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code --format json} and {@code jsonl}, written as the rows come: a query object
 * {@code {"query", "count", "results": [...]}} is opened, each result appended, then closed (the
 * count is computed before the rows); {@code jsonl} of one query prints one result object per line.
 */
final class JsonPrinter implements ResultFormat.Printer {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final PrintWriter out;
    private final boolean several;
    private final boolean lines;
    private boolean hasThis;
    private int queries;
    private int rows;

    /**
     * @param several the answers of several queries ({@code json}: an array of query objects;
     *                {@code jsonl}: one query object per line)
     * @param lines   {@code jsonl}
     */
    JsonPrinter(PrintWriter out, boolean several, boolean lines) {
        this.out = out;
        this.several = several;
        this.lines = lines;
    }

    /** One result per line: jsonl of a single query. */
    private boolean rowPerLine() {
        return lines && !several;
    }

    @Override
    public void head(Answer.Head h) {
        hasThis = h.hasThis();
        rows = 0;
        if (rowPerLine()) {
            return;
        }
        if (several && !lines) {
            out.print(queries == 0 ? "[" : ",");
        }
        queries++;
        out.print("{\"query\":" + write(h.query()) + ",\"count\":" + h.count() + ",\"results\":[");
    }

    @Override
    public void row(Answer.Row r) {
        String obj = write(rowObject(r));
        if (rowPerLine()) {
            out.println(obj);
            return;
        }
        out.print(rows++ == 0 ? obj : "," + obj);
    }

    @Override
    public void end(long count, int shown, long nanos) {
        if (rowPerLine()) {
            return;
        }
        out.print("]}");
        if (lines || !several) {
            out.println();
        }
    }

    @Override
    public void close() {
        if (several && !lines) {
            out.println(queries == 0 ? "[]" : "]");
        }
        out.flush();
    }

    private Map<String, Object> rowObject(Answer.Row r) {
        Map<String, Object> m = new LinkedHashMap<>();
        if (hasThis) {
            m.put("this", r.self());
        }
        if (!r.vars().isEmpty()) {
            m.put("vars", r.vars());
        }
        List<Object> fields = new ArrayList<>();
        for (Answer.Field f : r.fields()) {
            Map<String, Object> fm = new LinkedHashMap<>();
            fm.put("id", f.id());
            if (f.source() != null) {
                fm.put("source", f.source());
            }
            fm.put("set", f.set());
            if (f.value() != null) {
                fm.put("value", f.value());
            }
            fields.add(fm);
        }
        m.put("fields", fields);
        return m;
    }

    /** A value as JSON text. */
    static String write(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
