package dev.quiver.storage;

import dev.quiver.storage.table.Table;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A table's entities in pages ({@link Table#entityPage}, issue 8): tables whose row counts sit on
 * the page edges (one row, a page less one, a page, a page and one, many pages) keep every entity
 * in its row through growth, deletions that move the last row across pages, refused transactions
 * (in memory and after a reopen), prefab batches and a reopen, whose lazily read table holds only
 * the pages of the chunks touched. Seeded (printed; {@code -Dquiver.seed=S} repeats a run); rows
 * and entities only, never timings.
 */
class TableEntityPagesTest {
    static final long SEED = Long.getLong("quiver.seed", System.nanoTime());
    static final int PAGE = 1 << Table.PAGE_SHIFT;
    static final int[] SIZES = {1, PAGE - 1, PAGE, PAGE + 1, 5 * PAGE + 17};

    @TempDir
    Path tmp;

    @BeforeAll
    static void printSeed() {
        System.out.println("TableEntityPagesTest seed " + SEED + " (-Dquiver.seed=" + SEED + ")");
    }

    @Test
    void rowsOnPageEdgesKeepTheirEntitiesThroughGrowthDeletesRollbackAndReopen() {
        Random rnd = new Random(SEED);
        Path dir = tmp.resolve("w");
        List<Set<Long>> alive = new ArrayList<>();
        long[] tags = new long[SIZES.length];
        try (World w = World.create(dir)) {
            long pos = w.transactionResult(x -> x.component("Pos", Schema.of("x", FieldType.F64)));
            for (int s = 0; s < SIZES.length; s++) {
                int size = SIZES[s], ts = s;
                Set<Long> ents = new HashSet<>();
                w.transaction(x -> {
                    tags[ts] = x.entity("T" + ts);
                    for (int i = 0; i < size; i++) {
                        long e = x.entity();
                        x.add(e, tags[ts]);
                        x.set(e, pos, Map.of("x", (double) i));
                        ents.add(e);
                    }
                });
                alive.add(ents);
                assertTable(w, "size " + size, ents, rnd, true);
            }
            // a refused transaction that grows the tables by pages and deletes across them changes no row
            List<long[]> before = snapshot(w, alive);
            assertThrows(IllegalStateException.class, () -> w.transaction(x -> {
                for (int s = 0; s < SIZES.length; s++) {
                    for (int i = 0; i < PAGE + 3; i++) {
                        long e = x.entity();
                        x.add(e, tags[s]);
                    }
                    x.delete(alive.get(s).iterator().next());
                }
                throw new IllegalStateException("refused");
            }));
            assertEquals(before.stream().map(Arrays::toString).toList(), snapshot(w, alive).stream().map(Arrays::toString).toList());
            // deletes move each table's last row into the freed rows, across pages
            deleteSome(w, alive, rnd);
            for (int s = 0; s < SIZES.length; s++) {
                assertTable(w, "after deletes, table " + s, alive.get(s), rnd, false);
            }
            assertEquals(List.of(), w.check());
        }
        try (World w = World.open(dir)) {
            // the largest table is read lazily: one row reads its chunk, and only that chunk's page is held
            Set<Long> big = alive.get(SIZES.length - 1);
            Table t = w.tableAccess().table(big.iterator().next());
            int last = t.count() - 1;
            assertFalse(t.rowInMemory(0));
            assertEquals(0, t.entityPagesHeld(), "no page before a row is touched");
            assertTrue(big.contains(t.entity(last)));
            assertEquals(1, t.entityPagesHeld(), "one row touched: its chunk's page only");
            assertFalse(t.rowInMemory(0), "the other chunks are not read");
            assertTrue(big.contains(t.entityPage(1)[3]));
            assertEquals(2, t.entityPagesHeld());
            assertFalse(t.rowInMemory(0));
            // a refused transaction that wrote the lazily read table reads its rows again
            List<long[]> before = snapshot(w, alive);
            assertThrows(IllegalStateException.class, () -> w.transaction(x -> {
                x.add(x.entity(), tags[SIZES.length - 1]);
                throw new IllegalStateException("refused");
            }));
            assertEquals(before.stream().map(Arrays::toString).toList(), snapshot(w, alive).stream().map(Arrays::toString).toList());
            for (int s = 0; s < SIZES.length; s++) {
                assertTable(w, "reopened, table " + s, alive.get(s), rnd, false);
            }
            // appends after a lazy read grow the chunk-sized pages
            deleteSome(w, alive, rnd);
            int s = SIZES.length - 1;
            w.transaction(x -> {
                long pos = x.lookup("Pos");
                for (int i = 0; i < 2 * PAGE + 5; i++) {
                    long e = x.entity();
                    x.add(e, tags[s]);
                    x.set(e, pos, Map.of("x", (double) i));
                    alive.get(s).add(e);
                }
            });
            for (int k = 0; k < SIZES.length; k++) {
                assertTable(w, "grown after reopen, table " + k, alive.get(k), rnd, false);
            }
            assertEquals(List.of(), w.check());
        }
        try (World w = World.open(dir)) {
            for (int s = 0; s < SIZES.length; s++) {
                assertTable(w, "reopened again, table " + s, alive.get(s), rnd, true);
            }
        }
    }

