package dev.quiver.storage;

import dev.quiver.error.CorruptionException;
import dev.quiver.index.Ids;
import dev.quiver.storage.file.Store;
import dev.quiver.storage.format.WorldFormat;
import dev.quiver.storage.table.Table;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Open in place for entities and rows (issue 8 section 2, page format 7): a reader's open reads no
 * entity page and no row page; a lookup reads one entity block; a walk over one table reads that
 * table's row pages only; a reader with a small budget across many blocks answers as a whole read;
 * a writer that read lazily commits exactly the world an eager one commits; damaged entity and
 * row pages are refused, naming the page, when touched and by the checker; a damaged names section
 * of an entity page (format 11) when a name of its block is first used, and by the checker.
 */
class OpenInPlaceTest {
    static final long SEED = Long.getLong("quiver.seed", System.nanoTime());
    static final int N = 20_000;
    static final String[] TAGS = {"A", "B", "C", "D"};

    @TempDir
    static Path tmp;

    @BeforeAll
    static void printSeed() {
        System.out.println("OpenInPlaceTest seed " + SEED + " (-Dquiver.seed=" + SEED + ")");
    }

    /** N entities e0.. in 20 blocks, each with Pos {x, label} and one of four tags (four tables of 5,000 rows), and a small table. */
    static void build(Path dir) {
        try (World w = World.create(dir)) {
            w.transaction(x -> {
                long pos = x.component("Pos", Schema.of("x", FieldType.F64, "label", FieldType.STRING));
                long[] tags = new long[TAGS.length];
                for (int t = 0; t < tags.length; t++) {
                    tags[t] = x.entity(TAGS[t]);
                }
                for (int i = 0; i < N; i++) {
                    long e = x.entity("e" + i);
                    x.add(e, tags[i % tags.length]);
                    x.set(e, pos, Map.of("x", (double) i, "label", "l" + i));
                }
                long small = x.entity("Small");
                for (int i = 0; i < 10; i++) {
                    x.add(x.entity("s" + i), small);
                }
            });
        }
    }

    @Test
    void aReaderOpensWithoutEntityOrRowPagesAndReadsWhatItTouches() {
        Path dir = tmp.resolve("touch");
        build(dir);
        try (World r = World.openReadOnly(dir)) {
            WorldFormat f = r.format();
            assertEquals(0, f.entityBlocksRead(), "open decodes no entity page");
            assertEquals(0, f.rowPagesRead(), "open decodes no row page");
            assertEquals(0, f.nameBucketsRead(), "open decodes no name page");
            long e = r.lookup("e12345");
            assertNotEquals(0, e);
            assertEquals(1, f.nameBucketsRead(), "a lookup decodes one name page");
            assertEquals(1, f.entityBlocksRead(), "a lookup decodes one entity block: the candidate's");
            assertEquals(0, f.rowPagesRead());
            // a walk over table A's entities reads its row pages only
            long a = r.lookup("A");
            List<Table> tables = r.tableAccess().tables(a);
            assertEquals(1, tables.size());
            Table t = tables.get(0);
            assertEquals(N / 4, t.count(), "a table's row count is known before its rows are read");
            assertEquals(0, f.rowPagesRead());
            // one row reads its chunk only
            assertNotEquals(0, t.entity(t.count() - 1));
            assertEquals(1, f.rowPagesRead(), "one row: its chunk's page only");
            assertEquals(t.entity(t.count() - 1), t.entities(t.count() - 1, t.count())[t.count() - 1]);
            assertEquals(1, f.rowPagesRead());
            long sum = 0;
            for (int row = 0; row < t.count(); row++) {
                sum += Ids.index(t.entity(row));
            }
            assertTrue(sum > 0);
            int chunks = (N / 4 + 1023) / 1024;
            assertEquals(chunks, f.rowPagesRead(), "one table's rows: its row pages only");
            Map<String, Object> v = r.get(r.lookup("e4"), r.lookup("Pos")); // e4 is in table A
            assertEquals(4.0, v.get("x"));
            assertEquals("l4", v.get("label"));
            assertEquals(2 * chunks, f.rowPagesRead(), "a walk over entities decodes no value; the first value decodes the table's values");
            r.get(r.lookup("e8"), r.lookup("Pos"));
            assertEquals(2 * chunks, f.rowPagesRead());
            assertEquals(List.of(), r.check());
        }
    }

