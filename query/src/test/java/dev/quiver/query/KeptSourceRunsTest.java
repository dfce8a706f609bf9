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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A transitive query with the target known, {@code (Dep, n0)}, keeps where its sources lie (their
 * tables and rows) with the closure while the world is unchanged, and a later evaluation hands
 * them out from there. Those answers must equal the first ones, row for row in the same order;
 * after rows move (a tag added or removed: the closure is the same) each source must come with
 * the table and row that hold it; a hand-out stopped early keeps nothing; sources in a table one
 * query skips (Disabled) are handed out to a query that matches them; and a walk nested in
 * another's continuation keeps runs of its own.
 */
class KeptSourceRunsTest {
    @TempDir
    Path dir;

    private static final int NODES = 600;

    /** A graph over n0..n599: each node depends on an earlier one, some on a later one too (cycles); some hold tag T. */
    private static long[] build(World w, Random rnd) {
        long[] node = new long[NODES];
        w.transaction(tx -> {
            long dep = tx.entity("Dep");
            tx.add(dep, Builtin.TRANSITIVE);
            long tag = tx.entity("T");
            for (int i = 0; i < NODES; i++) {
                node[i] = tx.entity("n" + i);
            }
            for (int i = 1; i < NODES; i++) {
                tx.add(node[i], tx.pair(dep, node[rnd.nextInt(i)]));
                if (rnd.nextInt(20) == 0) {
                    tx.add(node[i], tx.pair(dep, node[i + rnd.nextInt(NODES - i)]));
                }
                if (rnd.nextInt(7) == 0) {
                    tx.add(node[i], tag);
                }
            }
        });
        return node;
    }

    /** The sources {@code query} hands out, in order, each checked against the table and row it comes with. */
    private static List<Long> handedOut(World w, String query) {
        List<Long> out = new ArrayList<>();
        Query.parse(w, query).forEach(r -> {
            Table t = r.thisTable();
            assertTrue(t != null && t.entity(r.thisRow()) == r.thisEntity(),
                query + ": " + r.thisEntity() + " handed out with a row that holds another entity");
            out.add(r.thisEntity());
        });
        return out;
    }

    /** Every entity with a path of one or more Dep edges to {@code target}, by the pairs' targets. */
    private static Set<Long> reaching(World w, long target) {
        long dep = w.lookup("Dep");
        Set<Long> out = new HashSet<>();
        List<Long> queue = new ArrayList<>(List.of(target));
        for (int qi = 0; qi < queue.size(); qi++) {
            long t = queue.get(qi);
            Query.parse(w, "(Dep, " + w.path(t) + "|self)").forEach(r -> {
                if (out.add(r.thisEntity())) {
                    queue.add(r.thisEntity());
                }
            });
        }
        return out;
    }

    /** {@code got} holds every source of {@code want} and each once. */
    private static void assertEachOnce(Set<Long> want, List<Long> got, String what) {
        assertEquals(want, new HashSet<>(got), what);
        assertEquals(want.size(), got.size(), what + ": each source once");
    }

    private static long seed(String test) {
        long seed = Long.getLong("quiver.seed", System.nanoTime() % 100000);
        System.out.println("KeptSourceRunsTest." + test + " seed " + seed + " (-Dquiver.seed=" + seed + ")");
        return seed;
    }

    @Test
    void keptRunsGiveTheSameRowsAndFollowRowMoves() {
        Random rnd = new Random(seed("keptRunsGiveTheSameRowsAndFollowRowMoves"));
        try (World w = World.create(dir.resolve("w"))) {
            long[] node = build(w, rnd);
            Set<Long> want = reaching(w, node[0]);
            List<Long> first = handedOut(w, "(Dep, n0)");
            assertEachOnce(want, first, "each source once");
            assertEquals(first, handedOut(w, "(Dep, n0)"), "from the kept runs: the same rows in the same order");
            for (int round = 0; round < 3; round++) {
                // rows move between tables, the closure stays
                w.transaction(tx -> {
                    long tag = tx.lookup("T");
                    for (int i = 1; i < NODES; i++) {
                        if (rnd.nextInt(5) == 0) {
                            if (tx.has(node[i], tag)) {
                                tx.remove(node[i], tag);
                            } else {
                                tx.add(node[i], tag);
                            }
                        }
                    }
                });
                List<Long> moved = handedOut(w, "(Dep, n0)");
                assertEachOnce(want, moved, "after rows moved, round " + round);
                assertEquals(moved, handedOut(w, "(Dep, n0)"), "after rows moved, kept, round " + round);
            }
        }
    }

