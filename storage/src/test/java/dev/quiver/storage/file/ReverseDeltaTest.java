package dev.quiver.storage.file;

import dev.quiver.error.BadInputException;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;
import dev.quiver.storage.World;
import dev.quiver.storage.WorldPages;
import dev.quiver.storage.format.WorldFormat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reverse-index changes go to the WAL as deltas (page format 7, issue 9): a commit logs the adds and
 * removes it made to a block's lists, in order, not the block, so instantiating a prefab (whose
 * block lists every instance's {@code (IsA, prefab)}) costs the same WAL bytes beside 100 instances
 * as beside 20,000; readers and the writer's recovery replay the operations as the index ran them
 * (a remove swaps the last entry in), so the pages end byte for byte as the writer's lists were.
 */
class ReverseDeltaTest {
    @TempDir
    Path tmp;

    private static long prefab(World w) {
        return w.transactionResult(t -> {
            long ship = t.entity("Ship");
            t.add(ship, Builtin.PREFAB);
            long c = t.component("C", Schema.of("v", FieldType.F64));
            t.set(ship, c, new Object[] {1.0});
            for (int i = 0; i < 3; i++) {
                t.entity("Ship.part" + i);
            }
            return ship;
        });
    }

    @Test
    void aCommitLogsTheReverseOperationsNotTheBlock() throws Exception {
        Path dir = tmp.resolve("w");
        try (World w = World.create(dir)) {
            long ship = prefab(w);
            w.instantiate(ship, 100);
            long before = NameDeltaTest.walBytes(dir);
            w.instantiate(ship, 100);
            long small = NameDeltaTest.walBytes(dir) - before; // 100 instances beside 100
            for (int i = 0; i < 20; i++) {
                w.instantiate(ship, 1_000);
            }
            before = NameDeltaTest.walBytes(dir);
            w.instantiate(ship, 100);
            long large = NameDeltaTest.walBytes(dir) - before; // the same beside 20,200
            System.out.println("ReverseDeltaTest: WAL bytes of a commit of 100 instances: " + small
                    + " beside 100 instances, " + large + " beside 20,200");
            // whole reverse pages made the second about 200 KB more (4 targets listing every instance)
            assertTrue(large < small * 3 / 2, large + " WAL bytes against " + small);
            List<List<Journal.Entry>> records = Journal.read(dir.resolve(Manifest.walName(Manifest.current(dir))));
            List<Journal.Entry> last = records.get(records.size() - 1);
            for (Journal.Entry e : last) {
                assertTrue(e.map() != WorldFormat.REVERSE || e.delta(), "a reverse page logged whole: block " + e.key());
            }
            assertEquals(List.of(), w.check()); // the persisted pages (deltas applied) equal memory, byte for byte
            TreeMap<Long, String> pages = reversePages(w);
            try (World r = World.openReadOnly(dir)) {
                assertEquals(List.of(), r.check());
                assertEquals(pages, reversePages(r));
            }
        }
    }

    /** Every reverse page of the world's state, by key (page bytes hold the lists' order). */
    private static TreeMap<Long, String> reversePages(World w) {
        var out = new TreeMap<Long, String>();
        WorldPages.forEach(w, (map, key, blob) -> {
            if (map.equals("reverse")) {
                out.put(key, Arrays.toString(blob));
            }
        });
        return out;
    }

    /**
     * Pairs added and removed in random order (removes swap entries), targets deleted (their blocks
     * written whole), a refused transaction, then the writer killed: the WAL's deltas replay into
     * the same lists, in the same order.
     */
    @Test
    void reverseDeltasReplayInOrderAfterACrash() throws Exception {
        long seed = Long.getLong("quiver.seed", System.nanoTime());
        System.out.println("ReverseDeltaTest seed " + seed + " (-Dquiver.seed=" + seed + ")");
        var rnd = new Random(seed);
        Path dir = tmp.resolve("w");
        World.create(dir).close();
        World w = World.open(dir);
        long[] rels = new long[3];
        long[] nodes = new long[300];
        w.transaction(t -> {
            for (int i = 0; i < rels.length; i++) {
                rels[i] = t.entity("R" + i);
            }
            for (int i = 0; i < nodes.length; i++) {
                nodes[i] = t.entity("n" + i);
            }
        });
        for (int round = 0; round < 12; round++) {
            boolean refuse = round == 7;
            Runnable body = () -> w.transaction(t -> {
                for (int k = 0; k < 400; k++) {
                    long s = nodes[rnd.nextInt(nodes.length)], tg = nodes[rnd.nextInt(40)];
                    long p = t.pair(rels[rnd.nextInt(rels.length)], tg);
                    if (!t.isAlive(s) || !t.isAlive(tg)) {
                        continue;
                    }
                    if (t.has(s, p) && rnd.nextInt(3) > 0) {
                        t.remove(s, p);
                    } else if (!t.has(s, p)) {
                        t.add(s, p);
                    }
                }
                if (rnd.nextInt(4) == 0) {
                    long victim = nodes[rnd.nextInt(40)];
                    if (t.isAlive(victim)) {
                        t.delete(victim); // its list dropped at once: the block is written whole
                    }
                }
                if (refuse) {
                    throw new BadInputException("refused on purpose");
                }
            });
            if (refuse) {
                assertThrows(BadInputException.class, body::run);
            } else {
                body.run();
            }
        }
        assertEquals(List.of(), w.check(), "seed " + seed);
        TreeMap<Long, String> pages = reversePages(w);
        JournalFaultTest.abandon(w); // killed: the deltas are in the WAL only
        long deltas = 0;
        for (List<Journal.Entry> rec : Journal.read(dir.resolve(Manifest.walName(Manifest.current(dir))))) {
            for (Journal.Entry e : rec) {
                deltas += e.map() == WorldFormat.REVERSE && e.delta() ? 1 : 0;
            }
        }
        assertTrue(deltas > 0, "the WAL holds reverse deltas");
        try (World r = World.openReadOnly(dir)) { // a reader replays them on top of the base pages
            assertEquals(pages, reversePages(r), "reader after the crash, seed " + seed);
            assertEquals(List.of(), r.check());
        }
        try (World again = World.open(dir)) { // so does the writer's recovery
            assertEquals(pages, reversePages(again), "writer after the crash, seed " + seed);
            assertEquals(List.of(), again.check());
        } // and its checkpoint seals whole pages
        try (World r = World.openReadOnly(dir)) {
            assertEquals(pages, reversePages(r), "reader after the checkpoint, seed " + seed);
            assertEquals(List.of(), r.check());
        }
    }
}
