package dev.quiver.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How {@code quiver query} prints answers.
 *
 * <ul>
 *   <li>{@code table}: aligned columns {@code this}, one per variable, and the matched fields,
 *       then a line with the count and time; for humans.</li>
 *   <li>{@code json}: one object {@code {"query", "count", "results": [...]}}.</li>
 *   <li>{@code jsonl}: one result object per line.</li>
 *   <li>{@code count}: the number of results alone.</li>
 *   <li>{@code canonical}: the conformance block of each query ({@link CanonicalBlock}); printed by
 *       {@link QueryCommand} itself, never through this enum's methods.</li>
 * </ul>
 * With several queries ({@code --queries-file}), {@code table} prints one block per query,
 * {@code json} an array of query objects, {@code jsonl} one query object per line and
 * {@code count} lines {@code query<TAB>count}.
 */
enum ResultFormat {
    table, json, jsonl, count, canonical;

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Prints the answer of the only query. */
    void print(Answer a, PrintWriter out) {
        switch (this) {
            case table:
                printTable(a, out);
                break;
            case json:
                out.println(write(queryObject(a)));
                break;
            case jsonl:
                for (Answer.Row r : a.rows) {
                    out.println(write(rowObject(r, a)));
                }
                break;
            case count:
                out.println(a.count);
                break;
            default:
                throw new IllegalStateException(name());
        }
    }

    /** Prints the answers of several queries. */
    void printAll(List<Answer> answers, PrintWriter out) {
        switch (this) {
            case table:
                for (Answer a : answers) {
                    out.println("query: " + a.query);
                    printTable(a, out);
                    out.println();
                }
                break;
            case json: {
                List<Object> all = new ArrayList<>();
                for (Answer a : answers) {
                    all.add(queryObject(a));
                }
                out.println(write(all));
                break;
            }
            case jsonl:
                for (Answer a : answers) {
                    out.println(write(queryObject(a)));
                }
                break;
            case count:
                for (Answer a : answers) {
                    out.println(a.query + "\t" + a.count);
                }
                break;
            default:
                throw new IllegalStateException(name());
        }
    }

    private static void printTable(Answer a, PrintWriter out) {
        List<String> header = new ArrayList<>();
        if (a.hasThis) {
            header.add("this");
        }
        for (String v : a.variables) {
            header.add("$" + Answer.display(v));
        }
        header.add("fields");
        List<List<String>> cells = new ArrayList<>();
        for (Answer.Row r : a.rows) {
            List<String> line = new ArrayList<>();
            if (a.hasThis) {
                line.add(r.self());
            }
            line.addAll(r.vars().values());
            List<String> fields = new ArrayList<>();
            for (Answer.Field f : r.fields()) {
                fields.add(f.toString());
            }
            line.add(fields.isEmpty() ? "-" : String.join(" ", fields));
            cells.add(line);
        }
        int[] width = new int[header.size()];
        for (int c = 0; c < width.length; c++) {
            width[c] = header.get(c).length();
            for (List<String> line : cells) {
                width[c] = Math.max(width[c], line.get(c).length());
            }
        }
        if (!cells.isEmpty()) {
            out.println(pad(header, width));
            for (List<String> line : cells) {
                out.println(pad(line, width));
            }
        }
        String rows = a.count == 1 ? "1 result" : a.count + " results";
        String shown = a.truncated() ? " (first " + a.rows.size() + " shown)" : "";
        out.println(rows + shown + " in " + String.format(Locale.ROOT, "%.1f", a.millis()) + " ms");
    }

    private static String pad(List<String> cells, int[] width) {
        StringBuilder sb = new StringBuilder();
        for (int c = 0; c < cells.size(); c++) {
            String s = cells.get(c);
            sb.append(s);
            if (c < cells.size() - 1) {
                sb.append(" ".repeat(width[c] - s.length() + 2));
            }
        }
        return sb.toString();
    }

    private static Map<String, Object> queryObject(Answer a) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("query", a.query);
        m.put("count", a.count);
        List<Object> results = new ArrayList<>();
        for (Answer.Row r : a.rows) {
            results.add(rowObject(r, a));
        }
        m.put("results", results);
        return m;
    }

    private static Map<String, Object> rowObject(Answer.Row r, Answer a) {
        Map<String, Object> m = new LinkedHashMap<>();
        if (a.hasThis) {
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
            fields.add(fm);
        }
        m.put("fields", fields);
        return m;
    }

    private static String write(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
