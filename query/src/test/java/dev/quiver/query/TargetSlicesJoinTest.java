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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pair terms over a sparse relationship whose holders' tables are not a whole number of the
 * engine's row slices (it reads a table's rows a slice of 32 at a time): tables of 1, 31, 32, 33,
 * 64, 95 and 97 holders, each holder with no, one or several targets, some targets without Pos.
 * {@code (Likes, $y), Pos($y)} (targets located with their tables) and {@code (Likes, $y)} (not
 * located) give exactly one row per pair, table by table, in each table's row order. Reproduce
 * with {@code -Dquiver.seed=N}.
 */
class TargetSlicesJoinTest {
    @TempDir
    Path tmp;

    private static final int[] TABLE_ROWS = {1, 31, 32, 33, 64, 95, 97};
    private static final int TARGETS = 500;

    @Test
    void everyRowOfEverySliceGivesItsPairsOnce() {
        long seed = Long.getLong("quiver.seed", System.nanoTime() % 100000);
        System.out.println("TargetSlicesJoinTest seed " + seed + " (-Dquiver.seed=" + seed + ")");
        String what = "seed " + seed;
        try (World w = SparseChildOfQueryTest.create(tmp.resolve("w"), "auto")) {
            long pos = w.component("Pos", Schema.of("x", FieldType.F64));
            Map<Long, Integer> number = new HashMap<>();
            List<String> wantJoin = new ArrayList<>(); // "holder target" for targets with Pos, holders in creation order
            List<String> wantPairs = new ArrayList<>(); // every pair
            Map<Long, Integer> holderOrder = new HashMap<>();
            w.transaction(x -> {
                long likes = x.entity("Likes");
                x.add(likes, Builtin.DONT_FRAGMENT);
                long[] target = new long[TARGETS];
                for (int i = 0; i < TARGETS; i++) {
                    target[i] = x.entity();
                    number.put(target[i], i);
                    if (i % 7 != 0) {
                        x.set(target[i], pos, Map.of("x", (double) i));
                    }
                }
                Random rnd = new Random(seed);
                for (int g = 0; g < TABLE_ROWS.length; g++) {
                    long tag = x.entity("Group" + g); // one table per group of holders
                    for (int h = 0; h < TABLE_ROWS[g]; h++) {
                        long e = x.entity();
                        x.add(e, tag);
                        holderOrder.put(e, holderOrder.size());
                        int kind = rnd.nextInt(10); // 0: no target (a Likes pair removed again), 1: two targets, else one
                        int a = rnd.nextInt(TARGETS);
                        int[] ts = kind == 1 ? new int[] {a, (a + 1 + rnd.nextInt(TARGETS - 1)) % TARGETS} : new int[] {a};
                        for (int t : ts) {
                            x.add(e, Ids.pair(likes, target[t]));
                        }
                        if (kind == 0) {
                            x.remove(e, Ids.pair(likes, target[a]));
                            continue;
                        }
                        for (int t : ts) {
                            wantPairs.add(e + " " + target[t]);
                            if (t % 7 != 0) {
                                wantJoin.add(e + " " + target[t]);
                            }
                        }
                    }
                }
            });
            long wantSum = 0;
            for (String p : wantJoin) {
                wantSum += number.get(Long.parseLong(p.substring(p.indexOf(' ') + 1)));
            }
            List<String> join = new ArrayList<>();
            List<Table> joinTables = new ArrayList<>();
            long[] sum = {0};
            Query.parse(w, "(Likes, $y), Pos($y)").forEach(r -> {
                join.add(r.thisEntity() + " " + r.variable("y"));
                joinTables.add(r.thisTable());
                sum[0] += (long) (double) r.get(1, "x", Double.class);
            });
            check(wantJoin, join, joinTables, holderOrder, what + ", join");
            assertEquals(wantSum, sum[0], what + ": sum of Pos.x of the targets");
            List<String> pairs = new ArrayList<>();
            List<Table> pairTables = new ArrayList<>();
            Query.parse(w, "(Likes, $y)").forEach(r -> {
                pairs.add(r.thisEntity() + " " + r.variable("y"));
                pairTables.add(r.thisTable());
            });
            check(wantPairs, pairs, pairTables, holderOrder, what + ", pairs");
        }
    }

    /**
     * The same pairs, each once; a table's rows together, its holders in creation (that is row)
     * order ({@code tables}: each got row's {@code $this} table).
     */
    private static void check(List<String> want, List<String> got, List<Table> tables, Map<Long, Integer> holderOrder,
                              String what) {
        Set<Table> done = new HashSet<>();
        int last = -1;
        for (int i = 0; i < got.size(); i++) {
            String p = got.get(i);
            int holder = holderOrder.get(Long.parseLong(p.substring(0, p.indexOf(' '))));
            if (i > 0 && tables.get(i) != tables.get(i - 1)) {
                assertTrue(done.add(tables.get(i - 1)), what + ": a table's rows come together");
                last = -1;
            }
            assertTrue(holder >= last, what + ": row " + i + ", holders in row order");
            last = holder;
        }
        List<String> w = new ArrayList<>(want);
        List<String> g = new ArrayList<>(got);
        Collections.sort(w);
        Collections.sort(g);
        assertEquals(w, g, what + ": one row per pair");
    }
}
