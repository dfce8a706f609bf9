package dev.quiver.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code --format csv} and {@code tsv}: a header line, then one line per result as it comes.
 * Columns: {@code query} (several queries only), {@code this} (when the query uses it), one per
 * variable ({@code $name}), then per field {@code field<i>} (the {@code id}, {@code id@source} or
 * {@code -} notation) and {@code value<i>} (the component value as a JSON object, empty for a tag).
 * CSV quotes a cell holding a comma, quote, CR or LF (RFC 4180, quotes doubled); TSV escapes tab,
 * newline, CR and backslash as {@code \t}, {@code \n}, {@code \r}, {@code \\}. With several queries
 * the header is printed again when the columns change.
 */
final class DelimitedPrinter implements ResultFormat.Printer {
    private final PrintWriter out;
    private final boolean several;
    private final char sep;
    private String query;
    private boolean hasThis;
    private List<String> lastHeader;

    DelimitedPrinter(PrintWriter out, boolean several, char sep) {
        this.out = out;
        this.several = several;
        this.sep = sep;
    }

    @Override
    public void head(Answer.Head h) {
        query = h.query();
        hasThis = h.hasThis();
        List<String> header = new ArrayList<>();
        if (several) {
            header.add("query");
        }
        if (hasThis) {
            header.add("this");
        }
        for (String v : h.variables()) {
            header.add("$" + Answer.display(v));
        }
        for (int i = 0; i < h.fieldCount(); i++) {
            header.add("field" + i);
            header.add("value" + i);
        }
        if (!header.equals(lastHeader)) {
            line(header);
            lastHeader = header;
        }
    }

    @Override
    public void row(Answer.Row r) {
        List<String> cells = new ArrayList<>();
        if (several) {
            cells.add(query);
        }
        if (hasThis) {
            cells.add(r.self());
        }
        cells.addAll(r.vars().values());
        for (Answer.Field f : r.fields()) {
            cells.add(f.toString());
            cells.add(f.value() == null ? "" : JsonPrinter.write(f.value()));
        }
        line(cells);
    }

    private void line(List<String> cells) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < cells.size(); i++) {
            if (i > 0) {
                sb.append(sep);
            }
            sb.append(sep == ',' ? csv(cells.get(i)) : tsv(cells.get(i)));
        }
        out.println(sb);
    }

    static String csv(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }

    static String tsv(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\t': sb.append("\\t"); break;
                case '\n': sb.append("\\n"); break;
                case '\r': sb.append("\\r"); break;
                case '\\': sb.append("\\\\"); break;
                default: sb.append(c);
            }
        }
        return sb.toString();
    }

    @Override
    public void end(long count, int shown, long nanos) {
        out.flush();
    }

    @Override
    public void close() {
        out.flush();
    }
}
