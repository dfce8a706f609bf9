package dev.quiver.query;

import dev.quiver.index.Ids;
import dev.quiver.query.iter.FieldValueException;
import dev.quiver.query.iter.MemberColumn;
import dev.quiver.query.iter.QueryIterator;
import dev.quiver.query.iter.TableResult;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;
import dev.quiver.storage.World;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tables that hold a sparse marker {@code (R, *)} stay table-at-a-time (issue 10, RG-1
 * {@code iter}): a wildcard pair term over a DontFragment R hands out a marker table's rows in one
 * step whose field id is per row ({@link TableResult#fieldIdPerRow}, {@link TableResult#fieldId(int, int)},
 * {@link TableResult#fieldIds}); a source with several targets gives one row per (source, target);
 * every result API gives the rows the fragmenting storage gives.
 */
class PerRowFieldIdsTest {
    @TempDir
    Path tmp;

    /**
     * Position on n0..n{count-1}; n{i} for i >= 1 has (R, n{(i-1)/3}) (a tree of fanout 3), and
     * the sources listed in {@code extra} get a second target n0 or n1.
     */
    private static long[] build(World w, boolean sparse, int count, int... extra) {
        long[] out = new long[count + 2];
        w.transaction(x -> {
            long pos = x.component("Position", Schema.of("x", FieldType.F64));
            long r = x.entity("R");
            x.add(r, Builtin.TRANSITIVE);
            if (sparse) {
                x.add(r, Builtin.DONT_FRAGMENT);
            }
            for (int i = 0; i < count; i++) {
                out[i] = x.entity("n" + i);
                x.set(out[i], pos, Map.of("x", (double) i));
            }
            for (int i = 1; i < count; i++) {
                x.add(out[i], Ids.pair(r, out[(i - 1) / 3]));
            }
            for (int i : extra) {
                x.add(out[i], Ids.pair(r, out[(i - 1) / 3 == 0 ? 1 : 0]));
            }
            out[count] = r;
            out[count + 1] = pos;
        });
        return out;
    }

    private static World create(Path dir, String mode) {
        return SparseChildOfQueryTest.create(dir, mode);
    }

    /** Every row of every step as "entity id@source ...", sorted. */
    private static List<String> stepRows(Query q) {
        var out = new ArrayList<String>();
        q.forEachTable(t -> {
            for (int i = 0; i < t.count(); i++) {
                StringBuilder sb = new StringBuilder().append(t.entity(i));
                for (int f = 0; f < t.fieldCount(); f++) {
                    sb.append(' ').append(t.fieldId(f, i)).append('@').append(t.fieldSource(f, i));
                }
                out.add(sb.toString());
            }
            return true;
        });
        Collections.sort(out);
        return out;
    }

    private static List<String> rows(Query q) {
        var out = new ArrayList<String>();
        q.forEach(r -> {
            StringBuilder sb = new StringBuilder().append(r.thisEntity());
            for (int f = 0; f < r.fieldCount(); f++) {
                sb.append(' ').append(r.fieldId(f)).append('@').append(r.fieldSource(f));
            }
            out.add(sb.toString());
        });
        Collections.sort(out);
        return out;
    }

    @Test
    void aMarkerTableIsOneStepWithAnIdPerRow() {
        try (World w = create(tmp.resolve("w"), "never")) {
            long[] n = build(w, true, 40);
            long r = n[40], pos = n[41];
            Query q = Query.parse(w, "Position, (R, *|self)");
            var steps = new ArrayList<TableResult>();
            q.forEachTable(steps::add);
            assertEquals(1, steps.size(), "the marker table in one step: " + steps);
            TableResult t = steps.get(0);
            assertEquals(39, t.count());
            assertTrue(t.fieldIdPerRow(1));
            assertFalse(t.fieldIdPerRow(0));
            assertEquals(pos, t.fieldId(0));
            long[] ids = t.fieldIds(1);
            assertEquals(39, ids.length);
            MemberColumn x = t.column(0).member("x");
            for (int i = 0; i < t.count(); i++) {
                int node = (int) x.getDouble(i);
                assertEquals(n[node], t.entity(i));
                assertEquals(Ids.pair(r, n[(node - 1) / 3]), ids[i]);
                assertEquals(ids[i], t.fieldId(1, i));
                assertEquals(t.entity(i), t.fieldSource(1, i));
                assertEquals(pos, t.fieldId(0, i));
            }
            assertArrayEquals(new long[] {pos, pos}, java.util.Arrays.copyOf(t.fieldIds(0), 2));
            assertThrows(FieldValueException.class, () -> t.fieldId(1), "one id of a per-row field");
            assertThrows(FieldValueException.class, () -> t.column(1), "a sparse pair carries no data");
            assertThrows(IndexOutOfBoundsException.class, () -> t.fieldId(1, 39));
            assertThrows(IndexOutOfBoundsException.class, () -> t.fieldIdPerRow(2));
            // the per-row each and the pull iteration see the same ids
            var each = new ArrayList<Long>();
            q.forEach(row -> each.add(row.fieldId(1)));
            var expected = new ArrayList<Long>();
            for (long id : ids) {
                expected.add(id);
            }
            assertEquals(expected, each);
            try (QueryIterator it = q.iter()) {
                TableResult s = it.next();
                assertEquals(39, s.count());
                assertArrayEquals(ids, s.fieldIds(1));
                assertFalse(it.hasNext());
            }
            assertEquals(39, q.count());
        }
    }

    @Test
    void anyTargetHasOneIdForTheWholeTable() {
        try (World w = create(tmp.resolve("w"), "never")) {
            long[] n = build(w, true, 20, 5, 9);
            long r = n[20];
            Query q = Query.parse(w, "(R, _)");
            var steps = new ArrayList<TableResult>();
            q.forEachTable(steps::add);
            assertEquals(1, steps.size(), "(R, _): one row per source, several targets or not: " + steps);
            assertFalse(steps.get(0).fieldIdPerRow(0));
            assertEquals(Ids.pair(r, Builtin.WILDCARD), steps.get(0).fieldId(0));
            assertEquals(19, steps.get(0).count());
            assertEquals(19, q.count());
        }
    }

    @Test
    void severalTargetsGiveOneRowPerSourceAndTarget() {
        try (World dense = create(tmp.resolve("d"), "never"); World sparse = create(tmp.resolve("s"), "never")) {
            int[] extra = {4, 5, 17, 30};
            build(dense, false, 40, extra);
            long[] n = build(sparse, true, 40, extra);
            for (String text : new String[] {"Position, (R, *|self)", "(R, *|self), Position", "(R, *|self)", "(R, _)",
                "(R, $x)", "(R, $x), Position($x)", "(R, *)", "Position"}) {
                Query d = Query.parse(dense, text), s = Query.parse(sparse, text);
                assertEquals(rows(d), rows(s), text);
                assertEquals(rows(d), stepRows(s), "table by table: " + text);
                assertEquals(d.count(), s.count(), "count of " + text);
                IterationCheck.check(s);
            }
            Query q = Query.parse(sparse, "Position, (R, *|self)");
            var single = new ArrayList<Long>();
            int[] steps = {0};
            q.forEachTable(t -> {
                steps[0]++;
                if (t.count() == 1 && !t.fieldIdPerRow(1)) {
                    single.add(t.entity(0));
                }
                return true;
            });
            assertEquals(List.of(n[4], n[4], n[5], n[5], n[17], n[17], n[30], n[30]), single,
                "each source with two targets comes as two single-row steps, in row order");
            assertTrue(steps[0] <= 8 + 5, "runs between them stay together: " + steps[0] + " steps");
            assertEquals(39 + 4, q.count());
        }
    }

    @Test
    void transitiveVariableRowsComeInRunsOfOneTarget() {
        try (World dense = create(tmp.resolve("d"), "never"); World sparse = create(tmp.resolve("s"), "never")) {
            build(dense, false, 121);
            long[] n = build(sparse, true, 121);
            Query s = Query.parse(sparse, "(R, $x)");
            Query d = Query.parse(dense, "(R, $x)");
            assertEquals(rows(d), rows(s));
            assertEquals(d.count(), s.count());
            int[] steps = {0};
            long[] results = {0};
            s.forEachTable(t -> {
                steps[0]++;
                results[0] += t.count();
                long x = t.variable("x");
                for (int i = 0; i < t.count(); i++) {
                    assertEquals(Ids.pair(n[121], x), t.fieldId(0, i));
                }
                return true;
            });
            assertEquals(s.count(), results[0]);
            assertTrue(steps[0] < results[0] / 2, "siblings share their closure: " + steps[0] + " steps for " + results[0]);
        }
    }

    @Test
    void stoppingEarlyStopsInsideAMarkerTable() {
        try (World w = create(tmp.resolve("w"), "never")) {
            build(w, true, 30, 7);
            Query q = Query.parse(w, "(R, *|self)");
            int[] seen = {0};
            q.forEachTable(t -> {
                seen[0]++;
                return false;
            });
            assertEquals(1, seen[0]);
            assertEquals(3, q.rows(3).size());
            try (var st = q.stream()) {
                assertEquals(5, st.limit(5).count());
            }
        }
    }
}
