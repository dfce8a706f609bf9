package dev.quiver.query;

import dev.quiver.index.Ids;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;
import dev.quiver.storage.World;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Query#eachReused} and {@link Query#forEachReused}: one {@link QueryRow} object for every
 * result, valid during its call. Each result it is set to answers as {@link Query#each}'s row for
 * that result (same order, fields, sources, tables and rows), {@link QueryRow#copy()} keeps one,
 * and the reused row kept past its call answers for a later result, as documented. Over a join
 * whose targets the engine locates a window at a time (Likes stored sparse, holder tables past
 * the sort's threshold), table batches, per-row ids, a query without {@code $this}, and a join
 * evaluated inside another's callback (its lookup scratch is the thread's spare, never shared).
 * Reproduce with {@code -Dquiver.seed=N}.
 */
class ReusedRowsTest {
    @TempDir
    Path tmp;

    private static final int N = 600;

    private static World build(Path dir, long seed) {
        World w = SparseChildOfQueryTest.create(dir, "auto");
        long pos = w.component("Pos", Schema.of("x", FieldType.F64));
        w.transaction(x -> {
            long likes = x.entity("Likes");
            long hates = x.entity("Hates");
            x.add(likes, Builtin.DONT_FRAGMENT);
            x.add(hates, Builtin.DONT_FRAGMENT);
            long[] tags = {x.entity("A"), x.entity("B")};
            long[] e = new long[N];
            Random rnd = new Random(seed);
            for (int i = 0; i < N; i++) {
                e[i] = x.entity("n" + i);
                if (i % 10 != 0) {
                    x.set(e[i], pos, Map.of("x", (double) i));
                }
                if (i % 3 == 0) {
                    x.add(e[i], tags[rnd.nextInt(2)]); // $y's table changes between rows
                }
            }
            // fewer pairs than Pos holders, so that the joins start with the pairs and look their
            // targets up a window at a time
            for (int i = 1; i < N; i += 2) {
                int k = i % 9 == 0 ? 2 : 1; // some holders have two targets (not located)
                for (int j = 0; j < k; j++) {
                    x.add(e[i], Ids.pair(likes, e[rnd.nextInt(N)]));
                }
            }
            for (int i = 0; i < N; i += 4) {
                x.add(e[i], Ids.pair(hates, e[rnd.nextInt(N)]));
            }
        });
        return w;
    }

    /** What a row answers, tables and rows included (a table compares by identity). */
    private static List<Object> answers(QueryRow r) {
        List<Object> out = new ArrayList<>(List.of(r.thisEntity(), r.thisRow(), Arrays.toString(r.variables())));
        out.add(r.thisTable() == null ? "no table" : r.thisTable());
        for (int f = 0; f < r.fieldCount(); f++) {
            out.add(List.of(r.fieldSet(f), r.fieldId(f), r.fieldSource(f), r.fieldRow(f)));
            out.add(r.fieldTable(f) == null ? "no table" : r.fieldTable(f));
        }
        return out;
    }

    /**
     * The reused rows of {@code q} answer, one by one, as its new rows do; their copies are equal
     * to the new rows and keep their answers; the reused row kept past the iteration answers for
     * the last result, or, when {@code located} (a join's rows, which read the engine's bindings
     * during their call), for no result. Returns the number of rows.
     */
    private static int assertReusedAnswersAsNew(Query q, String what, boolean located) {
        List<QueryRow> fresh = q.rows(-1);
        List<List<Object>> want = new ArrayList<>();
        for (QueryRow r : fresh) {
            want.add(answers(r));
        }
        List<List<Object>> got = new ArrayList<>();
        List<QueryRow> copies = new ArrayList<>();
        QueryRow[] first = {null};
        q.eachReused(r -> {
            if (first[0] == null) {
                first[0] = r;
            }
            assertSame(first[0], r, what + ": one row object for every result");
            got.add(answers(r));
            copies.add(r.copy());
            return true;
        });
        assertSameRows(want, got, what + ": each result as each() gives it, in its order");
        assertEquals(fresh.size(), copies.size(), what + ": copies");
        for (int i = 0; i < copies.size(); i++) {
            assertEquals(fresh.get(i), copies.get(i), what + ": copy " + i + " equal to the new row");
            assertEquals(want.get(i), answers(copies.get(i)), what + ": copy " + i + " keeps its answers");
        }
        if (!fresh.isEmpty() && !located) {
            assertEquals(want.get(want.size() - 1), answers(first[0]), what + ": kept past its call, the reused row answers for a later result (the last)");
        } else if (!fresh.isEmpty()) {
            List<Object> none = new ArrayList<>(List.of(0L, -1, Arrays.toString(new long[q.variableNames().size()]), "no table"));
            for (int f = 0; f < first[0].fieldCount(); f++) {
                none.add(List.of(false, 0L, 0L, -1));
                none.add("no table");
            }
            assertEquals(none, answers(first[0]), what + ": kept past its iteration, the located row answers for no result");
        }
        return fresh.size();
    }

    /** Rows' answers equal one by one (the first difference reported, not two whole lists). */
    private static void assertSameRows(List<List<Object>> want, List<List<Object>> got, String what) {
        for (int i = 0; i < Math.min(want.size(), got.size()); i++) {
            assertEquals(want.get(i), got.get(i), what + ": row " + i);
        }
        assertEquals(want.size(), got.size(), what + ": rows");
    }

    @Test
    void reusedRowsAnswerAsNewRowsAndCopiesKeepThem() {
        long seed = Long.getLong("quiver.seed", System.nanoTime() % 100000);
        System.out.println("ReusedRowsTest seed " + seed + " (-Dquiver.seed=" + seed + ")");
        try (World w = build(tmp.resolve("w"), seed)) {
            String s = "seed " + seed + ", ";
            int join = assertReusedAnswersAsNew(Query.parse(w, "(Likes, $y), Pos($y)"), s + "join", true);
            assertTrue(join > 200, s + join + " join rows");
            assertReusedAnswersAsNew(Query.parse(w, "(Likes, $y), Pos($y), ?A($y)"), s + "join with an optional field on $y", true);
            assertReusedAnswersAsNew(Query.parse(w, "Pos"), s + "table batches", false);
            assertReusedAnswersAsNew(Query.parse(w, "Pos, !A"), s + "batches with a Not term", false);
            assertReusedAnswersAsNew(Query.parse(w, "(Likes, *)"), s + "per-row ids", false);
            assertReusedAnswersAsNew(Query.parse(w, "Likes($x, $y), A($y)"), s + "no $this", false);
            assertReusedAnswersAsNew(Query.parse(w, "(Likes, $y), B($y)"), s + "join on a tag", true);
        }
    }

    @Test
    void aReusedRowHasTheLocatedSourceOfItsCurrentResultAndACopyKeepsIt() {
        try (World w = build(tmp.resolve("w"), 7)) {
            long pos = w.entity("Pos");
            Query q = Query.parse(w, "(Likes, $y), Pos($y)");
            List<QueryRow> copies = new ArrayList<>();
            int[] located = {0};
            q.forEachReused(r -> {
                if (r.fieldTable(1) != null) {
                    located[0]++;
                    assertEquals(r.variable("y"), r.fieldTable(1).entity(r.fieldRow(1)), "located at its own $y");
                    assertEquals(r.get(1, "x", Double.class), r.column(1).member("x").getDouble(0), "Pos.x in place");
                }
                copies.add(r.copy());
            });
            assertTrue(located[0] > 200, located[0] + " rows located");
            QueryRow first = copies.get(0);
            assertNotNull(first.fieldTable(1));
            assertEquals(first.variable("y"), first.fieldTable(1).entity(first.fieldRow(1)), "the copy keeps its located source");
            assertNotEquals(first, copies.get(copies.size() - 1));
            // a copy reads the world's tables: after a write its column view refuses, as a new row's does
            long n1 = w.entity("n1");
            w.transaction(x -> x.set(n1, pos, Map.of("x", -1.0)));
            assertThrows(dev.quiver.query.iter.WorldChangedException.class, () -> first.column(1));
        }
    }

    @Test
    void anEarlyStopEndsTheIteration() {
        try (World w = build(tmp.resolve("w"), 3)) {
            int[] calls = {0};
            Query.parse(w, "(Likes, $y), Pos($y)").eachReused(r -> ++calls[0] < 5);
            assertEquals(5, calls[0]);
        }
    }

    @Test
    void aJoinEvaluatedInAnothersCallbackDoesNotShareItsLookups() {
        try (World w = build(tmp.resolve("w"), 11)) {
            Query q = Query.parse(w, "(Likes, $y), Pos($y)");
            Query other = Query.parse(w, "(Hates, $y), Pos($y)"); // other targets of the same holders
            for (Query j : List.of(q, other)) {
                assertTrue(j.plan().startsWith("0: SELECT (") && j.plan().contains("per-table"), "starts with the pairs: " + j.plan());
            }
            List<List<Object>> want = new ArrayList<>();
            for (QueryRow r : q.rows(-1)) {
                want.add(answers(r));
            }
            List<List<Object>> wantOther = new ArrayList<>();
            for (QueryRow r : other.rows(-1)) { // ends by giving its lookup scratch back as the spare
                wantOther.add(answers(r));
            }
            List<List<Object>> outer = new ArrayList<>();
            int[] inner = {0};
            q.eachReused(r -> {
                outer.add(answers(r));
                if (outer.size() % 100 == 1) { // the other join inside, several times, with reused and new rows
                    List<List<Object>> nested = new ArrayList<>();
                    other.eachReused(n -> nested.add(answers(n)));
                    assertSameRows(wantOther, nested, "the nested join at outer row " + outer.size());
                    assertEquals(wantOther.size(), other.rows(-1).size());
                    inner[0]++;
                }
                return true;
            });
            assertSameRows(want, outer, "the outer join after the nested ones");
            assertTrue(inner[0] > 2, inner[0] + " nested joins");
        }
    }
}
