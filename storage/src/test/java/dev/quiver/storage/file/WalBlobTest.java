package dev.quiver.storage.file;

import dev.quiver.error.CorruptionException;
import dev.quiver.error.StorageIOException;
import dev.quiver.storage.format.WorldFormat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A store's overlay keeps where the committed pages lie in the WAL ({@link WalBlob}), not their
 * bytes, and a record goes to the file in chunks, not copied whole: the pages read back equal what
 * was committed (pages smaller and larger than a chunk, records crossing chunk boundaries), for the
 * writer, a reader, a writer recovering a killed writer's WAL, and after a checkpoint, with no
 * page bytes held; a WAL byte damaged after the commit is refused with an error naming the WAL,
 * never sealed into a generation; a failed read reports an I/O error and changes nothing.
 */
class WalBlobTest {
    @TempDir
    Path tmp;
    final FaultyFileLayer faults = new FaultyFileLayer();
    static final int FAMILY = 1; // schemas: after-images only, never interpreted by the store
    static final PageDeltas DELTAS = WorldFormat::applyDelta;

    @BeforeEach
    void install() {
        Store.hooks = new StoreHooks() {
            @Override
            FileLayer fileLayer() {
                return faults;
            }
        };
    }

    @AfterEach
    void uninstall() {
        Store.hooks = StoreHooks.NONE;
    }

    private Path newWorld() {
        Path dir = tmp.resolve("w");
        Store.create(dir, DELTAS, st -> st.commit(List.of(new Journal.Entry(0, 0, new byte[] {1, 2, 3}))));
        return dir;
    }

    /** Pages of random sizes, some past the 1 MiB chunk a record is written through. */
    private static TreeMap<Long, byte[]> pages(Random r, int n, long firstKey) {
        var out = new TreeMap<Long, byte[]>();
        for (int i = 0; i < n; i++) {
            int len = i % 17 == 3 ? (1 << 20) + r.nextInt(300_000) : r.nextInt(40_000);
            byte[] b = new byte[len];
            r.nextBytes(b);
            out.put(firstKey + i, b);
        }
        return out;
    }

    private static List<Journal.Entry> entries(TreeMap<Long, byte[]> pages) {
        var out = new ArrayList<Journal.Entry>();
        pages.forEach((k, b) -> out.add(new Journal.Entry(FAMILY, k, b)));
        return out;
    }

    private static void assertPages(Store st, TreeMap<Long, byte[]> pages) {
        pages.forEach((k, b) -> assertArrayEquals(b, st.get(FAMILY, k), "page " + k));
    }

    @Test
    void committedPagesAreReadBackFromTheWalByTheWriterAReaderAndAfterACheckpoint() {
        long seed = Long.getLong("quiver.seed", System.nanoTime());
        System.out.println("WalBlobTest seed " + seed + " (reproduce: -Dquiver.seed=" + seed + ")");
        Random r = new Random(seed);
        Path dir = newWorld();
        var all = new TreeMap<Long, byte[]>();
        try (Store st = Store.open(dir, false, DELTAS)) {
            for (int tx = 0; tx < 4; tx++) {
                TreeMap<Long, byte[]> p = pages(r, 40, tx * 25L); // overlapping keys: later images replace earlier
                st.commit(entries(p));
                all.putAll(p);
                assertPages(st, all);
            }
            assertEquals(0, st.overlayHeapBytes(), "the overlay holds where the pages lie, not their bytes");
            try (Store reader = Store.open(dir, true, DELTAS)) {
                assertEquals(0, reader.overlayHeapBytes(), "a reader's overlay locates the WAL's pages too");
                assertPages(reader, all);
            }
        }
        try (Store st = Store.open(dir, true, DELTAS)) { // after the close's checkpoint
            assertPages(st, all);
        }
    }

    @Test
    void aWriterRecoveringAKilledWritersWalLocatesItsPagesToo() {
        Random r = new Random(11);
        Path dir = newWorld();
        var all = new TreeMap<Long, byte[]>();
        Store st = Store.open(dir, false, DELTAS);
        for (int tx = 0; tx < 3; tx++) {
            TreeMap<Long, byte[]> p = pages(r, 30, tx * 20L);
            st.commit(entries(p));
            all.putAll(p);
        }
        st.commit(List.of(new Journal.Entry(FAMILY, 7, null))); // a removal in the WAL
        all.remove(7L);
        st.abandon(); // killed: no checkpoint, the WAL keeps every record
        try (Store again = Store.open(dir, false, DELTAS)) {
            assertEquals(0, again.overlayHeapBytes());
            assertPages(again, all);
            assertNull(again.get(FAMILY, 7));
        }
        try (Store reader = Store.open(dir, true, DELTAS)) { // after the recovered writer's checkpoint
            assertPages(reader, all);
            assertNull(reader.get(FAMILY, 7));
        }
    }

    @Test
    void aWalByteDamagedAfterTheCommitIsRefusedNamingTheWal() throws Exception {
        Path dir = newWorld();
        byte[] page = new byte[5000];
        new Random(7).nextBytes(page);
        try (Store st = Store.open(dir, false, DELTAS)) {
            st.commit(List.of(new Journal.Entry(FAMILY, 42, page)));
            Path wal = dir.resolve(Manifest.walName(Manifest.current(dir)));
            try (RandomAccessFile f = new RandomAccessFile(wal.toFile(), "rw")) {
                long at = f.length() - 4 - 100; // inside the page, before the record's checksum
                f.seek(at);
                int v = f.read();
                f.seek(at);
                f.write(v ^ 0x10);
            }
            CorruptionException e = assertThrows(CorruptionException.class, () -> st.get(FAMILY, 42));
            assertTrue(e.getMessage().contains(wal.toString()) && e.getMessage().contains("schemas page 42"), e.getMessage());
        }
    }

    @Test
    void aFailedReadIsAnIoErrorAndChangesNothing() {
        Path dir = newWorld();
        byte[] page = {9, 8, 7, 6};
        try (Store st = Store.open(dir, false, DELTAS)) {
            st.commit(List.of(new Journal.Entry(FAMILY, 5, page)));
            faults.failRead = true;
            StorageIOException e = assertThrows(StorageIOException.class, () -> st.get(FAMILY, 5));
            assertTrue(e.getMessage().contains("injected read failure"), e.getMessage());
            faults.failRead = false;
            assertArrayEquals(page, st.get(FAMILY, 5));
        }
        try (Store st = Store.open(dir, true, DELTAS)) {
            assertArrayEquals(page, st.get(FAMILY, 5));
        }
    }
}
