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
 * What {@code quiver analyze} prints: named sections, each either totals (name/value facts) or a
 * table of rows, in one of four formats:
 * <ul>
 *   <li>{@code table}: facts as {@code name: value} lines, rows as aligned columns under a header,
 *       then a line with the row count and time;</li>
 *   <li>{@code csv}: per section a header line and rows (RFC 4180 quoting), sections separated by a
 *       blank line;</li>
 *   <li>{@code json}: one object: {@code algorithm}, {@code relationships}, then each section under
 *       its name (facts as an object, rows as an array of objects, with {@code count} the number of
 *       rows before {@code --limit});</li>
 *   <li>{@code jsonl}: one object per row (facts: one object per section).</li>
 * </ul>
 */
final class AnalysisReport {
    enum Format { table, csv, json, jsonl }

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Rows produced on demand (one row per entity is not held in memory at once). */
    interface Rows {
        int size();

        /** The cells of row {@code i}, in column order. */
        Object[] get(int i);
    }

    private record ListRows(List<Object[]> list) implements Rows {
        public int size() {
            return list.size();
        }

        public Object[] get(int i) {
            return list.get(i);
        }
    }

    /** One section: facts ({@code columns == null}) or rows. */
    private record Section(String name, List<String> columns, Rows rows, Map<String, Object> facts) {}

    private final String algorithm;
    private final List<String> relationships;
    private final List<Section> sections = new ArrayList<>();

    AnalysisReport(String algorithm, List<String> relationships) {
        this.algorithm = algorithm;
        this.relationships = relationships;
    }

    /** Adds a facts section (insertion-ordered name/value pairs). */
    Map<String, Object> facts(String name) {
        Map<String, Object> m = new LinkedHashMap<>();
        sections.add(new Section(name, null, null, m));
        return m;
    }

    /** Adds a rows section; add rows to the returned list, cells in column order. */
    List<Object[]> rows(String name, String... columns) {
        List<Object[]> rows = new ArrayList<>();
        sections.add(new Section(name, List.of(columns), new ListRows(rows), null));
        return rows;
    }

    /** Adds a rows section whose rows are produced when printed. */
    void rows(String name, Rows rows, String... columns) {
        sections.add(new Section(name, List.of(columns), rows, null));
    }

    void print(Format format, Integer limit, long startNanos, PrintWriter out) {
        switch (format) {
            case table:
                printTable(limit, startNanos, out);
                break;
            case csv:
                printCsv(limit, out);
                break;
            case json: {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("algorithm", algorithm);
                m.put("relationships", relationships);
                for (Section s : sections) {
                    if (s.facts != null) {
                        m.put(s.name, s.facts);
                    } else {
                        m.put(s.name + "_count", s.rows.size());
                        List<Object> rows = new ArrayList<>();
                        for (int i = 0, k = shown(s.rows, limit); i < k; i++) {
                            rows.add(rowObject(s, s.rows.get(i)));
                        }
                        m.put(s.name, rows);
                    }
                }
                out.println(write(m));
                break;
            }
            case jsonl:
                for (Section s : sections) {
                    if (s.facts != null) {
                        out.println(write(s.facts));
                    } else {
                        for (int i = 0, k = shown(s.rows, limit); i < k; i++) {
                            out.println(write(rowObject(s, s.rows.get(i))));
                        }
                    }
                }
                break;
            default:
                throw new IllegalStateException(format.name());
        }
    }

    private static int shown(Rows rows, Integer limit) {
        return limit == null ? rows.size() : Math.min(limit, rows.size());
    }

    private static Map<String, Object> rowObject(Section s, Object[] r) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < r.length; i++) {
            m.put(s.columns.get(i), r[i]);
        }
        return m;
    }

    private void printTable(Integer limit, long startNanos, PrintWriter out) {
        boolean titles = sections.size() > 1;
        for (int si = 0; si < sections.size(); si++) {
            Section s = sections.get(si);
            if (si > 0) {
                out.println();
            }
            if (s.facts != null) {
                int w = 0;
                for (String k : s.facts.keySet()) {
                    w = Math.max(w, k.length());
                }
                for (var en : s.facts.entrySet()) {
                    out.println(en.getKey() + ":" + " ".repeat(w - en.getKey().length() + 1) + text(en.getValue()));
                }
                continue;
            }
            if (titles) {
                out.println(s.name + ":");
            }
            int k = shown(s.rows, limit);
            int[] width = new int[s.columns.size()];
            for (int c = 0; c < width.length; c++) {
                width[c] = s.columns.get(c).length();
            }
            for (int i = 0; i < k; i++) {
                Object[] r = s.rows.get(i);
                for (int c = 0; c < r.length; c++) {
                    width[c] = Math.max(width[c], text(r[c]).length());
                }
            }
            if (k > 0) {
                out.println(pad(s.columns.toArray(new String[0]), width));
                for (int i = 0; i < k; i++) {
                    Object[] r = s.rows.get(i);
                    String[] line = new String[r.length];
                    for (int c = 0; c < r.length; c++) {
                        line[c] = text(r[c]);
                    }
                    out.println(pad(line, width));
                }
            }
            String shownText = k < s.rows.size() ? " (first " + k + " shown)" : "";
            out.println(s.rows.size() + (s.rows.size() == 1 ? " row" : " rows") + shownText);
        }
        out.println(algorithm + " over " + String.join(",", relationships) + " in "
                + String.format(Locale.ROOT, "%.1f ms", (System.nanoTime() - startNanos) / 1e6));
    }

    private void printCsv(Integer limit, PrintWriter out) {
        for (int si = 0; si < sections.size(); si++) {
            Section s = sections.get(si);
            if (si > 0) {
                out.println();
            }
            if (s.facts != null) {
                out.println("name,value");
                for (var en : s.facts.entrySet()) {
                    out.println(csv(en.getKey()) + "," + csv(text(en.getValue())));
                }
                continue;
            }
            out.println(String.join(",", s.columns));
            StringBuilder sb = new StringBuilder();
            for (int i = 0, k = shown(s.rows, limit); i < k; i++) {
                Object[] r = s.rows.get(i);
                sb.setLength(0);
                for (int c = 0; c < r.length; c++) {
                    sb.append(c > 0 ? "," : "").append(csv(text(r[c])));
                }
                out.println(sb);
            }
        }
    }

    private static String csv(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }

    private static String text(Object v) {
        if (v instanceof Double) {
            return String.format(Locale.ROOT, "%.6g", (Double) v);
        }
        if (v instanceof List) {
            List<?> l = (List<?>) v;
            StringBuilder sb = new StringBuilder();
            for (Object o : l) {
                sb.append(sb.length() == 0 ? "" : " ").append(o);
            }
            return sb.toString();
        }
        return String.valueOf(v);
    }

    private static String pad(String[] cells, int[] width) {
        StringBuilder sb = new StringBuilder();
        for (int c = 0; c < cells.length; c++) {
            sb.append(cells[c]);
            if (c < cells.length - 1) {
                sb.append(" ".repeat(width[c] - cells[c].length() + 2));
            }
        }
        return sb.toString();
    }

    private static String write(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