    @Test
    void aHandOutStoppedEarlyKeepsNothing() {
        Random rnd = new Random(seed("aHandOutStoppedEarlyKeepsNothing"));
        try (World w = World.create(dir.resolve("w"))) {
            long[] node = build(w, rnd);
            Set<Long> want = reaching(w, node[0]);
            assertTrue(want.size() > 20, "a closure of " + want.size());
            int[] seen = {0};
            Query.parse(w, "(Dep, n0)").each(r -> ++seen[0] < 10);
            assertEquals(10, seen[0]);
            List<Long> all = handedOut(w, "(Dep, n0)");
            assertEachOnce(want, all, "after a stopped hand-out");
            assertEquals(all, handedOut(w, "(Dep, n0)"));
        }
    }

    @Test
    void sourcesOneQuerySkipsAreHandedOutToOneThatMatchesThem() {
        Random rnd = new Random(seed("sourcesOneQuerySkipsAreHandedOutToOneThatMatchesThem"));
        try (World w = World.create(dir.resolve("w"))) {
            long[] node = build(w, rnd);
            Set<Long> all = reaching(w, node[0]);
            Set<Long> off = new HashSet<>();
            w.transaction(tx -> {
                for (long e : all) {
                    if (rnd.nextInt(4) == 0) {
                        tx.add(e, Builtin.DISABLED);
                        off.add(e);
                    }
                }
            });
            assertTrue(!off.isEmpty() && off.size() < all.size());
            Set<Long> on = new HashSet<>(all);
            on.removeAll(off);
            for (int k = 0; k < 2; k++) { // computed, then kept
                List<Long> enabled = handedOut(w, "(Dep, n0)");
                assertEachOnce(on, enabled, "enabled sources, evaluation " + k);
                List<Long> disabled = handedOut(w, "(Dep, n0), Disabled");
                assertEachOnce(off, disabled, "disabled sources, evaluation " + k);
            }
        }
    }

    @Test
    void aWalkNestedInAnothersContinuationKeepsItsOwnRuns() {
        Random rnd = new Random(seed("aWalkNestedInAnothersContinuationKeepsItsOwnRuns"));
        try (World w = World.create(dir.resolve("w"))) {
            long[] node = build(w, rnd);
            Set<Long> outer = reaching(w, node[0]);
            int k = 1;
            while (reaching(w, node[k]).size() < 2) {
                k++;
            }
            Set<Long> inner = reaching(w, node[k]);
            // counting hands out runs of both steps: the walk for n<k> runs inside the walk for n0's continuation
            Query nested = Query.parse(w, "(Dep, n0), Dep($y, n" + k + ")");
            long pairs = (long) outer.size() * inner.size();
            assertEquals(pairs, nested.count(), "pairs ($this, $y)");
            assertEquals(pairs, nested.count(), "pairs ($this, $y), kept");
            for (int t : new int[] {0, k}) {
                List<Long> got = handedOut(w, "(Dep, n" + t + ")");
                Set<Long> want = t == 0 ? outer : inner;
                assertEachOnce(want, got, "n" + t);
            }
        }
    }

    /**
     * Kept runs name their tables by id: after a world is closed and dropped, nothing the cache
     * keeps holds its tables (and their columns) alive. A kept run that held its table did, until
     * the next transitive query on any world happened to drop the closed world's entry.
     */
    @Test
    void aClosedWorldsKeptRunsHoldNoneOfItsTables() throws InterruptedException {
        Random rnd = new Random(seed("aClosedWorldsKeptRunsHoldNoneOfItsTables"));
        java.lang.ref.WeakReference<Table> table = keptAndClosed(rnd);
        for (int i = 0; i < 50 && table.get() != null; i++) {
            System.gc();
            Thread.sleep(20);
        }
        assertTrue(table.get() == null, "a table of the closed world is still reachable");
    }

    /** Builds a world, keeps the runs of (Dep, n0) and closes it: a weak reference to a table the runs lie in. */
    private java.lang.ref.WeakReference<Table> keptAndClosed(Random rnd) {
        try (World w = World.create(dir.resolve("w"))) {
            build(w, rnd);
            List<Long> first = handedOut(w, "(Dep, n0)");
            assertEquals(first, handedOut(w, "(Dep, n0)"), "kept runs");
            return new java.lang.ref.WeakReference<>(w.tableAccess().table(first.get(0)));
        }
    }
}
