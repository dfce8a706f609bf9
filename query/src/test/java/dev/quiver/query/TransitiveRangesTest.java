package dev.quiver.query;

import dev.quiver.index.Ids;
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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A transitive variable over a non-fragmenting relationship ({@code (R, $x)}, R DontFragment,
 * RG-1 transvar) hands out, per target, the longest range of consecutive rows whose sources all
 * reach it: a node's grandchildren, which are the consecutive runs of its children's children,
 * come as one step. Every row of such a step is checked against the per-row answer (each source
 * with each of its ancestors), through every result API, values included, and stopping inside a
 * step stops there.
 */
class TransitiveRangesTest {
    /** Nodes of a tree of fanout 3 and depth 4, created in breadth-first order (n{i}'s parent is n{(i-1)/3}). */
    private static final int COUNT = 121;

    @TempDir
    Path tmp;

    /** Position {x = i} on every n{i}; (R, parent) on every n{i} but n0, added in node order, so the marker table's rows are in node order. */
    private static long[] build(World w, boolean sparse) {
        long[] n = new long[COUNT + 1];
        w.transaction(x -> {
            long pos = x.component("Position", Schema.of("x", FieldType.F64));
            long r = x.entity("R");
            x.add(r, Builtin.TRANSITIVE);
            if (sparse) {
                x.add(r, Builtin.DONT_FRAGMENT);
            }
            for (int i = 0; i < COUNT; i++) {
                n[i] = x.entity("n" + i);
                x.set(n[i], pos, Map.of("x", (double) i));
            }
            for (int i = 1; i < COUNT; i++) {
                x.add(n[i], Ids.pair(r, n[(i - 1) / 3]));
            }
            n[COUNT] = r;
        });
        return n;
    }

    /** The per-row answer of {@code (R, $x)}: each node with each of its proper ancestors, as {@link #row} gives it. */
    private static List<String> expected(long[] n) {
        long r = n[COUNT];
        List<String> out = new ArrayList<>();
        for (int i = 1; i < COUNT; i++) {
            for (int a = (i - 1) / 3; ; a = (a - 1) / 3) {
                out.add(n[i] + " x=" + n[a] + " " + Ids.pair(r, n[a]) + "@" + n[i]);
                if (a == 0) {
                    break;
                }
            }
        }
        Collections.sort(out);
        return out;
    }

    private static String row(QueryRow r) {
        return r.thisEntity() + " x=" + r.variable("x") + " " + r.fieldId(0) + "@" + r.fieldSource(0);
    }

    private static List<String> sorted(List<String> rows) {
        List<String> out = new ArrayList<>(rows);
        Collections.sort(out);
        return out;
    }

    /** {@link Query#each} rows in their order. */
    private static List<String> eachRows(Query q) {
        List<String> out = new ArrayList<>();
        q.forEach(r -> out.add(row(r)));
        return out;
    }

    /** Rows of every step of a pull iteration, in order. */
    private static List<String> iterRows(Query q) {
        List<String> out = new ArrayList<>();
        try (QueryIterator it = q.iter()) {
            while (it.hasNext()) {
                TableResult t = it.next();
                for (int i = 0; i < t.count(); i++) {
                    out.add(t.entity(i) + " x=" + t.variable("x") + " " + t.fieldId(0, i) + "@" + t.fieldSource(0, i));
                }
            }
        }
        return out;
    }

    @Test
    void everyRowOfARangeIsThePerRowAnswer() {
        try (World sparse = SparseChildOfQueryTest.create(tmp.resolve("s"), "never");
             World dense = SparseChildOfQueryTest.create(tmp.resolve("d"), "never")) {
            long[] n = build(sparse, true);
            build(dense, false);
            List<String> expected = expected(n);
            Query q = Query.parse(sparse, "(R, $x)");
            List<String> each = eachRows(q);
            assertEquals(expected, sorted(each));
            assertEquals(each, iterRows(q), "the pull iteration gives the rows of each() in the same order");
            assertEquals(expected.size(), q.count());
            assertEquals(expected, sorted(q.rows(Integer.MAX_VALUE).stream().map(TransitiveRangesTest::row).toList()));
            assertEquals(expected.size(), sorted(eachRows(Query.parse(dense, "(R, $x)"))).size());
            // the fragmenting world names its own entities alike: compare by name
            List<String> byName = new ArrayList<>();
            Query.parse(sparse, "(R, $x)").forEach(r -> byName.add(sparse.name(r.thisEntity()) + ">" + sparse.name(r.variable("x"))));
            List<String> denseByName = new ArrayList<>();
            Query.parse(dense, "(R, $x)").forEach(r -> denseByName.add(dense.name(r.thisEntity()) + ">" + dense.name(r.variable("x"))));
            assertEquals(sorted(denseByName), sorted(byName));
        }
    }

