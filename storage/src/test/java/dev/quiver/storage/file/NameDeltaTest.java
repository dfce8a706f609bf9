package dev.quiver.storage.file;

import dev.quiver.error.BadInputException;
import dev.quiver.storage.World;
import dev.quiver.storage.format.WorldFormat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Name changes go to the WAL as deltas (page format 6, issue 8): a commit logs the entries each
 * name bucket gained and lost, not the bucket's page, so its WAL bytes follow the names it changed
 * and not the size of the name index; readers and the writer's recovery apply the deltas on top of
 * the bucket pages of their manifest, and a checkpoint seals whole bucket pages.
 */
class NameDeltaTest {
    @TempDir
    Path tmp;

    static long walBytes(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith("wal-")).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    private static void named(World w, String prefix, int n) {
        w.transaction(t -> {
            for (int i = 0; i < n; i++) {
                t.entity(prefix + i);
            }
        });
    }

    @Test
    void aCommitLogsTheNamesItAddsNotTheBucketsTheyFallIn() throws IOException {
        Path dir = tmp.resolve("w");
        try (World w = World.create(dir)) {
            named(w, "a", 4_000);
            long before = walBytes(dir);
            named(w, "x", 2_000);
            long small = walBytes(dir) - before; // 2,000 names into a name index of 4,000
            named(w, "b", 120_000);
            before = walBytes(dir);
            named(w, "y", 2_000);
            long large = walBytes(dir) - before; // the same into one of 124,000: 30 entries a bucket
            System.out.println("NameDeltaTest: WAL bytes of a commit of 2,000 names: " + small
                    + " beside 4,000 names, " + large + " beside 124,000");
            // whole bucket pages made the second commit about 4 times the first (~1,600 pages of
            // ~30 entries against ~1,600 of ~2); deltas make both the names' size
            assertTrue(large < small * 3 / 2, large + " WAL bytes against " + small);
            assertTrue(large < 2_000 * 48, large + " WAL bytes for 2,000 names");
            List<List<Journal.Entry>> records = Journal.read(dir.resolve(Manifest.walName(Manifest.current(dir))));
            for (List<Journal.Entry> rec : records) {
                for (Journal.Entry e : rec) {
                    assertTrue(e.map() != WorldFormat.NAMES || e.delta(), "a names page logged whole: bucket " + e.key());
                }
            }
        }
        try (World r = World.openReadOnly(dir)) {
            assertEquals(List.of(), r.check());
            assertTrue(r.lookup("y1999") != 0 && r.lookup("b119999") != 0 && r.lookup("a0") != 0);
        }
    }

    /**
     * Page format 9: a commit logs its name changes as one family delta, not one delta entry per
     * bucket. A batch of 1,000 prefab instances with 10 named children each files 10,000 names,
     * which fall in all 4,096 buckets: one WAL entry; readers, the writer's recovery after a
     * crash and its checkpoint read every name from it.
     */
    @Test
    void aBatchLogsItsNamesInOneEntry() throws Exception {
        Path dir = tmp.resolve("w");
        World.create(dir).close();
        World w = World.open(dir);
        long prefab = w.transactionResult(t -> {
            long p = t.entity("Ship");
            t.add(p, dev.quiver.storage.Builtin.PREFAB);
            for (int i = 0; i < 10; i++) {
                t.add(t.entity("Ship.part" + i), dev.quiver.storage.Builtin.PREFAB);
            }
            return p;
        });
        long[] made = w.instantiate(prefab, 1_000);
        var records = Journal.read(dir.resolve(Manifest.walName(Manifest.current(dir))));
        int nameEntries = 0;
        for (Journal.Entry e : records.get(records.size() - 1)) {
            if (e.map() == WorldFormat.NAMES) {
                nameEntries++;
                assertTrue(e.delta() && e.key() == Journal.FAMILY_DELTA, "names logged by bucket: key " + e.key());
            }
        }
        assertEquals(1, nameEntries, "WAL entries of names in a batch's record");
        JournalFaultTest.abandon(w); // killed: the names are in the WAL only
        try (World r = World.openReadOnly(dir)) {
            assertParts(r, made, "reader after the crash");
        }
        try (World again = World.open(dir)) {
            assertParts(again, made, "writer after the crash");
        }
        assertEquals(0, walBytes(dir));
        try (World r = World.openReadOnly(dir)) {
            assertParts(r, made, "reader after the checkpoint");
        }
    }

    private static void assertParts(World w, long[] made, String who) {
        for (int i = 0; i < made.length; i++) {
            for (int k = 0; k < 10; k++) {
                long part = w.lookup(made[i], "part" + k);
                assertTrue(part != 0 && part != w.lookup("Ship.part" + k), who + ": instance " + i + " part" + k);
            }
        }
        assertEquals(List.of(), w.check(), who);
    }