    @Test
    void touchingEntitiesDecodesNoNameAndAbsentReverseBlocksCostOnePageLookupPer1024Targets() {
        Path dir = tmp.resolve("names");
        build(dir);
        try (World r = World.openReadOnly(dir)) {
            WorldFormat f = r.format();
            long a = r.lookup("A");
            assertEquals(0, f.namesDecoded(), "a lookup compares the one candidate's name bytes, no String: " + f.namesDecoded());
            assertEquals(1, r.pageReads().entityNameSections(), "a lookup decodes its candidate's block's names");
            // states, tables and rows of every entity: every entity block, no name
            int alive = 0;
            for (int i = 1; i < N + 1000; i++) {
                long e = r.entityOfIndex(i);
                if (e != 0) {
                    alive++;
                    assertTrue(r.tableAccess().row(e) >= 0);
                }
            }
            assertTrue(alive > N, "alive " + alive);
            assertTrue(f.entityBlocksRead() > N / 1024, "every block read: " + f.entityBlocksRead());
            assertEquals(0, f.namesDecoded(), "touching entities decodes no name");
            assertEquals(1, r.pageReads().entityNameSections(), "touching entities decodes no page's names (format 11)");
            long e7 = r.lookup("e7");
            assertEquals("e7", r.name(e7));
            assertEquals("e7", r.name(e7));
            assertEquals("e7", r.path(e7));
            assertEquals(3, f.namesDecoded(), "a String is made only when a name is asked for (names are kept as bytes)");
            // the sources of every entity (the e's are targets of no pair): a block of 1024 targets
            // is one page lookup, present or absent (format 8; one per 64 targets before)
            assertEquals(0, f.reverseBlocksRead());
            long sources = 0;
            for (int i = 1; i < N + 1000; i++) {
                sources += r.tableAccess().sourceCount(Ids.entity(i, 0));
            }
            assertEquals(0, r.tableAccess().sourceCount(e7));
            assertTrue(f.reverseBlocksRead() <= (N + 1000) / 1024 + 1, "one page lookup per 1024 targets: " + f.reverseBlocksRead());
            assertNotEquals(0, a);
        }
    }

    @Test
    void aReaderWithASmallBudgetAnswersAsAWholeRead() {
        Path dir = tmp.resolve("budget");
        build(dir);
        var rnd = new Random(SEED);
        try (World small = World.openReadOnly(dir); World whole = World.openReadOnly(dir)) {
            small.format().boundCaches(4, 2, 3);
            whole.format().readEverything();
            long pos = whole.lookup("Pos");
            assertEquals(pos, small.lookup("Pos"));
            assertEquals(whole.entityCount(), small.entityCount());
            for (int k = 0; k < 3000; k++) {
                int i = rnd.nextInt(N + 50);
                String name = "e" + i;
                long e = small.lookup(name);
                assertEquals(whole.lookup(name), e, name + " seed " + SEED);
                long byIndex = small.entityOfIndex(rnd.nextInt(N + 100));
                assertEquals(whole.isAlive(byIndex), small.isAlive(byIndex), "seed " + SEED);
                if (e != 0) {
                    assertEquals(whole.name(e), small.name(e));
                    assertEquals(whole.path(e), small.path(e));
                    assertEquals(whole.get(e, pos), small.get(e, pos), name + " seed " + SEED);
                    assertArrayEquals(whole.type(e), small.type(e));
                    assertEquals(whole.tableAccess().row(e), small.tableAccess().row(e));
                }
                assertTrue(small.format().entityBlocksInMemory() <= 3, "seed " + SEED);
            }
            assertTrue(small.format().entityBlocksRead() > N / 1024, "blocks forgotten were read again: "
                    + small.format().entityBlocksRead());
            assertEquals(List.of(), small.check());
        }
    }

    /** The same seeded changes, through a writer that reads lazily or one that read everything first. */
    private static void change(World w, long seed) {
        var rnd = new Random(seed);
        long pos = w.lookup("Pos");
        long b = w.lookup("B");
        w.transaction(x -> {
            for (int k = 0; k < 40; k++) { // a few blocks: e0..e3071
                long e = x.lookup("e" + rnd.nextInt(3072));
                if (e == 0) {
                    continue;
                }
                switch (rnd.nextInt(5)) {
                    case 0 -> x.set(e, pos, Map.of("x", -1.0 * k, "label", "changed" + k));
                    case 1 -> x.delete(e);
                    case 2 -> x.rename(e, "r" + k + "_" + rnd.nextInt(1000));
                    case 3 -> x.add(e, b);
                    default -> x.add(x.entity("new" + k), b);
                }
            }
        });
        w.transaction(x -> { // the last block too
            long last = x.lookup("e" + (N - 1 - rnd.nextInt(100)));
            if (last != 0) {
                x.delete(last);
            }
        });
    }