    @Test
    void runsReachingOneTargetComeAsOneStep() {
        try (World w = SparseChildOfQueryTest.create(tmp.resolve("w"), "never")) {
            long[] n = build(w, true);
            List<List<String>> stepsOfN1 = new ArrayList<>();
            int[] steps = {0};
            Query.parse(w, "(R, $x)").forEachTable(t -> {
                steps[0]++;
                if (t.variable("x") == n[1]) {
                    List<String> names = new ArrayList<>();
                    for (int i = 0; i < t.count(); i++) {
                        names.add(w.name(t.entity(i)));
                    }
                    stepsOfN1.add(names);
                }
                return true;
            });
            // n1's children n4..n6 are one run; their children n13..n21 are three runs and their
            // grandchildren n40..n66 nine, each one range for n1
            List<String> great = new ArrayList<>();
            for (int i = 40; i <= 66; i++) {
                great.add("n" + i);
            }
            assertEquals(List.of(List.of("n4", "n5", "n6"), List.of("n13", "n14", "n15", "n16", "n17", "n18", "n19", "n20", "n21"),
                great), stepsOfN1);
            // one range for n0 (every row reaches it); for a node at depth 1 to 3, one per depth below it
            int ranges = 1 + 3 * 3 + 9 * 2 + 27 * 1;
            assertEquals(ranges, steps[0]);
        }
    }

    @Test
    void valuesAreReadThroughTheRowsOfARange() {
        try (World w = SparseChildOfQueryTest.create(tmp.resolve("w"), "never")) {
            long[] n = build(w, true);
            Query q = Query.parse(w, "(R, $x)");
            int[] maxStep = {0};
            q.forEachTable(t -> {
                maxStep[0] = Math.max(maxStep[0], t.count());
                return true;
            });
            assertTrue(maxStep[0] > 3, "rows come in ranges longer than a run of siblings: " + maxStep[0]);
            long pos = w.lookup("Position");
            int member = w.schema(pos).indexOf("x");
            long[] rows = {0};
            q.forEach(r -> {
                rows[0]++;
                long self = r.thisEntity();
                double i = Double.parseDouble(w.name(self).substring(1));
                assertNotNull(r.thisTable());
                assertSame(r.thisTable(), r.fieldTable(0));
                assertEquals(r.thisRow(), r.fieldRow(0));
                assertEquals(self, r.thisTable().entity(r.thisRow()));
                assertEquals(i, r.thisTable().column(pos).f64(member, r.thisRow()));
                assertEquals(Ids.pair(n[COUNT], r.variable("x")), r.fieldId(0));
                assertEquals(self, r.fieldSource(0));
            });
            assertEquals(expected(n).size(), rows[0]);
            // the target's value too (a later term on $x)
            rows[0] = 0;
            Query.parse(w, "(R, $x), Position, Position($x)").forEach(r -> {
                rows[0]++;
                double x = Double.parseDouble(w.name(r.variable("x")).substring(1));
                assertEquals(x, r.get(2, "x", Double.class));
                assertEquals(r.variable("x"), r.fieldSource(2));
                assertEquals(Double.parseDouble(w.name(r.thisEntity()).substring(1)), r.get(1, "x", Double.class));
            });
            assertEquals(expected(n).size(), rows[0]);
        }
    }

    @Test
    void stoppingInsideARangeStopsThere() {
        try (World w = SparseChildOfQueryTest.create(tmp.resolve("w"), "never")) {
            build(w, true);
            Query q = Query.parse(w, "(R, $x)");
            List<String> all = eachRows(q);
            // the middle of the largest step, and a few other places
            int[] at = {0};
            int[] best = {0, 0};
            q.forEachTable(t -> {
                if (t.count() > best[1]) {
                    best[0] = at[0];
                    best[1] = t.count();
                }
                at[0] += t.count();
                return true;
            });
            assertTrue(best[1] > 3);
            for (int stop : new int[] {1, best[0] + best[1] / 2, best[0] + 1, all.size() - 1}) {
                List<String> seen = new ArrayList<>();
                q.each(r -> {
                    seen.add(row(r));
                    return seen.size() < stop;
                });
                assertEquals(all.subList(0, stop), seen, "stopped after " + stop + " rows");
                assertEquals(all.subList(0, stop), q.rows(stop).stream().map(TransitiveRangesTest::row).toList());
                try (var st = q.stream()) {
                    assertEquals(all.subList(0, stop), st.limit(stop).map(TransitiveRangesTest::row).toList());
                }
            }
        }
    }
}
