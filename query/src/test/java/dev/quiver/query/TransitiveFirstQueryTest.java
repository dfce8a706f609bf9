package dev.quiver.query;

import dev.quiver.storage.Builtin;
import dev.quiver.storage.PageReads;
import dev.quiver.storage.World;
import dev.quiver.storage.table.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The first transitive query {@code (LocatedIn, n<k>)} after a reopen takes its sources' ids,
 * tables and rows from the entity index and reads no row page (the tables' rows stay unread: RG-1
 * depth 6 read 115 row pages and an 8 MB entity array for it), and answers exactly as the world
 * did in memory before the close: the same rows, in the same order, with the same tables, rows
 * and field sources, over a tree whose siblings are split between tables (a tag moved some out
 * and back), with diamonds (nodes under two parents) and a cycle.
 */
class TransitiveFirstQueryTest {
    @TempDir
    Path dir;

    @Test
    void theFirstWalkAfterAReopenReadsNoRowPageAndAnswersAsBefore() {
        long seed = Long.getLong("quiver.seed", System.nanoTime() % 100000);
        System.out.println("TransitiveFirstQueryTest seed " + seed + " (-Dquiver.seed=" + seed + ")");
        Random rnd = new Random(seed);
        int fanout = 8, nodes = 1 + 8 + 64 + 512 + 4096; // the leaves fill several row pages of one table
        long[] node = new long[nodes];
        int[] ks = {1, 0, 3, 2, 9, 70};
        List<List<String>> before = new ArrayList<>();
        try (World w = World.create(dir.resolve("w"))) {
            long[] rel = new long[2];
            w.transaction(tx -> {
                rel[0] = tx.entity("LocatedIn");
                tx.add(rel[0], Builtin.TRANSITIVE);
                tx.add(rel[0], Builtin.DONT_FRAGMENT); // as RG-1: the nodes sit in few tables
                rel[1] = tx.entity("Tagged");
                for (int i = 0; i < nodes; i++) {
                    node[i] = tx.entity("n" + i);
                    if (i > 0) {
                        tx.add(node[i], tx.pair(rel[0], node[(i - 1) / fanout]));
                    }
                }
            });
            w.transaction(tx -> {
                for (int i = 9; i < nodes; i++) {
                    if (rnd.nextInt(20) == 0) { // a diamond: under a second parent of the same level
                        int parent = (i - 1) / fanout;
                        int other = parent == 1 ? 2 : parent - 1;
                        tx.add(node[i], tx.pair(rel[0], node[other]));
                    }
                    if (rnd.nextInt(12) == 0) { // to another table, the last row swapped into its place
                        tx.add(node[i], rel[1]);
                    }
                }
                tx.add(node[1], tx.pair(rel[0], node[9 + rnd.nextInt(64)])); // a cycle through n1
            });
            w.transaction(tx -> { // some back, to the end of the first table
                for (int i = 1; i < nodes; i++) {
                    if (tx.has(node[i], rel[1]) && rnd.nextInt(3) == 0) {
                        tx.remove(node[i], rel[1]);
                    }
                }
            });
            for (int k : ks) {
                before.add(answers(w, k));
            }
        }
        try (World w = World.open(dir.resolve("w"))) {
            PageReads p0 = w.pageReads();
            List<String> first = answers(w, ks[0]);
            PageReads p1 = w.pageReads();
            assertEquals(0, p1.rowPages() - p0.rowPages(), "row pages read by the first (LocatedIn, n" + ks[0] + ")");
            assertTrue(p1.entityPages() > p0.entityPages(), "the sources were found in the entity pages");
            assertEquals(before.get(0), first, "seed " + seed);
            for (int j = 1; j < ks.length; j++) {
                assertEquals(before.get(j), answers(w, ks[j]), "seed " + seed + ", n" + ks[j]);
            }
            checkRows(w, ks[0]); // the rows named hold the entities handed out (reads the rows now)
        }
    }

    /** Each result of {@code (LocatedIn, n<k>)} in order: entity, table, row and field source (no row read). */
    private static List<String> answers(World w, int k) {
        List<String> out = new ArrayList<>();
        Query.parse(w, "(LocatedIn, n" + k + ")").forEach(r -> {
            Table t = r.thisTable();
            out.add(r.thisEntity() + "@" + (t == null ? -1 : t.id()) + ":" + r.thisRow() + " src " + r.fieldSource(0)
                + " id " + r.fieldId(0));
        });
        assertTrue(!out.isEmpty(), "n" + k + " has sources");
        assertEquals(out.size(), new HashSet<>(out).size(), "n" + k + ": each source once");
        return out;
    }

    private static void checkRows(World w, int k) {
        Query.parse(w, "(LocatedIn, n" + k + ")").forEach(r ->
            assertEquals(r.thisEntity(), r.thisTable().entity(r.thisRow()), "n" + k + ": the row holds the entity"));
    }
}
