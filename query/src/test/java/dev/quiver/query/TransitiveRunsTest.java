package dev.quiver.query;

import dev.quiver.storage.Builtin;
import dev.quiver.storage.World;
import dev.quiver.storage.table.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A transitive query with the target known, {@code (LocatedIn, n<k>)}, hands out its sources in
 * runs of table rows: a run goes on while the next source sits in its table's next row (checked
 * there when that row is in memory), else the source's table and row come from the entity index.
 * Siblings split between tables (some
 * hold another tag, and moving them out and back swapped rows around, as RG-1's Likes holders and
 * its delete do) must come out exactly once each, with the table and row that hold them, in a
 * world in memory and after a reopen (rows read page by page).
 */
class TransitiveRunsTest {
    @TempDir
    Path dir;

    @Test
    void siblingsSplitBetweenTablesComeOutOnceWithTheirRows() {
        long seed = Long.getLong("quiver.seed", System.nanoTime() % 100000);
        System.out.println("TransitiveRunsTest seed " + seed + " (-Dquiver.seed=" + seed + ")");
        Random rnd = new Random(seed);
        int fanout = 6, nodes = 1 + 6 + 36 + 216 + 1296;
        long[] node = new long[nodes];
        long[] rel = new long[2];
        try (World w = World.create(dir.resolve("w"))) {
            w.transaction(tx -> {
                rel[0] = tx.entity("LocatedIn");
                tx.add(rel[0], Builtin.TRANSITIVE);
                rel[1] = tx.entity("Tagged");
                for (int i = 0; i < nodes; i++) {
                    node[i] = tx.entity("n" + i);
                    if (i > 0) {
                        tx.add(node[i], tx.pair(rel[0], node[(i - 1) / fanout]));
                    }
                }
            });
            w.transaction(tx -> { // about one in 12 moves to another table, swapping the last row into its place
                for (int i = 1; i < nodes; i++) {
                    if (rnd.nextInt(12) == 0) {
                        tx.add(node[i], rel[1]);
                    }
                }
            });
            w.transaction(tx -> { // some move back, to the end of the first table
                for (int i = 1; i < nodes; i++) {
                    if (tx.has(node[i], rel[1]) && rnd.nextInt(3) == 0) {
                        tx.remove(node[i], rel[1]);
                    }
                }
            });
            for (int k = 0; k < 8; k++) {
                check(w, node, fanout, k, "in memory");
            }
        }
        try (World w = World.open(dir.resolve("w"))) {
            for (int k = 0; k < 8; k++) {
                check(w, node, fanout, k, "after a reopen");
            }
        }
        try (World w = World.openReadOnly(dir.resolve("w"))) {
            check(w, node, fanout, 0, "read-only");
        }
    }

    /** Every node below n<k>, once, each handed out with the table and row that hold it. */
    private static void check(World w, long[] node, int fanout, int k, String where) {
        Set<Long> want = new HashSet<>();
        for (int i = 1; i < node.length; i++) {
            for (int p = (i - 1) / fanout; ; p = (p - 1) / fanout) {
                if (p == k) {
                    want.add(node[i]);
                    break;
                }
                if (p == 0) {
                    break;
                }
            }
        }
        List<Long> got = new ArrayList<>();
        Query.parse(w, "(LocatedIn, n" + k + ")").forEach(r -> {
            long e = r.thisEntity();
            Table t = r.thisTable();
            assertNotNull(t, where);
            assertEquals(e, t.entity(r.thisRow()), where + ": n" + k + " handed out " + e + " with a row that holds another entity");
            got.add(e);
        });
        Set<Long> missing = new HashSet<>(want);
        missing.removeAll(got);
        Set<Long> extra = new HashSet<>(got);
        extra.removeAll(want);
        assertTrue(missing.isEmpty() && extra.isEmpty(), where + ": sources of n" + k + ": missing " + missing + ", extra " + extra);
        assertEquals(want.size(), got.size(), where + ": sources of n" + k + " (each once)");
        assertTrue(want.size() > 0);
    }
}