    /** Every committed page of the world at {@code dir}, read by a reader, one line each (map, key, bytes). */
    static List<String> dump(Path dir) {
        var out = new ArrayList<String>();
        try (World r = World.openReadOnly(dir)) {
            WorldPages.forEach(r, (map, key, blob) -> out.add(map + " " + key + " " + Arrays.toString(blob)));
        }
        return out;
    }

    @Test
    void aLazyWriterCommitsExactlyWhatAnEagerOneCommits() {
        Path lazyDir = tmp.resolve("lazy-writer"), eagerDir = tmp.resolve("eager-writer");
        build(lazyDir);
        build(eagerDir);
        for (int round = 0; round < 3; round++) {
            long seed = SEED + round;
            try (World lazy = World.open(lazyDir)) {
                change(lazy, seed);
                assertTrue(lazy.format().entityBlocksInMemory() < N / 1024, "the writer stayed lazy: "
                        + lazy.format().entityBlocksInMemory() + " blocks read");
            }
            try (World eager = World.open(eagerDir)) {
                eager.format().readEverything();
                change(eager, seed);
                assertEquals(List.of(), eager.check());
            }
            try (World r = World.openReadOnly(lazyDir)) {
                assertEquals(List.of(), r.check(), "seed " + seed);
            }
            assertEquals(dump(eagerDir), dump(lazyDir), "seed " + seed);
        }
    }

    @Test
    void aRefusedTransactionLeavesTheLazyWriterAsCommitted() {
        Path dir = tmp.resolve("refused");
        build(dir);
        try (World w = World.open(dir)) {
            long e4 = w.lookup("e4"), b = w.lookup("B"); // e4 and e8 are in table A
            assertTrue(!w.has(e4, b));
            int row = w.tableAccess().row(w.lookup("e8"));
            assertThrows(LazyOpenTest.BadInputException.class, () -> w.transaction(x -> {
                x.add(e4, b); // moves e4: the last row of table A fills its row
                x.delete(x.lookup("e8"));
                x.entity("brand-new");
                throw new LazyOpenTest.BadInputException("refused on purpose");
            }));
            assertTrue(w.isAlive(w.lookup("e8")));
            assertEquals(row, w.tableAccess().row(w.lookup("e8")));
            assertEquals(0, w.lookup("brand-new"));
            assertTrue(!w.has(e4, b));
            assertEquals(List.of(), w.check());
            w.transaction(x -> x.add(e4, b));
            assertEquals(List.of(), w.check());
        }
        try (World r = World.openReadOnly(dir)) {
            assertTrue(r.has(r.lookup("e4"), r.lookup("B")));
            assertEquals(List.of(), r.check());
        }
    }

    @Test
    void aRenameWithinOneNameBucketIsReadBackWithItsNewHash() {
        // two root names of one bucket: the entry (index, parent) stays, its hash changes
        String from = "x0", to = null;
        int bucket = dev.quiver.storage.entity.EntityNames.bucket(0, from);
        for (int i = 0; to == null; i++) {
            if (dev.quiver.storage.entity.EntityNames.bucket(0, "y" + i) == bucket) {
                to = "y" + i;
            }
        }
        String renamed = to;
        Path dir = tmp.resolve("rename");
        try (World w = World.create(dir)) {
            w.transaction(x -> {
                x.entity(from);
                x.entity("other");
            });
            w.transaction(x -> x.rename(x.lookup(from), renamed));
            try (World r = World.openReadOnly(dir)) { // the rename is a name delta in the WAL
                assertEquals(0, r.lookup(from));
                assertNotEquals(0, r.lookup(renamed));
                assertEquals(List.of(), r.check());
            }
        }
        try (World r = World.openReadOnly(dir)) { // sealed into the bucket's page by the close
            assertEquals(0, r.lookup(from));
            assertNotEquals(0, r.lookup(renamed));
            assertEquals(List.of(), r.check());
        }
    }

    /** A world in {@code dir} holding the pages of {@code from}, one of them replaced by {@code blob}. */
    private static void copyWithPage(Path from, Path dir, String map, long key, byte[] blob) {
        var pages = new ArrayList<WorldPages.Page>();
        try (World r = World.openReadOnly(from)) {
            WorldPages.forEach(r, (m, k, b) -> pages.add(new WorldPages.Page(m, k, m.equals(map) && k == key ? blob : b)));
        }
        Store.create(dir, WorldLifecycle.PAGE_DELTAS, st -> Persistence.commitPages(st, pages));
    }