    /** The world's names changed in many ways over several commits, and a refused transaction. */
    private static Map<String, Long> churn(World w) {
        long childOf = w.lookup("ChildOf");
        named(w, "n", 3_000);
        w.transaction(t -> {
            for (int i = 0; i < 500; i++) {
                t.delete(t.lookup("n" + i));
            }
            for (int i = 500; i < 1_000; i++) {
                t.rename(t.lookup("n" + i), "r" + i);
            }
            for (int i = 1_000; i < 1_300; i++) {
                t.add(t.lookup("n" + i), t.pair(childOf, t.lookup("n2999")));
            }
            for (int i = 0; i < 300; i++) {
                t.entity("n7.c" + i);
            }
        });
        assertThrows(BadInputException.class, () -> w.transaction(t -> {
            for (int i = 0; i < 200; i++) {
                t.entity("refused" + i);
                t.rename(t.lookup("r" + (500 + i)), "gone" + i);
                t.delete(t.lookup("n" + (2_000 + i)));
            }
            throw new BadInputException("refused on purpose");
        }));
        w.transaction(t -> {
            for (int i = 1; i < 4_000; i++) { // recycled indices: names of the deleted entities again
                t.entity("n" + (i % 500) + "_again");
            }
            t.rename(t.lookup("r500"), "n500");
        });
        Map<String, Long> names = new LinkedHashMap<>();
        for (String p : paths()) {
            names.put(p, w.lookup(p));
        }
        assertTrue(names.get("n0") == 0 && names.get("refused0") == 0 && names.get("gone0") == 0);
        assertTrue(names.get("n500") != 0 && names.get("r500") == 0 && names.get("r501") != 0);
        assertTrue(names.get("n2999.n1000") != 0 && names.get("n1000") == 0 && names.get("n7.c299") != 0);
        assertEquals(List.of(), w.check());
        return names;
    }

    private static List<String> paths() {
        var out = new ArrayList<String>();
        for (int i = 0; i < 3_000; i++) {
            out.add("n" + i);
            out.add("r" + i);
            out.add("n2999.n" + i);
            out.add("n" + (i % 500) + "_again");
        }
        for (int i = 0; i < 300; i++) {
            out.add("n7.c" + i);
            out.add("refused" + i);
            out.add("gone" + i);
        }
        return out;
    }

    private static void assertNames(World w, Map<String, Long> names, String who) {
        for (var e : names.entrySet()) {
            assertEquals(e.getValue(), w.lookup(e.getKey()), who + ": " + e.getKey());
        }
        assertEquals(List.of(), w.check(), who);
    }

    @Test
    void nameDeltasReplayAfterACrash() throws Exception {
        Path dir = tmp.resolve("w");
        World.create(dir).close();
        Map<String, Long> names;
        World w = World.open(dir);
        names = churn(w);
        JournalFaultTest.abandon(w); // killed: the deltas are in the WAL only
        long deltas = 0;
        for (List<Journal.Entry> rec : Journal.read(dir.resolve(Manifest.walName(Manifest.current(dir))))) {
            for (Journal.Entry e : rec) {
                deltas += e.map() == WorldFormat.NAMES && e.delta() ? 1 : 0;
            }
        }
        assertTrue(deltas > 0, "the WAL holds name deltas");
        try (World r = World.openReadOnly(dir)) { // a reader applies them on top of the base pages
            assertNames(r, names, "reader after the crash");
        }
        try (World again = World.open(dir)) { // so does the writer's recovery
            assertNames(again, names, "writer after the crash");
        } // and its checkpoint seals whole bucket pages
        assertEquals(0, walBytes(dir));
        try (World r = World.openReadOnly(dir)) {
            assertNames(r, names, "reader after the checkpoint");
        }
    }

    @Test
    void aReaderSeesTheNameDeltasOfCommittedTransactionsOnly() {
        Path dir = tmp.resolve("w");
        try (World w = World.create(dir)) {
            named(w, "n", 2_000);
            try (World early = World.openReadOnly(dir)) {
                Map<String, Long> before = new LinkedHashMap<>();
                for (String p : paths()) {
                    before.put(p, early.lookup(p));
                }
                assertTrue(before.get("n1999") != 0);
                Map<String, Long> after = churn(w);
                try (World late = World.openReadOnly(dir)) {
                    assertNames(late, after, "a reader opened after the commits");
                }
                assertNames(early, before, "a reader opened before them");
                assertFalse(before.equals(after));
            }
        }
    }
}