    @Test
    void prefabBatchesGrowATableAcrossPages() {
        Random rnd = new Random(SEED + 1);
        Path dir = tmp.resolve("prefabs");
        Set<Long> instances = new HashSet<>();
        try (World w = World.create(dir)) {
            long prefab = w.transactionResult(x -> {
                long pos = x.component("Pos", Schema.of("x", FieldType.F64));
                long p = x.entity("Ship");
                x.add(p, Builtin.PREFAB);
                x.set(p, pos, Map.of("x", 7.0));
                return p;
            });
            for (int b = 0; b < 4; b++) {
                int n = PAGE / 2 + rnd.nextInt(PAGE);
                for (long e : w.instantiate(prefab, n)) {
                    assertTrue(instances.add(e));
                }
                assertTable(w, "after batch " + b, instances, rnd, true);
            }
            assertEquals(List.of(), w.check());
        }
        try (World w = World.open(dir)) {
            assertTable(w, "reopened", instances, rnd, true);
        }
    }

    /** Deletes about a third of each table's entities, the first and last rows among them. */
    private static void deleteSome(World w, List<Set<Long>> alive, Random rnd) {
        w.transaction(x -> {
            for (Set<Long> ents : alive) {
                if (ents.isEmpty()) {
                    continue;
                }
                Table t = x.tableAccess().table(ents.iterator().next());
                Set<Long> gone = new HashSet<>();
                gone.add(t.entity(0));
                gone.add(t.entity(t.count() - 1));
                for (long e : ents) {
                    if (rnd.nextInt(3) == 0) {
                        gone.add(e);
                    }
                }
                if (gone.size() == ents.size()) {
                    gone.remove(ents.iterator().next()); // keep the table
                }
                for (long e : gone) {
                    x.delete(e);
                }
                ents.removeAll(gone);
            }
        });
    }

    /** Every table's entities in row order. */
    private static List<long[]> snapshot(World w, List<Set<Long>> alive) {
        List<long[]> out = new ArrayList<>();
        for (Set<Long> ents : alive) {
            out.add(w.tableAccess().table(ents.iterator().next()).entitiesCopy());
        }
        return out;
    }

    /**
     * The table of {@code ents} holds exactly them, each in the row the world says, the same through
     * {@link Table#entity}, {@link Table#entityPage}, {@link Table#copyEntities} (random ranges, some
     * across page edges) and {@link Table#entitiesCopy}; and, when its rows were only added, its pages hold
     * less than a page more.
     */
    private static void assertTable(World w, String what, Set<Long> ents, Random rnd, boolean grownOnly) {
        Table t = w.tableAccess().table(ents.iterator().next());
        int n = t.count();
        assertEquals(ents.size(), n, what + ": rows");
        long[] all = t.entitiesCopy();
        assertEquals(n, all.length);
        assertEquals(ents, new HashSet<>(Arrays.stream(all).boxed().toList()), what + ": the table's entities");
        int shift = t.entityPageShift(), mask = (1 << shift) - 1;
        for (long e : ents) {
            int row = w.tableAccess().row(e);
            assertEquals(e, t.entity(row), what + ": entity of row " + row);
            assertEquals(e, all[row], what + ": copy of row " + row);
            assertEquals(e, t.entityPage(row >>> shift)[row & mask], what + ": page of row " + row);
        }
        for (int k = 0; k < 20; k++) {
            int from = rnd.nextInt(n + 1), to = from + rnd.nextInt(n - from + 1);
            if (k == 0 && n > (1 << shift)) { // one range over a page edge
                from = (1 << shift) - 1;
                to = (1 << shift) + 1;
            }
            long[] dst = new long[to - from + 2];
            t.copyEntities(from, to, dst, 1);
            assertArrayEquals(Arrays.copyOfRange(all, from, to), Arrays.copyOfRange(dst, 1, 1 + to - from), what + ": rows " + from + ".." + to);
            assertEquals(0, dst[0]);
            assertEquals(0, dst[dst.length - 1]);
        }
        assertThrows(IndexOutOfBoundsException.class, () -> t.copyEntities(0, n + 1, new long[n + 1], 0));
        assertThrows(IndexOutOfBoundsException.class, () -> t.entityPage((n + (1 << shift) - 1) >>> shift));
        assertTrue(t.capacity() >= n, what + ": capacity " + t.capacity() + " for " + n + " rows");
        if (grownOnly) { // rows only added (deletes keep the pages): less than a page more
            assertTrue(t.capacity() < n + Math.max(1 << shift, 8), what + ": capacity " + t.capacity() + " for " + n + " rows");
        }
    }
}