    @Test
    void aDamagedNamesSectionIsRefusedByNameWhenANameOfItsBlockIsUsedAndByTheChecker() {
        Path dir = tmp.resolve("intact-names");
        build(dir);
        byte[][] blob = new byte[1][];
        try (World r = World.openReadOnly(dir)) {
            WorldPages.forEach(r, (m, k, b) -> {
                if (m.equals("entities") && k == 5) {
                    blob[0] = b;
                }
            });
        }
        byte[] body = body(blob[0]);
        int p = 0;
        while (body[p] < 0) { // varint n
            p++;
        }
        p++;
        int m = ((body[p] & 0xFF) << 24) | ((body[p + 1] & 0xFF) << 16) | ((body[p + 2] & 0xFF) << 8) | (body[p + 3] & 0xFF);
        assertTrue(m > 0 && m < body.length, "the names section's length " + m);
        Arrays.fill(body, body.length - m, body.length, (byte) 0xFF); // the entries intact, the names junk
        byte[] plain = new byte[body.length + 1]; // a plain envelope
        System.arraycopy(body, 0, plain, 1, body.length);
        Path bad = tmp.resolve("bad-names");
        copyWithPage(dir, bad, "entities", 5, plain);
        try (World r = World.openReadOnly(bad)) {
            long e = r.entityOfIndex(5 * 1024 + 100);
            assertNotEquals(0, e, "the block's entries read without its names");
            assertTrue(r.tableAccess().row(e) >= 0);
            assertEquals(0, r.pageReads().entityNameSections());
            var x = assertThrows(CorruptionException.class, () -> r.name(e));
            assertTrue(x.getMessage().contains("entities page 5"), x.getMessage());
            x = assertThrows(CorruptionException.class, () -> r.path(e)); // still refused: nothing half decoded
            assertTrue(x.getMessage().contains("entities page 5"), x.getMessage());
            assertNotEquals(0, r.lookup("e100"), "block 0 is intact");
            x = assertThrows(CorruptionException.class, r::check);
            assertTrue(x.getMessage().contains("entities page 5"), x.getMessage());
        }
    }

    /** A stored page's body: its envelope opened (flag 0 plain, 1 varint length and an LZ4 block). */
    private static byte[] body(byte[] blob) {
        if (blob[0] == 0) {
            return Arrays.copyOfRange(blob, 1, blob.length);
        }
        int len = 0, p = 1, shift = 0;
        byte b;
        do {
            b = blob[p++];
            len |= (b & 0x7F) << shift;
            shift += 7;
        } while (b < 0);
        byte[] out = new byte[len];
        net.jpountz.lz4.LZ4Factory.safeInstance().safeDecompressor().decompress(blob, p, blob.length - p, out, 0);
        return out;
    }

    @Test
    void damagedEntityAndRowPagesAreRefusedByNameWhenTouchedAndByTheChecker() {
        Path dir = tmp.resolve("intact");
        build(dir);
        byte[] junk = new byte[300];
        new Random(SEED).nextBytes(junk);
        junk[0] = 0; // a plain envelope: the body is junk
        Path badEntities = tmp.resolve("bad-entities");
        copyWithPage(dir, badEntities, "entities", 5, junk);
        try (World r = World.openReadOnly(badEntities)) {
            assertNotEquals(0, r.lookup("e100"), "block 0 is intact");
            var e = assertThrows(CorruptionException.class, () -> r.lookup("e5200"));
            assertTrue(e.getMessage().contains("entities page 5"), e.getMessage());
            e = assertThrows(CorruptionException.class, r::check);
            assertTrue(e.getMessage().contains("entities page 5"), e.getMessage());
        }
        long tableA;
        try (World r = World.openReadOnly(dir)) {
            tableA = r.tableAccess().tables(r.lookup("A")).get(0).id();
        }
        long rowsKey = (tableA << 20) | 2;
        Path badRows = tmp.resolve("bad-rows");
        copyWithPage(dir, badRows, "rows", rowsKey, junk);
        try (World r = World.openReadOnly(badRows)) {
            assertNotEquals(0, r.lookup("e100"));
            Table t = r.tableAccess().tables(r.lookup("A")).get(0);
            assertNotEquals(0, t.entity(0), "chunk 0 is intact and read alone");
            var e = assertThrows(CorruptionException.class, () -> t.entity(2 << 10));
            assertTrue(e.getMessage().contains("rows page " + rowsKey), e.getMessage());
            e = assertThrows(CorruptionException.class, () -> t.entity(2 << 10)); // still refused: nothing half read
            assertTrue(e.getMessage().contains("rows page " + rowsKey), e.getMessage());
            e = assertThrows(CorruptionException.class, t::entities);
            assertTrue(e.getMessage().contains("rows page " + rowsKey), e.getMessage());
            e = assertThrows(CorruptionException.class, r::check);
            assertTrue(e.getMessage().contains("rows page " + rowsKey), e.getMessage());
        }
    }
}
