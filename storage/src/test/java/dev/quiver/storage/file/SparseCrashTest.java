package dev.quiver.storage.file;

import dev.quiver.index.Ids;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.World;
import dev.quiver.storage.WorldPages;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sparse pairs (FEATURES TRT-16) through a crash and a refused transaction: a child JVM loading
 * chains of a DontFragment relationship dies right after journaling a commit; the reopened world
 * replays it, reads the sparse store from its pages, holds exactly the committed
 * transactions and passes {@code check}. A transaction refused after changing sparse pairs leaves
 * every page byte for byte as it was.
 */
class SparseCrashTest {
    @TempDir
    Path tmp;

    static final int TXS = 30, PER_TX = 20;

    /** Child process: the chains; halts right after journaling commit {@code args[1]}. */
    public static void main(String[] args) {
        long haltAt = Long.parseLong(args[1]);
        Store.hooks = new StoreHooks() {
            @Override
            void afterJournal(long txSeq) {
                if (txSeq == haltAt) {
                    Runtime.getRuntime().halt(77);
                }
            }
        };
        try (World w = World.create(Path.of(args[0]))) {
            long rel = w.transactionResult(t -> {
                long r = t.entity("Next");
                t.add(r, Builtin.DONT_FRAGMENT);
                return r;
            });
            for (int i = 0; i < TXS; i++) {
                final int tx = i;
                w.transaction(t -> {
                    long prev = 0;
                    for (int j = 0; j < PER_TX; j++) {
                        long e = t.entity("t" + tx + "_" + j);
                        if (prev != 0) {
                            t.add(e, t.pair(rel, prev));
                        }
                        prev = e;
                    }
                    t.entity("done" + tx);
                });
                System.out.println("committed " + i);
                System.out.flush();
            }
        }
    }

    @Test
    void aCrashAfterTheJournalKeepsSparsePairs() throws Exception {
        Path dir = tmp.resolve("w");
        Process p = ChildJvm.start(SparseCrashTest.class, dir, 9);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(77, p.exitValue(), out);
        assertFalse(out.contains("committed 7")); // commit 9 is transaction 7: journaled, never acknowledged
        try (World w = World.open(dir)) {
            assertEquals(List.of(), w.check());
            long rel = w.lookup("Next");
            assertTrue(w.tableAccess().sparse().isSparse(Ids.index(rel)));
            for (int i = 0; i < TXS; i++) {
                boolean done = w.lookup("done" + i) != 0;
                assertEquals(i <= 7, done, "transaction " + i);
                for (int j = 1; done && j < PER_TX; j++) {
                    long e = w.lookup("t" + i + "_" + j), prev = w.lookup("t" + i + "_" + (j - 1));
                    assertTrue(w.has(e, w.pair(rel, prev)), "t" + i + "_" + j);
                    assertEquals(1, w.targets(e, rel).length);
                }
            }
            assertEquals(1, w.tableAccess().tables(w.pair(rel, Builtin.WILDCARD)).size());
        }
    }

    private static Map<String, String> pages(World w) {
        Map<String, String> out = new TreeMap<>();
        WorldPages.forEach(w, (map, key, blob) -> out.put(map + "/" + key, Arrays.toString(blob)));
        return out;
    }

    @Test
    void aRefusedTransactionLeavesEveryPageAsItWas() {
        try (World w = World.create(tmp.resolve("r"))) {
            long rel = w.entity("Next");
            w.add(rel, Builtin.UNION);
            long a = w.entity("a"), b = w.entity("b"), c = w.entity("c");
            w.add(a, w.pair(rel, b));
            w.add(c, w.pair(rel, b));
            Map<String, String> before = pages(w);
            assertThrows(dev.quiver.storage.CycleException.class, () -> w.transaction(t -> {
                t.add(a, t.pair(rel, c)); // replaces (Next, b)
                t.delete(c);              // a sparse source and target go
                long d = t.entity("d");
                t.add(d, t.pair(rel, a));
                t.add(b, t.pair(Builtin.CHILD_OF, d));
                t.add(d, t.pair(Builtin.CHILD_OF, b)); // refused: a cycle
            }));
            assertEquals(before, pages(w));
            assertEquals(List.of(), w.check());
            assertTrue(w.has(a, w.pair(rel, b)) && w.has(c, w.pair(rel, b)));
        }
    }
}
