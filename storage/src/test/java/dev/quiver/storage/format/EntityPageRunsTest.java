package dev.quiver.storage.format;

import dev.quiver.error.CorruptionException;
import dev.quiver.storage.entity.EntityIndex;
import dev.quiver.storage.table.Schemas;
import dev.quiver.storage.table.TableSet;
import dev.quiver.storage.tx.Changes;
import it.unimi.dsi.fastutil.ints.IntArrayList;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An {@code entities} page holds its entries as runs (format 12, EntityPage's Javadoc): a block
 * of entities in one table at consecutive rows is one run, a few bytes, and reading the pages back
 * gives every entry as it was: alive (in three tables, rows in order, out of order and jumping),
 * dead (generations bumped once or many times), and never used (the end of the range). A damaged
 * run (past the page's indices, in a missing table, of an unknown state, a never-used entry with a
 * generation) is refused naming the page. Seeded ({@code -Dquiver.seed=N}, printed).
 */
class EntityPageRunsTest {
    private static final int TABLES = 3;

    private static TableSet tables() {
        var tables = new TableSet(new Changes(), new Schemas(rel -> false));
        for (int t = 0; t < TABLES; t++) {
            tables.create(t, new long[] {1000 + t});
        }
        return tables;
    }

    /** Pages of every block of {@code ei}, read back into a new index (lazily, as an open does). */
    private static EntityIndex roundTrip(EntityIndex ei, TableSet tables) {
        int blocks = (ei.nextIndex() - 1) / EntityIndex.BLOCK + 1;
        byte[][] pages = new byte[blocks][];
        for (int b = 0; b < blocks; b++) {
            Bytes.Writer w = new Bytes.Writer(64);
            assertTrue(EntityPage.write(ei, b, w));
            pages[b] = w.toBytes();
        }
        EntityIndex back = new EntityIndex(null);
        back.restore(ei.nextIndex(), IntArrayList::new, ei.aliveCount());
        back.lazy(b -> EntityPage.read(back, tables, b, pages[b], false), () -> { });
        return back;
    }

    @Test
    @Timeout(60)
    void everyEntryStateComesBackFromItsRuns() {
        long seed = Long.getLong("quiver.seed", System.nanoTime());
        System.out.println("EntityPageRunsTest seed " + seed + " (-Dquiver.seed=" + seed + ")");
        Random rnd = new Random(seed);
        EntityIndex ei = new EntityIndex(null);
        ei.reserve(1);
        int entries = 3 * EntityIndex.BLOCK - 1 - rnd.nextInt(200);
        int[] nextRow = new int[TABLES];
        int table = 0;
        for (int k = 1; k <= entries; k++) {
            int i = ei.allocate();
            ei.revive(i, rnd.nextInt(4) == 0 ? "e" + k : null);
            switch (rnd.nextInt(20)) { // mostly runs in one table at consecutive rows, with breaks of every kind
                case 0 -> table = rnd.nextInt(TABLES); // another table
                case 1 -> nextRow[table] += 1 + rnd.nextInt(1000); // a row jump
                case 2 -> nextRow[table] = Math.max(0, nextRow[table] - 1 - rnd.nextInt(50)); // rows out of order
                default -> { }
            }
            ei.place(i, table, nextRow[table]++);
        }
        for (int k = 1; k <= entries; k++) {
            if (rnd.nextInt(10) == 0) {
                ei.kill(k);
            }
        }
        for (int round = 0; round < 300; round++) { // one index recycled many times: a generation past one varint byte
            int i = ei.allocate(); // the last one killed
            ei.revive(i, null);
            ei.place(i, 2, 5_000_000 + round);
            ei.kill(i);
        }
        int again = ei.allocate(); // and once more, alive
        ei.revive(again, "again");
        ei.place(again, 1, 6_000_000);
        ei.reserve(ei.nextIndex() + 1 + rnd.nextInt(300)); // never-used indices at the end of the range
        TableSet tables = tables();
        EntityIndex back = roundTrip(ei, tables);
        assertEquals(ei.nextIndex(), back.nextIndex());
        int dead = 0, reused = 0;
        for (int i = 0; i < ei.nextIndex(); i++) {
            String at = "entity #" + i + ", seed " + seed;
            assertEquals(ei.state(i), back.state(i), at);
            assertEquals(ei.generation(i), back.generation(i), at);
            if (ei.state(i) == EntityIndex.ALIVE) {
                assertEquals(ei.table(i), back.table(i), at);
                assertEquals(ei.row(i), back.row(i), at);
            } else if (ei.state(i) == EntityIndex.DEAD) {
                assertEquals(-1, back.row(i), at);
                dead++;
            }
            reused += ei.generation(i) > 127 ? 1 : 0;
        }
        assertTrue(dead > 0 && reused > 0 && ei.state(ei.nextIndex() - 1) == EntityIndex.FREE_NEVER,
                "the block held dead, much reused and never-used entries, seed " + seed);
    }

    @Test
    void aBlockInOneTableAtConsecutiveRowsIsOneRun() {
        EntityIndex ei = new EntityIndex(null);
        ei.reserve(EntityIndex.BLOCK); // block 1 is entities 1024..2047
        for (int k = 0; k < EntityIndex.BLOCK; k++) {
            int i = ei.allocate();
            ei.revive(i, null);
            ei.place(i, 2, 70_000 + k);
        }
        Bytes.Writer w = new Bytes.Writer(64);
        assertTrue(EntityPage.write(ei, 1, w));
        // varint n (2 bytes), i32 m, one run: code, length - 1 (2 bytes), zz table, zz row (3 bytes); no names
        assertEquals(2 + 4 + 1 + 2 + 1 + 3, w.size(), "one run, not one entry per entity");
        EntityIndex back = roundTrip(ei, tables());
        for (int i = EntityIndex.BLOCK; i < 2 * EntityIndex.BLOCK; i++) {
            assertEquals(70_000 + i - EntityIndex.BLOCK, back.row(i));
            assertEquals(2, back.table(i));
            assertTrue(back.isAliveIndex(i));
        }
    }

    /** Block 0 of 10 indices: n, m = 0, then the given runs' bytes. */
    private static CorruptionException refused(TableSet tables, int... runs) {
        Bytes.Writer w = new Bytes.Writer(64);
        w.varint(10);
        w.i32(0);
        for (int v : runs) {
            w.varint(v);
        }
        byte[] page = w.toBytes();
        EntityIndex ei = new EntityIndex(null);
        ei.restore(10, IntArrayList::new, 0);
        ei.lazy(b -> EntityPage.read(ei, tables, b, page, false), () -> { });
        return assertThrows(CorruptionException.class, () -> ei.state(3));
    }

    @Test
    void aDamagedRunIsRefusedNamingThePage() {
        TableSet tables = tables();
        int alive = EntityIndex.ALIVE, dead = EntityIndex.DEAD;
        // a run of 11 entries on a page of 10
        CorruptionException e = refused(tables, alive, 10, 0, 0);
        assertTrue(e.getMessage().contains("entity page 0") && e.getMessage().contains("past"), e.getMessage());
        // runs of 4 and 7 entries: past the page's 10
        e = refused(tables, dead | 1 << 2, 3, alive, 6, 0, 0);
        assertTrue(e.getMessage().contains("entity page 0") && e.getMessage().contains("past"), e.getMessage());
        // table 3 of 3 (zz 6 = +3)
        e = refused(tables, alive, 9, 6, 0);
        assertTrue(e.getMessage().contains("entity page 0") && e.getMessage().contains("table 3"), e.getMessage());
        // state 3
        e = refused(tables, 3, 9);
        assertTrue(e.getMessage().contains("entity page 0") && e.getMessage().contains("state 3"), e.getMessage());
        // a never-used run with a generation
        e = refused(tables, 5 << 2, 9);
        assertTrue(e.getMessage().contains("entity page 0") && e.getMessage().contains("generation 5"), e.getMessage());
        // runs that stop short of the page's 10 entries (the names section's length then disagrees)
        e = refused(tables, dead | 1 << 2, 4);
        assertTrue(e.getMessage().startsWith("entity page 0"), e.getMessage());
    }
}
