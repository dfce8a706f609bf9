package dev.quiver.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code --format table}: aligned columns {@code this}, one per variable, and {@code fields}, then
 * {@code N results in T ms}. The first {@value #ALIGNED} rows are held to size the columns; later
 * rows are printed as they come with those widths (a longer cell just pushes its line wider).
 */
final class TablePrinter implements ResultFormat.Printer {
    /** Rows held back to size the columns. */
    static final int ALIGNED = 100;

    private final PrintWriter out;
    private final boolean several;
    private List<String> header;
    private final List<List<String>> held = new ArrayList<>();
    private int[] width;
    private boolean hasThis;

    TablePrinter(PrintWriter out, boolean several) {
        this.out = out;
        this.several = several;
    }

    @Override
    public void head(Answer.Head h) {
        if (several) {
            out.println("query: " + h.query());
        }
        hasThis = h.hasThis();
        header = new ArrayList<>();
        if (hasThis) {
            header.add("this");
        }
        for (String v : h.variables()) {
            header.add("$" + Answer.display(v));
        }
        header.add("fields");
        held.clear();
        width = null;
    }

    @Override
    public void row(Answer.Row r) {
        List<String> line = new ArrayList<>();
        if (hasThis) {
            line.add(r.self());
        }
        line.addAll(r.vars().values());
        List<String> fields = new ArrayList<>();
        for (Answer.Field f : r.fields()) {
            fields.add(f.withValue());
        }
        line.add(fields.isEmpty() ? "-" : String.join(" ", fields));
        if (width != null) {
            out.println(pad(line));
            return;
        }
        held.add(line);
        if (held.size() == ALIGNED) {
            flushHeld();
        }
    }

    private void flushHeld() {
        width = new int[header.size()];
        for (int c = 0; c < width.length; c++) {
            width[c] = header.get(c).length();
            for (List<String> line : held) {
                width[c] = Math.max(width[c], line.get(c).length());
            }
        }
        if (!held.isEmpty()) {
            out.println(pad(header));
            for (List<String> line : held) {
                out.println(pad(line));
            }
        }
        held.clear();
    }

    @Override
    public void end(long count, int shown, long nanos) {
        if (width == null) {
            flushHeld();
        }
        String rows = count == 1 ? "1 result" : count + " results";
        String part = shown < count ? " (first " + shown + " shown)" : "";
        out.println(rows + part + " in " + String.format(Locale.ROOT, "%.1f", nanos / 1e6) + " ms");
        if (several) {
            out.println();
        }
    }

    private String pad(List<String> cells) {
        StringBuilder sb = new StringBuilder();
        for (int c = 0; c < cells.size(); c++) {
            String s = cells.get(c);
            sb.append(s);
            if (c < cells.size() - 1) {
                sb.append(" ".repeat(Math.max(width[c] - s.length(), 0) + 2));
            }
        }
        return sb.toString();
    }

    @Override
    public void close() {
        out.flush();
    }
}
