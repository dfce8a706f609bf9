package dev.quiver.cli;

import dev.quiver.query.Query;
import dev.quiver.query.QueryRow;
import dev.quiver.query.cache.CachedQuery;
import dev.quiver.storage.World;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The evaluated answer of one query, turned into names so it can be printed in any
 * {@link ResultFormat}: the count, the rows (all or the first {@code limit}), and the evaluation
 * time. This is the only CLI class that iterates query results.
 */
final class Answer {
    /** One field of a row: the matched id, its source when not the row's own entity, and whether it is set. */
    record Field(String id, String source, boolean set) {
        /** {@code id}, {@code id@source}, or {@code -} when not set (the conformance row notation). */
        @Override
        public String toString() {
            return !set ? "-" : source == null ? id : id + "@" + source;
        }
    }

    /** One result row: {@code $this} (null when the query has none), the variables by name, the fields. */
    record Row(String self, Map<String, String> vars, List<Field> fields) {}

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

    /** Parses {@code text} and sets {@code preset} (variable name to entity name, path or id) on it. */
    static Query parse(World w, String text, java.util.Map<String, String> preset) {
        Query q = Query.parse(w, text);
        for (var v : preset.entrySet()) {
            q = q.set(v.getKey(), w.resolve(v.getValue()));
        }
        return q;
    }

    /**
     * Evaluates {@code text} with the variables {@code vars} (name without {@code $} to entity
     * name, path or id) set before evaluation ({@link Query#set}).
     */
    static Answer evaluate(World w, String text, java.util.Map<String, String> preset, Integer limit, boolean countOnly) {
        long start = System.nanoTime();
        Query q = parse(w, text, preset);
        List<String> vars = new ArrayList<>();
        for (String v : q.variableNames()) {
            vars.add(v);
        }
        boolean hasThis = q.hasThis();
        if (countOnly) {
            long count = q.count();
            return new Answer(text, hasThis, vars, List.of(), count, System.nanoTime() - start);
        }
        List<Row> rows = new ArrayList<>();
        long count;
        if (limit == null) {
            q.forEach(r -> rows.add(row(w, r, hasThis, vars)));
            count = rows.size();
        } else {
            for (QueryRow r : q.rows(limit)) {
                rows.add(row(w, r, hasThis, vars));
            }
            count = rows.size() < limit ? rows.size() : q.count();
        }
        return new Answer(text, hasThis, vars, rows, count, System.nanoTime() - start);
    }

    /**
     * Evaluates {@code text} as a cached query ({@link CachedQuery}: cascade/desc allowed), grouped
     * by the target of {@code groupBy} and sorted by {@code orderBy} when they are not null.
     */
    static Answer evaluateCached(World w, String text, java.util.Map<String, String> preset, String groupBy,
                                 String orderBy, boolean descending, Integer limit, boolean countOnly) {
        long start = System.nanoTime();
        CachedQuery cq = CachedQuery.parse(w, text);
        for (var v : preset.entrySet()) {
            cq = cq.set(v.getKey(), w.resolve(v.getValue()));
        }
        if (groupBy != null) {
            cq = cq.groupBy(groupBy);
        }
        if (orderBy != null) {
            cq = cq.orderBy(orderBy, descending);
        }
        Query q = cq.query();
        List<String> vars = new ArrayList<>(q.variableNames());
        boolean hasThis = q.hasThis();
        if (countOnly) {
            return new Answer(text, hasThis, vars, List.of(), cq.count(), System.nanoTime() - start);
        }
        List<Row> rows = new ArrayList<>();
        for (QueryRow r : cq.rows(limit == null ? -1 : limit)) {
            rows.add(row(w, r, hasThis, vars));
        }
        long count = limit == null || rows.size() < limit ? rows.size() : cq.count();
        return new Answer(text, hasThis, vars, rows, count, System.nanoTime() - start);
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
                fields.add(new Field(idText, null, false));
                continue;
            }
            long src = r.fieldSource(i);
            String source = src == 0 || (hasThis && src == self) ? null : entity(w, src);
            fields.add(new Field(idText, source, true));
        }
        return new Row(hasThis ? entity(w, self) : null, values, fields);
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
