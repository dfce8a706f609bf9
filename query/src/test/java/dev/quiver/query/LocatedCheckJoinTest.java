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
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A join {@code (L, $y), X($y)} whose pair term walks a non-fragmenting L (its targets located
 * with their tables) and whose next term is a WITH on {@code $y} answered once per target table
 * (engine {@code LocatedCheck}), against the same join over a fragmenting copy of L, which runs
 * every term on the general path: the same rows (holder, target, every field's id, source and
 * set bit), with new rows, reused rows and {@code count()}. The targets lie in tables with and
 * without the checked id, in Prefab tables (skipped unless the query mentions Prefab), and some
 * hold a non-fragmenting pair, so that {@code LS($y, t0)} must go row by row. Reproduce with
 * {@code -Dquiver.seed=N}.
 */
class LocatedCheckJoinTest {
    @TempDir
    Path tmp;

    private static final int TARGETS = 3_000;
    private static final int HOLDERS = 1_500;
    private static final int FILLER = 5_000;

    @Test
    void aWithAnsweredPerTargetTableGivesTheGeneralPathsRows() {
        long seed = Long.getLong("quiver.seed", System.nanoTime() % 100000);
        System.out.println("LocatedCheckJoinTest seed " + seed + " (-Dquiver.seed=" + seed + ")");
        try (World w = SparseChildOfQueryTest.create(tmp.resolve("w"), "never")) {
            long pos = w.component("Pos", Schema.of("x", FieldType.F64));
            long[] rels = new long[2]; // sparse Likes, dense LikesD: the same pairs
            w.transaction(x -> {
                Random rnd = new Random(seed);
                long likes = x.entity("Likes");
                x.add(likes, Builtin.DONT_FRAGMENT);
                long likesD = x.entity("LikesD");
                long ls = x.entity("LS");
                x.add(ls, Builtin.DONT_FRAGMENT);
                long t0 = x.entity("t0");
                long color = x.entity("Color"), red = x.entity("Red"), tag = x.entity("Tag");
                rels[0] = likes;
                rels[1] = likesD;
                long[] target = new long[TARGETS];
                for (int i = 0; i < TARGETS; i++) {
                    target[i] = x.entity();
                    if (rnd.nextInt(5) != 0) {
                        x.set(target[i], pos, Map.of("x", (double) i));
                    }
                    if (rnd.nextInt(3) == 0) {
                        x.add(target[i], Ids.pair(color, red));
                    }
                    if (rnd.nextInt(4) == 0) {
                        x.add(target[i], tag);
                    }
                    if (rnd.nextInt(6) == 0) {
                        x.add(target[i], Ids.pair(ls, t0));
                    }
                    if (rnd.nextInt(25) == 0) {
                        x.add(target[i], Builtin.PREFAB);
                    }
                    // a few parents, so that targets spread over more tables
                    if (i > 0 && rnd.nextInt(2) == 0) {
                        x.add(target[i], Ids.pair(Builtin.CHILD_OF, target[rnd.nextInt(Math.min(i, i / 50 + 1))]));
                    }
                }
                // entities no one likes, with the checked ids: the planner walks Likes first (fewer rows), as in RG-1
                for (int i = 0; i < FILLER; i++) {
                    long e = x.entity();
                    x.set(e, pos, Map.of("x", -1.0));
                    x.add(e, tag);
                    x.add(e, Ids.pair(color, red));
                    if (i % 2 == 0) {
                        x.add(e, Builtin.PREFAB);
                    }
                }
                for (int h = 0; h < HOLDERS; h++) {
                    long e = x.entity();
                    if (rnd.nextInt(3) == 0) {
                        x.add(e, tag);
                    }
                    int n = rnd.nextInt(10) == 0 ? 2 : 1; // a few holders with two targets (not located)
                    for (int k = 0; k < n; k++) {
                        long t = target[rnd.nextInt(TARGETS)];
                        x.add(e, Ids.pair(likes, t));
                        x.add(e, Ids.pair(likesD, t));
                    }
                }
            });
            String[] rest = {"Pos($y)", "Color($y, Red)", "LS($y, t0)", "Pos($y), Tag($y)", "Tag($y), Pos($y)",
                "Pos($y), Prefab($y)", "Pos($y), Color($y, *)", "!Pos($y)", "?Tag($y), Pos($y)"};
            int checked = 0;
            for (String r : rest) {
                String what = "seed " + seed + ", " + r;
                List<String> general = rows(w, "(LikesD, $y), " + r, rels[1], rels[0], false);
                List<String> located = rows(w, "(Likes, $y), " + r, 0, 0, false);
                List<String> reused = rows(w, "(Likes, $y), " + r, 0, 0, true);
                same(general, located, what + ": new rows");
                same(general, reused, what + ": reused rows");
                assertEquals(general.size(), Query.parse(w, "(Likes, $y), " + r).count(), what + ": count()");
                checked += general.size();
            }
            assertTrue(checked > 1000, "seed " + seed + ": " + checked + " rows compared");
        }
    }

    /** The same rows, else a failure naming the first that differs (the lists run to thousands). */
    private static void same(List<String> want, List<String> got, String what) {
        for (int i = 0; i < Math.min(want.size(), got.size()); i++) {
            assertEquals(want.get(i), got.get(i), what + ": row " + i);
        }
        assertEquals(want.size(), got.size(), what + ": rows");
    }

    /**
     * The rows of {@code text}, each as "this y, then per field: set, id, source", sorted; ids with
     * relationship {@code from} reported with {@code to} instead (the dense copy's pairs as the
     * sparse relationship's).
     */
    private static List<String> rows(World w, String text, long from, long to, boolean reuse) {
        List<String> out = new ArrayList<>();
        java.util.function.Consumer<QueryRow> add = r -> {
            StringBuilder sb = new StringBuilder().append(r.thisEntity()).append(' ').append(r.variable("y"));
            for (int f = 0; f < r.fieldCount(); f++) {
                long id = r.fieldId(f);
                if (from != 0 && Ids.isPair(id) && Ids.first(id) == Ids.index(from)) {
                    id = Ids.pairOfIndices(Ids.index(to), Ids.second(id));
                }
                sb.append(" | ").append(r.fieldSet(f)).append(' ').append(id).append(' ').append(r.fieldSource(f));
                if (r.fieldSet(f) && r.fieldTable(f) != null) {
                    assertEquals(r.fieldSource(f), r.fieldTable(f).entity(r.fieldRow(f)), text + ": field " + f + "'s table and row");
                }
            }
            out.add(sb.toString());
        };
        Query q = Query.parse(w, text);
        if (reuse) {
            q.forEachReused(add);
        } else {
            q.forEach(add);
        }
        Collections.sort(out);
        return out;
    }
}
