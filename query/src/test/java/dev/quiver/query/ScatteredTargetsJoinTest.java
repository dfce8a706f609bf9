package dev.quiver.query;

import dev.quiver.index.Ids;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;
import dev.quiver.storage.World;
import dev.quiver.storage.table.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The RG-1 join shape {@code (Likes, $y), Pos($y)} over a sparse Likes whose holders fill one table
 * of more rows than the engine looks targets up at once (it locates a window of targets in
 * entity index order, then binds them in row order): every row comes in the table's row order,
 * each with its own target, a holder's one target located in the right table and row, across
 * window edges; targets that lie far apart in the entity index, in two tables, holders with
 * several targets (a row each, not located) and targets without Pos included. Reproduce with {@code -Dquiver.seed=N}.
 */
class ScatteredTargetsJoinTest {
    @TempDir
    Path tmp;

    /** Holders of Likes, all in one table: more than one lookup window (16,384 targets). */
    private static final int HOLDERS = 20_000;
    /** Entities the targets are drawn from. */
    private static final int TARGETS = 30_000;

    @Test
    void eachRowBindsItsOwnTargetInRowOrderAcrossLookupWindows() {
        long seed = Long.getLong("quiver.seed", System.nanoTime() % 100000);
        System.out.println("ScatteredTargetsJoinTest seed " + seed + " (-Dquiver.seed=" + seed + ")");
        String what = "seed " + seed;
        try (World w = SparseChildOfQueryTest.create(tmp.resolve("w"), "auto")) {
            long pos = w.component("Pos", Schema.of("x", FieldType.F64));
            long[] target = new long[TARGETS];
            long[] holder = new long[HOLDERS];
            List<String> want = new ArrayList<>(); // "holder target": the pairs whose target has Pos
            Map<Long, Integer> number = new HashMap<>();
            Set<Long> several = new HashSet<>();
            w.transaction(x -> {
                long likes = x.entity("Likes");
                x.add(likes, Builtin.DONT_FRAGMENT);
                makeTargets(x, pos, target, number);
                Random rnd = new Random(seed);
                for (int h = 0; h < HOLDERS; h++) {
                    holder[h] = x.entity();
                    int a = rnd.nextInt(TARGETS);
                    int b = h % 97 == 0 ? (a + 1 + rnd.nextInt(TARGETS - 1)) % TARGETS : -1; // several targets: a row each
                    if (b >= 0) {
                        several.add(holder[h]);
                    }
                    for (int t : b < 0 ? new int[] {a} : new int[] {a, b}) {
                        x.add(holder[h], Ids.pair(likes, target[t]));
                        if (t % 11 != 0) {
                            want.add(holder[h] + " " + target[t]);
                        }
                    }
                }
            });
            Query q = Query.parse(w, "(Likes, $y), Pos($y)");
            List<String> got = new ArrayList<>();
            Table[] thisTable = {null};
            int[] lastRow = {-1};
            long[] sum = {0};
            int[] located = {0};
            q.forEach(r -> {
                long y = r.variable("y");
                Table t = r.fieldTable(1);
                double x = r.get(1, "x", Double.class);
                assertEquals((double) number.get(y), x, what);
                if (!several.contains(r.thisEntity())) { // a holder's one target is located with its table
                    assertNotNull(t, what + ": a sparse Likes target is located with its table");
                    located[0]++;
                }
                if (t != null) {
                    assertEquals(y, t.entity(r.fieldRow(1)), what + ": row " + got.size() + " located at its own target");
                    assertEquals(x, t.column(pos).f64(0, r.fieldRow(1)), what);
                }
                // rows come in the holders' table order (a holder's rows together): row numbers never go back
                if (thisTable[0] == null) {
                    thisTable[0] = r.thisTable();
                }
                assertEquals(thisTable[0], r.thisTable(), what + ": all holders in one table");
                assertTrue(r.thisRow() >= lastRow[0], what + ": row order");
                lastRow[0] = r.thisRow();
                sum[0] += (long) x;
                got.add(r.thisEntity() + " " + y);
            });
            assertTrue(thisTable[0].count() > 16_384, what + ": more holders than one lookup window");
            assertTrue(located[0] > 15_000, what + ": " + located[0] + " rows located");
            long sumWant = 0;
            for (String p : want) {
                sumWant += number.get(Long.parseLong(p.substring(p.indexOf(' ') + 1)));
            }
            assertEquals(sumWant, sum[0], what + ": sum of Pos.x of the targets");
            Collections.sort(want);
            Collections.sort(got);
            assertEquals(want, got, what + ": one row per pair whose target has Pos");
        }
    }

    /**
     * Fills {@code target} with new entities, each numbered by its position in {@code number}: all
     * but every 11th with Pos {x: its number}, and every 3rd also with the tag Other, so that the
     * targets lie in two tables (the targets of this test and of {@link LocatedWindowsJoinTest}).
     */
    static void makeTargets(World x, long pos, long[] target, Map<Long, Integer> number) {
        long other = x.entity("Other");
        for (int i = 0; i < target.length; i++) {
            target[i] = x.entity();
            number.put(target[i], i);
            if (i % 11 != 0) {
                x.set(target[i], pos, Map.of("x", (double) i));
            }
            if (i % 3 == 0) {
                x.add(target[i], other);
            }
        }
    }
}
