package dev.quiver.query;

import dev.quiver.query.iter.QueryIterator;
import dev.quiver.query.iter.TableResult;
import dev.quiver.storage.table.Table;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Checks that every way of iterating a query gives the rows the engine finds one row at a time:
 * {@link Query#rows} and {@link Query#each} (table by table, pushed), {@link Query#stream()} and
 * {@link Query#iter()} (pulled in chunks), as multisets; and that each {@link TableResult} is
 * consistent with its table (entities, self fields' sources). Used by the query tests' row helpers
 * so that every query test world runs through it.
 */
final class IterationCheck {
    private IterationCheck() {}

    /** A row as text with everything it carries: this, variables, and per field id, source and set. */
    static String key(QueryRow r) {
        StringBuilder sb = new StringBuilder().append(r.thisEntity()).append(' ').append(Arrays.toString(r.variables()));
        for (int f = 0; f < r.fieldCount(); f++) {
            sb.append(' ').append(r.fieldSet(f) ? r.fieldId(f) + "@" + r.fieldSource(f) : "-");
        }
        return sb.toString();
    }

    private static List<String> sorted(List<QueryRow> rows) {
        List<String> out = rows.stream().map(IterationCheck::key).collect(Collectors.toCollection(ArrayList::new));
        Collections.sort(out);
        return out;
    }

    /** Runs every iteration path of {@code q} and compares them with the row-at-a-time reference. */
    static void check(Query q) {
        List<String> reference = sorted(q.rowsOneByOne());
        String what = q.text();
        assertEquals(reference, sorted(q.rows(-1)), "rows(-1) of " + what);
        List<QueryRow> each = new ArrayList<>();
        q.each(each::add);
        assertEquals(reference, sorted(each), "each of " + what);
        List<QueryRow> streamed;
        try (var s = q.stream()) {
            streamed = s.collect(Collectors.toList());
        }
        assertEquals(reference, sorted(streamed), "stream of " + what);
        long rows = 0;
        try (QueryIterator it = q.iter()) {
            while (it.hasNext()) {
                TableResult t = it.next();
                assertTrue(t.count() >= 1, "empty step of " + what);
                rows += t.count();
                consistent(q, t);
            }
        }
        assertEquals(reference.size(), rows, "iter rows of " + what);
        assertEquals(reference.size(), q.count(), "count of " + what);
    }

    private static void consistent(Query q, TableResult t) {
        Table tb = t.table();
        if (tb != null) {
            assertTrue(t.offset() + t.count() <= tb.count(), t + " beyond its table");
            assertTrue(t.entities() == tb.entities(), "entities are the table's array, not a copy");
        }
        for (int i = 0; i < t.count(); i++) {
            if (q.hasThis()) {
                assertEquals(t.entities()[t.offset() + i], t.entity(i));
            }
            for (int f = 0; f < t.fieldCount(); f++) {
                assertEquals(t.fieldIds(f)[i], t.fieldId(f, i), "fieldIds of field " + f + " of " + q.text());
                if (!t.fieldIdPerRow(f)) {
                    assertEquals(t.fieldId(f), t.fieldId(f, i), "one id of field " + f + " of " + q.text());
                }
                if (t.fieldIsSelf(f)) {
                    assertEquals(t.entity(i), t.fieldSource(f, i), "self field " + f + " of " + q.text());
                    assertEquals(0, t.fieldSource(f));
                }
            }
        }
    }
}
