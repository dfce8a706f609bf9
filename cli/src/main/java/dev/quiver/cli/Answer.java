package dev.quiver.cli;

import dev.quiver.index.Ids;
import dev.quiver.query.Query;
import dev.quiver.query.QueryRow;
import dev.quiver.query.cache.CachedQuery;
import dev.quiver.storage.World;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The answer of one query, turned into names so it can be printed in any {@link ResultFormat}:
 * the count, the rows and the evaluation time. {@link #stream} hands rows out as the engine finds
 * them (table by table); {@link #evaluate} keeps them (the demo). This is the only CLI class that
 * iterates query results.
 */
final class Answer {
    /**
     * One field of a row: the matched id, its source when not the row's own entity, whether it is
     * set, and its component value (ordered member map) when the id carries data on the source.
     */
    record Field(String id, String source, boolean set, Map<String, Object> value) {
        /** {@code id}, {@code id@source}, or {@code -} when not set (the conformance row notation). */
        @Override
        public String toString() {
            return !set ? "-" : source == null ? id : id + "@" + source;
        }

        /** {@link #toString()} followed by the value, e.g. {@code Position{x: 1.0, y: 2.0}}. */
        String withValue() {
            if (value == null) {
                return toString();
            }
            StringJoiner j = new StringJoiner(", ", "{", "}");
            value.forEach((k, v) -> j.add(k + ": " + v));
            return this + j.toString();
        }
    }

    /** One result row: {@code $this} (null when the query has none), the variables by name, the fields. */
    record Row(String self, Map<String, String> vars, List<Field> fields) {}

    /**
     * What a printer knows before the rows: the query text, whether rows have {@code $this}, the
     * variables, the field count, and the total count when it was asked for first (else -1).
     */
    record Head(String query, boolean hasThis, List<String> variables, int fieldCount, long count) {}

    /** Receives the rows of {@link #stream} as they come. */
    interface RowSink {
        void head(Head head);

        void row(Row row);

        /** After the last row: the total count (not just the rows shown) and the time in nanoseconds. */
        void end(long count, int shown, long nanos);
    }

    final String query;
    final boolean hasThis;
    final List<String> variables;
    final List<Row> rows;
    final long count;
    final long nanos;

    private Answer(String query, boolean hasThis, List<String> variables, List<Row> rows, long count, long nanos) {
        this.query = query;
        this.hasThis = hasThis;
        this.variables = variables;
        this.rows = rows;
        this.count = count;
        this.nanos = nanos;
    }

    /** True when fewer rows were kept than the query has. */
    boolean truncated() {
        return rows.size() < count;
    }

    /** Evaluation time in milliseconds. */
    double millis() {
        return nanos / 1e6;
    }

    /**
     * Parses and evaluates a query.
     *
     * @param limit     keep at most this many rows (null: all)
     * @param countOnly only count; keep no rows
     * @throws dev.quiver.error.QuiverException for a malformed query or an unknown name
     */
    static Answer evaluate(World w, String text, Integer limit, boolean countOnly) {
        return evaluate(w, text, java.util.Map.of(), limit, countOnly);
    }

    /**
     * Parses {@code text} with {@code preset} (variable name to entity name, path or id) set
     * before evaluation, bound from the start ({@link Query#parse(World, String, java.util.Map)}).
     */
    static Query parse(World w, String text, java.util.Map<String, String> preset) {
        return Query.parse(w, text, entities(w, preset));
    }

    /** The entities of {@code --var NAME=ENTITY} values, in the given order. */
    private static java.util.Map<String, Long> entities(World w, java.util.Map<String, String> preset) {
        java.util.Map<String, Long> out = new java.util.LinkedHashMap<>();
        for (var v : preset.entrySet()) {
            out.put(v.getKey(), w.resolve(v.getValue()));
        }
        return out;
    }

    /**
     * Evaluates {@code text} with the variables {@code vars} (name without {@code $} to entity
     * name, path or id) set before evaluation ({@link Query#set}).
     */
    static Answer evaluate(World w, String text, java.util.Map<String, String> preset, Integer limit, boolean countOnly) {
        Answer[] out = new Answer[1];
        List<Row> rows = new ArrayList<>();
        Head[] head = new Head[1];
        RowSink keep = new RowSink() {
            @Override
            public void head(Head h) {
                head[0] = h;
            }

            @Override
            public void row(Row r) {
                rows.add(r);
            }

            @Override
            public void end(long count, int shown, long nanos) {
                out[0] = new Answer(text, head[0].hasThis(), head[0].variables(), rows, count, nanos);
            }
        };
        if (countOnly) {
            long start = System.nanoTime();
            Query q = parse(w, text, preset);
            Trace.mark("plan");
            keep.head(head(text, q, -1));
            long count = q.count();
            Trace.mark("count");
            keep.end(count, 0, System.nanoTime() - start);
        } else {
            stream(w, text, preset, limit, false, keep);
        }
        return out[0];
    }

    private static Head head(String text, Query q, long count) {
        return new Head(text, q.hasThis(), List.copyOf(q.variableNames()), q.fieldCount(), count);
    }

    /**
     * Parses and evaluates {@code text}, handing each row to {@code sink} as the engine yields it
     * (nothing is collected), at most {@code limit} rows; then the total count (counted apart
     * when the limit cut the rows short).
     *
     * @param countFirst count before the rows (for formats that print the count first); the count
     *                   then runs the query once more
     */
    static void stream(World w, String text, java.util.Map<String, String> preset, Integer limit, boolean countFirst,
                       RowSink sink) {
        long start = System.nanoTime();
        Query q = parse(w, text, preset);
        emit(w, text, q, limit, countFirst, q::each, q::count, sink, start);
    }

    /**
     * Evaluates {@code text} as a cached query ({@link CachedQuery}: cascade/desc allowed), grouped
     * by the target of {@code groupBy} and sorted by {@code orderBy} when they are not null, and
     * hands the rows to {@code sink} as {@link #stream} does (sorting needs every row first).
     *
     * @return the total count (for {@code --format count} without a sink: pass null)
     */
    static long streamCached(World w, String text, java.util.Map<String, String> preset, String groupBy,
                             String orderBy, boolean descending, Integer limit, boolean countFirst, RowSink sink) {
        long start = System.nanoTime();
        CachedQuery cq = CachedQuery.parse(w, text, entities(w, preset));
        if (groupBy != null) {
            cq = cq.groupBy(groupBy);
        }
        if (orderBy != null) {
            cq = cq.orderBy(orderBy, descending);
        }
        try (CachedQuery c = cq) {
            return sink == null ? c.count() : emitCached(w, text, c, limit, countFirst, sink, start);
        }
    }

    private static long emitCached(World w, String text, CachedQuery c, Integer limit, boolean countFirst, RowSink sink,
                                   long start) {
        java.util.function.Consumer<java.util.function.Predicate<QueryRow>> rows = visit -> {
            for (QueryRow r : c.rows(limit == null ? -1 : limit)) {
                if (!visit.test(r)) {
                    return;
                }
            }
        };
        return emit(w, text, c.query(), limit, countFirst, rows, c::count, sink, start);
    }

    /**
     * The common part of {@link #stream} and {@link #streamCached}: the head (with the count first
     * when asked), the rows {@code each} visits up to {@code limit}, then the total count (counted
     * apart only when the limit cut the rows short).
     *
     * @return the total count
     */
    private static long emit(World w, String text, Query q, Integer limit, boolean countFirst,
                             java.util.function.Consumer<java.util.function.Predicate<QueryRow>> each,
                             java.util.function.LongSupplier count, RowSink sink, long start) {
        List<String> vars = List.copyOf(q.variableNames());
        boolean hasThis = q.hasThis();
        long first = countFirst ? count.getAsLong() : -1;
        sink.head(head(text, q, first));
        int[] shown = {0};
        if (limit == null || limit > 0) {
            each.accept(r -> {
                sink.row(row(w, r, hasThis, vars));
                shown[0]++;
                return limit == null || shown[0] < limit;
            });
        }
        long total = first >= 0 ? first : limit == null || shown[0] < limit ? shown[0] : count.getAsLong();
        sink.end(total, shown[0], System.nanoTime() - start);
        return total;
    }

    private static Row row(World w, QueryRow r, boolean hasThis, List<String> vars) {
        long self = hasThis ? r.thisEntity() : 0;
        Map<String, String> values = vars.isEmpty() ? Collections.emptyMap() : new LinkedHashMap<>();
        for (String v : vars) {
            values.put(display(v), entity(w, r.variable(v)));
        }
        int n = r.fieldCount();
        List<Field> fields = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long id = r.fieldId(i);
            String idText = id == 0 ? null : w.idToString(id);
            if (!r.fieldSet(i)) {
                fields.add(new Field(idText, null, false, null));
                continue;
            }
            long src = r.fieldSource(i);
            String source = src == 0 || (hasThis && src == self) ? null : entity(w, src);
            fields.add(new Field(idText, source, true, value(w, src, id)));
        }
        return new Row(hasThis ? entity(w, self) : null, values, fields);
    }

    /** The value of a data id on an entity, or null (a tag, a wildcard, or a value the source does not have). */
    private static Map<String, Object> value(World w, long src, long id) {
        if (src == 0 || src == Ids.WILDCARD || Ids.isWildcard(id) || w.schema(id) == null || !w.isAlive(src)) {
            return null;
        }
        return w.get(src, id);
    }

    /** A variable name without its {@code $}. */
    static String display(String variable) {
        return variable.startsWith("$") ? variable.substring(1) : variable;
    }

    /** An entity's path; {@code *} for an unbound variable (0). */
    private static String entity(World w, long e) {
        if (e == 0) {
            return "*";
        }
        return w.isAlive(e) ? w.path(e) : w.idToString(e);
    }
}
