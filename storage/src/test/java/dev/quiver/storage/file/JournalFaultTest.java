package dev.quiver.storage.file;

import dev.quiver.storage.World;

import dev.quiver.error.QuiverException;
import dev.quiver.error.StorageIOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Faults injected under the write-ahead log ({@link FaultyFileLayer}) and while a checkpoint seals
 * it into a generation (issue 8, faults 1 and 8): after each, the transaction is reported failed or
 * kept in the WAL for the next open, the world reopens in the state before or after it, and
 * {@link World#check()} is clean.
 */
class JournalFaultTest {
    @TempDir
    Path tmp;
    final FaultyFileLayer faults = new FaultyFileLayer();
    /** Checkpoint step that fails as if the disk were full; null: none. */
    volatile String failStep;

    @BeforeEach
    void install() {
        Store.hooks = new StoreHooks() {
            @Override
            FileLayer fileLayer() {
                return faults;
            }

            @Override
            void step(String name) {
                if (name.equals(failStep)) {
                    throw new StorageIOException("No space left on device (injected at " + name + ")");
                }
            }
        };
    }

    @AfterEach
    void uninstall() {
        Store.hooks = StoreHooks.NONE;
    }

    private Path worldWithA() {
        Path dir = tmp.resolve("w");
        try (World w = World.create(dir)) {
            w.entity("a");
        }
        return dir;
    }

    /** The WAL of the live manifest. */
    private static Path wal(Path dir) {
        return dir.resolve(Manifest.walName(Manifest.current(dir)));
    }

    private static long journalSize(Path dir) throws Exception {
        Path f = wal(dir);
        return Files.exists(f) ? Files.size(f) : 0;
    }

    private static int journalRecords(Path dir) {
        return Journal.read(wal(dir)).size();
    }

    private static void assertReopens(Path dir, boolean bPresent) {
        try (World w = World.open(dir)) {
            assertEquals(List.of(), w.check());
            assertNotEquals(0, w.lookup("a"));
            assertEquals(bPresent, w.lookup("b") != 0, "b present");
            w.entity("after"); // and it takes commits again
        }
        try (World w = World.openReadOnly(dir)) {
            assertEquals(List.of(), w.check());
            assertNotEquals(0, w.lookup("after"));
        }
    }

    @Test
    void aShortWriteIsCutBackAndTheTransactionFails() throws Exception {
        Path dir = worldWithA();
        try (World w = World.open(dir)) {
            w.entity("x");
            long before = journalSize(dir);
            faults.shortWrite = 10;
            var e = assertThrows(StorageIOException.class, () -> w.entity("b"));
            assertTrue(e.getMessage().contains("No space left"), e.getMessage());
            assertEquals(0, w.lookup("b"), "rolled back");
            assertEquals(before, journalSize(dir), "no torn bytes left in the journal");
            w.entity("c");
            assertEquals(2, journalRecords(dir), "the next record follows the last good one");
            assertEquals(List.of(), w.check());
        }
        assertReopens(dir, false);
        try (World w = World.openReadOnly(dir)) {
            assertNotEquals(0, w.lookup("c"));
        }
    }

    @Test
    void aFailedFsyncIsCutBackAndTheTransactionFails() throws Exception {
        Path dir = worldWithA();
        try (World w = World.open(dir)) {
            long before = journalSize(dir);
            faults.failForce = true;
            assertThrows(StorageIOException.class, () -> w.entity("b"));
            assertEquals(0, w.lookup("b"));
            assertEquals(before, journalSize(dir));
            w.entity("c");
            assertEquals(1, journalRecords(dir));
        }
        assertReopens(dir, false);
    }

    /** Leaves the writer's store the way a killed process leaves it (World keeps it in its Persistence). */
    static void abandon(World w) throws ReflectiveOperationException {
        var p = World.class.getDeclaredField("persistence");
        p.setAccessible(true);
        Object persistence = p.get(w);
        var f = persistence.getClass().getDeclaredField("store");
        f.setAccessible(true);
        ((Store) f.get(persistence)).abandon();
        f.set(persistence, null);
    }

    @Test
    void aRecordWhoseFsyncFailedIsNeverSeenByReaders() throws Exception {
        Path dir = worldWithA();
        try (World w = World.open(dir)) {
            w.entity("x");
            var seen = new java.util.ArrayList<String>();
            faults.onFailedForce = () -> {
                // the record of "b" is written whole but its fsync failed: a reader opening now
                seen.add("records " + journalRecords(dir));
                try (World r = World.openReadOnly(dir)) {
                    seen.add("x " + (r.lookup("x") != 0) + ", b " + (r.lookup("b") != 0));
                }
            };
            faults.failForce = true;
            assertThrows(StorageIOException.class, () -> w.entity("b"));
            assertEquals(List.of("records 1", "x true, b false"), seen);
            faults.onFailedForce = null;
            w.entity("c");
            assertEquals(2, journalRecords(dir), "a record is visible once forced");
        }
        assertReopens(dir, false);
    }

    @Test
    void aForcedRecordNotYetMarkedIsRecoveredByTheWriter() throws Exception {
        Path dir = worldWithA();
        try (World w = World.open(dir)) {
            w.entity("b");
            // the process dies after the fsync, before the mark reached the disk
            Path wal = wal(dir);
            byte[] all = Files.readAllBytes(wal);
            java.nio.ByteBuffer.wrap(all).putInt(0, Journal.PENDING);
            Files.write(wal, all);
            assertEquals(0, journalRecords(dir), "readers do not see a record still pending");
            abandon(w);
        }
        try (World w = World.open(dir)) { // the writer's recovery takes it as committed
            assertNotEquals(0, w.lookup("b"));
            assertEquals(1, journalRecords(dir), "and marks it for readers");
        }
        assertReopens(dir, true);
    }

    @Test
    void anAppendThatCannotBeCutBackPoisonsTheStore() throws Exception {
        Path dir = worldWithA();
        try (World w = World.open(dir)) {
            faults.shortWrite = 20;
            faults.failTruncate = true;
            assertThrows(StorageIOException.class, () -> w.entity("b"));
            faults.failTruncate = false;
            var e = assertThrows(StorageIOException.class, () -> w.entity("c"));
            assertTrue(e.getMessage().contains("no more commits"), e.getMessage());
        }
        assertEquals(0, journalRecords(dir), "no record after the torn bytes");
        assertReopens(dir, false); // the writer's open cuts the torn bytes off
        try (World w = World.openReadOnly(dir)) {
            assertEquals(0, w.lookup("c"));
        }
    }

    @Test
    void aFullDiskDuringACheckpointKeepsTheWalForTheNextOpen() throws Exception {
        for (String step : List.of("checkpoint written", "checkpoint manifest")) {
            Path dir = worldWithA();
            long manifest = Manifest.current(dir);
            try (World w = World.open(dir)) {
                w.entity("x");
                w.entity("b");
                failStep = step; // the checkpoint at close fails
            }
            failStep = null;
            assertEquals(manifest, Manifest.current(dir), step + ": the old manifest stays live");
            assertEquals(2, journalRecords(dir), step + ": with both transactions in its WAL");
            try (var s = Files.list(dir)) {
                assertTrue(s.noneMatch(f -> f.toString().endsWith(".tmp")), step + ": no partial file left");
            }
            assertReopens(dir, true);
            try (World w = World.openReadOnly(dir)) {
                assertNotEquals(0, w.lookup("x"));
            }
            NewWorld.deleteTree(dir);
        }
    }

    /** Child: opens DIR with a crash armed at the first journal fsync, and commits entity b. */
    public static void main(String[] args) {
        var layer = new FaultyFileLayer();
        layer.crashKeeping = Long.parseLong(args[1]);
        layer.garble = Boolean.parseBoolean(args[2]);
        Store.hooks = new StoreHooks() {
            @Override
            FileLayer fileLayer() {
                return layer;
            }
        };
        try (World w = World.open(Path.of(args[0]))) {
            w.entity("b");
        }
        System.exit(3); // the crash did not happen
    }

    @Test
    void unsyncedJournalBytesLostInACrash() throws Exception {
        Path dir = worldWithA();
        Path copy = tmp.resolve("clean");
        // the record of "b" is a few hundred bytes; keep none, some, all but one, all (garbled or not)
        long[][] cases = {{0, 0}, {7, 0}, {100, 1}, {1 << 20, 1}, {1 << 20, 0}};
        ChildJvm.copyTree(dir, copy);
        for (long[] c : cases) {
            NewWorld.deleteTree(dir);
            ChildJvm.copyTree(copy, dir);
            boolean garble = c[1] == 1;
            assertEquals(77, ChildJvm.run(JournalFaultTest.class, dir, c[0], garble), "keep " + c[0]);
            boolean complete = c[0] >= (1 << 20) && !garble;
            assertReopens(dir, complete);
        }
    }
}
