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
 * The join {@code (Likes, $y), Pos($y)} whose targets the engine looks up a holder table at a
 * time in entity index order (a counting sort by index bucket, its passes 32 entries a call):
 * holder tables of 63, 64 and 65 rows (either side of where the sort starts), 95, 97, 129 and
 * 1,001 rows (passes ending in a part of 32), a table whose targets crowd a few buckets, one
 * whose holders all have several targets (nothing to locate), targets drawn from 20,000 entities
 * (small tables sort with wider buckets) in two tables, some without Pos. Each row is checked
 * against a brute-force answer: its target located in the table and row that hold it, its Pos.x
 * read there, one row per pair, a table's holders in row order. Reproduce with
 * {@code -Dquiver.seed=N}.
 */
class LocatedWindowsJoinTest {
    @TempDir
    Path tmp;

    /** Holder tables (one tag each) and their rows. */
    private static final int[] TABLE_ROWS = {63, 64, 65, 95, 97, 129, 1001};
    /** Rows of the table whose targets are 40 neighbours, and of the one whose holders each have two targets. */
    private static final int CROWDED = 200;
    private static final int ALL_SEVERAL = 70;
    /** Entities the targets are drawn from. */
    private static final int TARGETS = 20_000;

    @Test
    void eachLocatedTargetIsItsOwnAcrossSortPassEdges() {
        long seed = Long.getLong("quiver.seed", System.nanoTime() % 100000);
        System.out.println("LocatedWindowsJoinTest seed " + seed + " (-Dquiver.seed=" + seed + ")");
        String what = "seed " + seed;
        try (World w = SparseChildOfQueryTest.create(tmp.resolve("w"), "auto")) {
            long pos = w.component("Pos", Schema.of("x", FieldType.F64));
            Map<Long, Integer> number = new HashMap<>();
            Map<Long, Integer> holderOrder = new HashMap<>();
            Set<Long> several = new HashSet<>();
            List<String> want = new ArrayList<>(); // "holder target" for each pair whose target has Pos
            w.transaction(x -> {
                long likes = x.entity("Likes");
                x.add(likes, Builtin.DONT_FRAGMENT);
                long[] target = new long[TARGETS];
                ScatteredTargetsJoinTest.makeTargets(x, pos, target, number);
                Random rnd = new Random(seed);
                int groups = TABLE_ROWS.length + 2;
                for (int g = 0; g < groups; g++) {
                    long tag = x.entity("Group" + g);
                    int rows = g < TABLE_ROWS.length ? TABLE_ROWS[g] : g == TABLE_ROWS.length ? CROWDED : ALL_SEVERAL;
                    boolean crowded = g == TABLE_ROWS.length;
                    for (int h = 0; h < rows; h++) {
                        long e = x.entity();
                        x.add(e, tag);
                        holderOrder.put(e, holderOrder.size());
                        // 0: no target (a Likes pair removed again), 1: two targets, else one
                        int kind = g == groups - 1 ? 1 : rnd.nextInt(10);
                        int a = crowded ? 5000 + rnd.nextInt(40) : rnd.nextInt(TARGETS);
                        int[] ts = kind == 1 ? new int[] {a, (a + 1 + rnd.nextInt(TARGETS - 1)) % TARGETS} : new int[] {a};
                        for (int t : ts) {
                            x.add(e, Ids.pair(likes, target[t]));
                        }
                        if (kind == 0) {
                            x.remove(e, Ids.pair(likes, target[a]));
                            continue;
                        }
                        if (kind == 1) {
                            several.add(e);
                        }
                        for (int t : ts) {
                            if (t % 11 != 0) {
                                want.add(e + " " + target[t]);
                            }
                        }
                    }
                }
            });
            List<String> got = new ArrayList<>();
            Set<Table> done = new HashSet<>();
            Table[] lastTable = {null};
            int[] lastHolder = {-1};
            int[] located = {0};
            long[] sum = {0};
            Query.parse(w, "(Likes, $y), Pos($y)").forEach(r -> {
                long y = r.variable("y");
                String at = what + ": row " + got.size() + " (" + r.thisEntity() + " " + y + ")";
                Table t = r.fieldTable(1);
                if (!several.contains(r.thisEntity())) {
                    assertNotNull(t, at + ": a holder's one target is located with its table");
                    located[0]++;
                }
                if (t != null) {
                    assertEquals(y, t.entity(r.fieldRow(1)), at + ": located at its own target");
                    assertEquals((double) number.get(y), t.column(pos).f64(0, r.fieldRow(1)), at + ": Pos.x read there");
                }
                assertEquals((double) number.get(y), r.get(1, "x", Double.class), at + ": Pos.x");
                if (r.thisTable() != lastTable[0]) {
                    assertTrue(lastTable[0] == null || done.add(lastTable[0]), at + ": a table's rows come together");
                    lastTable[0] = r.thisTable();
                    lastHolder[0] = -1;
                }
                int holder = holderOrder.get(r.thisEntity());
                assertTrue(holder >= lastHolder[0], at + ": holders in row order");
                lastHolder[0] = holder;
                sum[0] += number.get(y);
                got.add(r.thisEntity() + " " + y);
            });
            long wantSum = 0;
            for (String p : want) {
                wantSum += number.get(Long.parseLong(p.substring(p.indexOf(' ') + 1)));
            }
            assertTrue(located[0] > 1000, what + ": " + located[0] + " rows located");
            assertEquals(wantSum, sum[0], what + ": sum of Pos.x of the targets");
            Collections.sort(want);
            Collections.sort(got);
            assertEquals(want, got, what + ": one row per pair whose target has Pos");
        }
    }
}
