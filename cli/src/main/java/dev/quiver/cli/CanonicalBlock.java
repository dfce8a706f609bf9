package dev.quiver.cli;

import dev.quiver.index.Ids;
import dev.quiver.query.Query;
import dev.quiver.query.QueryRow;
import dev.quiver.query.QuerySyntaxException;
import dev.quiver.query.QueryValidationException;
import dev.quiver.query.UnknownQueryNameException;
import dev.quiver.query.UnsupportedQueryException;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.World;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The canonical answer block of one query ({@code --format canonical}), byte for byte as the
 * conformance format prints it ({@code conformance/FORMAT.md}, produced there by real Flecs):
 *
 * <pre>
 * query: &lt;query text&gt;
 * &lt;this&gt; | &lt;vars&gt; | &lt;fields&gt;
 * ...
 * count: &lt;rows&gt;
 * (empty line)
 * </pre>
 *
 * or {@code error} in place of the rows and count when the query fails to parse or validate
 * ({@link QuerySyntaxException}, {@link UnknownQueryNameException},
 * {@link UnsupportedQueryException}, {@link QueryValidationException}; every other exception
 * propagates).
 *
 * <p>{@code <this>} is the {@code $this} entity's path, or {@code -} when the query has no
 * {@code $this}. {@code <vars>} lists {@code $name=<path>} for every reported variable, sorted by
 * name, {@code *} when unbound, {@code -} when there are none. {@code <fields>} lists one item per
 * field: {@code -} when not set, else the id, followed by {@code @<source>} when the field was not
 * matched on the row's own {@code $this} (a fixed source, a variable source even when it equals
 * {@code $this}, a Singleton's own entity, {@code *} for a {@code _} source), except for an
 * anonymous variable source ({@code $_x}), which Flecs does not report. Rows whose {@code $this}
 * or a printed variable is not a world entity (a builtin such as {@code IsA}) are dropped. Rows
 * are sorted as unsigned byte strings (C {@code strcmp}); duplicates are kept and counted.
 */
final class CanonicalBlock {
    private CanonicalBlock() {}

    /** Unsigned byte order of the UTF-8 text (a proper prefix first), as C {@code strcmp}. */
    static final Comparator<String> BYTE_ORDER = (a, b) -> Arrays.compareUnsigned(
            a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));

    /** Evaluates one query and prints its block, ending with the empty line. */
    static void print(World w, String text, PrintWriter out) {
        out.print("query: " + text + "\n");
        List<String> rows;
        try {
            rows = rows(w, Query.parse(w, text));
        } catch (QuerySyntaxException | UnknownQueryNameException | UnsupportedQueryException
                 | QueryValidationException e) {
            out.print("error\n\n");
            return;
        }
        StringBuilder sb = new StringBuilder();
        for (String r : rows) {
            sb.append(r).append('\n');
        }
        sb.append("count: ").append(rows.size()).append("\n\n");
        out.print(sb);
    }

    /** The printed rows of a query, sorted, world-entity filter applied. */
    static List<String> rows(World w, Query q) {
        List<String> names = new ArrayList<>(q.variableNames());
        names.sort(BYTE_ORDER);
        boolean hasThis = q.hasThis();
        int fields = q.fieldCount();
        String[] sourceVar = new String[fields];
        for (int f = 0; f < fields; f++) {
            sourceVar[f] = q.fieldSourceVariable(f);
        }
        List<String> rows = new ArrayList<>();
        q.forEach(r -> {
            String line = row(w, r, hasThis, names, sourceVar);
            if (line != null) {
                rows.add(line);
            }
        });
        rows.sort(BYTE_ORDER);
        return rows;
    }

    /** One row, or null when it binds {@code $this} or a variable to an entity outside the world's own. */
    private static String row(World w, QueryRow r, boolean hasThis, List<String> names, String[] sourceVar) {
        StringBuilder sb = new StringBuilder();
        long self = r.thisEntity();
        if (hasThis) {
            if (!worldEntity(w, self)) {
                return null;
            }
            sb.append(w.path(self));
        } else {
            sb.append('-');
        }
        sb.append(" | ");
        if (names.isEmpty()) {
            sb.append('-');
        }
        for (int i = 0; i < names.size(); i++) {
            long v = r.variable(names.get(i));
            if (v != 0 && !worldEntity(w, v)) {
                return null;
            }
            sb.append(i == 0 ? "$" : " $").append(names.get(i)).append('=').append(v == 0 ? "*" : w.path(v));
        }
        sb.append(" | ");
        if (sourceVar.length == 0) {
            sb.append('-');
        }
        for (int f = 0; f < sourceVar.length; f++) {
            if (f > 0) {
                sb.append(' ');
            }
            if (!r.fieldSet(f)) {
                sb.append('-');
                continue;
            }
            sb.append(id(w, r.fieldId(f)));
            String var = sourceVar[f];
            long src = r.fieldSource(f);
            boolean onThis = "this".equals(var) && hasThis && src == self;
            boolean anonymous = var != null && var.startsWith("_");
            if (!onThis && !anonymous && src != 0) {
                sb.append('@').append(entity(w, src));
            }
        }
        return sb.toString();
    }

    /** An entity the world's script or user created: alive and not a builtin. */
    private static boolean worldEntity(World w, long e) {
        return e != 0 && !Builtin.isBuiltin(e) && w.isAlive(e);
    }

    /** An id: an entity, or {@code (first,second)} with no space. */
    private static String id(World w, long id) {
        if (Ids.isPair(id)) {
            return "(" + element(w, Ids.first(id)) + "," + element(w, Ids.second(id)) + ")";
        }
        return entity(w, id);
    }

    /** A pair element given as an entity index. */
    private static String element(World w, int index) {
        if (index == 0) {
            return "0";
        }
        long e = index == Ids.WILDCARD_INDEX ? Ids.WILDCARD : index == Ids.ANY_INDEX ? Ids.ANY : w.entityOfIndex(index);
        return e == 0 ? "#" + index : entity(w, e);
    }

    /** An entity's path; {@code *}, {@code _}, {@code 0} for the wildcards and the null entity. */
    private static String entity(World w, long e) {
        if (e == 0) {
            return "0";
        }
        if (e == Ids.WILDCARD) {
            return "*";
        }
        if (e == Ids.ANY) {
            return "_";
        }
        return w.isAlive(e) ? w.path(e) : w.idToString(e);
    }
}
