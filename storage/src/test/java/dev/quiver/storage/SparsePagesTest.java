package dev.quiver.storage;

import dev.quiver.error.BadInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The persisted forward half of non-fragmenting pairs ({@code sparse} pages, page format 13):
 * random changes to two DontFragment relationships over sources spread across several blocks of
 * 1024, committed in random transactions, some refused (undone in memory) and some failing (the
 * committed state read again), with reopens in between, where the first touch of a block after an
 * open is as often a change as a read. After every reopen, the writer and a reader beside it
 * answer every source's targets as a model says, and {@code check} (which compares every stored
 * page with the world and the forward pairs with the reverse index) finds nothing.
 * Reproduce a failure with {@code -Dquiver.seed=N} (the seed is printed), like the other seeded tests.
 */
class SparsePagesTest {
    @TempDir
    Path tmp;

    private static final int ENTITIES = 3_500;
    private static final int ROUNDS = 6;

    @Test
    void randomChangesSurviveReopensRollbacksAndReaders() {
        long seed = Long.getLong("quiver.seed", System.nanoTime());
        System.out.println("SparsePagesTest seed " + seed + " (reproduce: -Dquiver.seed=" + seed + ")");
        Random rnd = new Random(seed);
        Path dir = tmp.resolve("w");
        String[] rels = {"R", "S"};
        List<Map<String, TreeSet<String>>> model = new ArrayList<>(List.of(new HashMap<>(), new HashMap<>()));
        List<String> alive = new ArrayList<>();
        try (World w = World.create(dir)) {
            w.transaction(x -> {
                for (String r : rels) {
                    x.add(x.entity(r), Builtin.DONT_FRAGMENT);
                }
                for (int i = 0; i < ENTITIES; i++) {
                    x.entity("e" + i);
                    alive.add("e" + i);
                }
            });
        }
        for (int round = 0; round < ROUNDS; round++) {
            String where = "seed " + seed + " round " + round;
            try (World w = World.open(dir)) {
                if (round % 2 == 0) { // else the first touch of each block is a change
                    compare(w, rels, model, alive, where + " after the open");
                }
                for (int t = 0; t < 8; t++) {
                    int kind = rnd.nextInt(10);
                    var copy = copy(model);
                    var aliveCopy = new ArrayList<>(alive);
                    int ops = 1 + rnd.nextInt(kind < 2 ? 40 : 400);
                    long opSeed = rnd.nextLong();
                    Runnable body = () -> applyRandom(w, new Random(opSeed), rels, copy, aliveCopy, ops);
                    if (kind == 0) { // refused by a rule: undone in memory, the pages untouched
                        assertThrows(BadInputException.class, () -> w.transaction(x -> {
                            body.run();
                            throw new BadInputException("refused on purpose");
                        }));
                    } else if (kind == 1) { // a failure: the committed state is read again
                        assertThrows(IllegalStateException.class, () -> w.transaction(x -> {
                            body.run();
                            throw new IllegalStateException("failed on purpose");
                        }));
                    } else {
                        w.transaction(x -> body.run());
                        model.set(0, copy.get(0));
                        model.set(1, copy.get(1));
                        alive.clear();
                        alive.addAll(aliveCopy);
                    }
                    compare(w, rels, model, alive, where + " transaction " + t + " kind " + kind);
                }
                try (World r = World.openReadOnly(dir)) {
                    compare(r, rels, model, alive, where + " (a reader beside the writer)");
                }
            }
            try (World w = World.open(dir)) {
                assertEquals(List.of(), w.check(), where + ": check after the reopen");
            }
            snapshotRestores(dir, tmp.resolve("restored-" + round), rels, model, alive, where, rnd);
        }
    }

    /**
     * A snapshot of the world just opened streams its sparse pages as stored, reading none (a
     * random few of its blocks read first, by asking about one source each, are written from
     * memory), and the world restored from it answers as the model says.
     */
    private static void snapshotRestores(Path dir, Path into, String[] rels, List<Map<String, TreeSet<String>>> model,
                                         List<String> alive, String where, Random rnd) {
        List<WorldPages.Page> pages = new ArrayList<>();
        try (World w = World.open(dir)) {
            int touched = rnd.nextInt(4);
            for (int k = 0; k < touched && !alive.isEmpty(); k++) {
                w.targets(w.lookup(alive.get(rnd.nextInt(alive.size()))), w.lookup(rels[rnd.nextInt(rels.length)]));
            }
            long before = w.pageReads().sparsePages();
            WorldPages.forEachForSnapshot(w, (map, key, blob) -> pages.add(new WorldPages.Page(map, key, blob.clone())));
            assertEquals(before, w.pageReads().sparsePages(), where + ": sparse pages decoded by the snapshot");
        }
        try (World r = WorldPages.restore(into, pages)) {
            compare(r, rels, model, alive, where + " (restored from a snapshot)");
            assertEquals(List.of(), r.check(), where + ": check of the restored world");
        }
    }

    /** {@code ops} random adds, removes and deletions, applied to the world and the model alike. */
    private static void applyRandom(World w, Random rnd, String[] rels, List<Map<String, TreeSet<String>>> model,
                                    List<String> alive, int ops) {
        for (int k = 0; k < ops && alive.size() > 2; k++) {
            int rel = rnd.nextInt(rels.length);
            long r = w.lookup(rels[rel]);
            String src = alive.get(rnd.nextInt(alive.size()));
            int op = rnd.nextInt(20);
            if (op < 12) {
                String tgt = alive.get(rnd.nextInt(alive.size()));
                w.add(w.lookup(src), w.pair(r, w.lookup(tgt)));
                model.get(rel).computeIfAbsent(src, s -> new TreeSet<>()).add(tgt);
            } else if (op < 19) {
                TreeSet<String> held = model.get(rel).get(src);
                if (held != null && !held.isEmpty()) {
                    String tgt = new ArrayList<>(held).get(rnd.nextInt(held.size()));
                    w.remove(w.lookup(src), w.pair(r, w.lookup(tgt)));
                    held.remove(tgt);
                    if (held.isEmpty()) {
                        model.get(rel).remove(src);
                    }
                }
            } else { // a deletion: its pairs go, and (cleanup: Remove) the pairs that point at it
                w.delete(w.lookup(src));
                alive.remove(src);
                for (Map<String, TreeSet<String>> m : model) {
                    m.remove(src);
                    m.values().removeIf(held -> held.remove(src) && held.isEmpty());
                }
            }
        }
    }

    private static void compare(World w, String[] rels, List<Map<String, TreeSet<String>>> model, List<String> alive,
                                String where) {
        for (int rel = 0; rel < rels.length; rel++) {
            long r = w.lookup(rels[rel]);
            for (String src : alive) {
                long[] got = w.targets(w.lookup(src), r);
                String[] names = new String[got.length];
                for (int i = 0; i < got.length; i++) {
                    names[i] = w.name(got[i]);
                }
                Arrays.sort(names);
                TreeSet<String> want = model.get(rel).getOrDefault(src, new TreeSet<>());
                assertEquals(List.copyOf(want), Arrays.asList(names), where + ": targets of " + rels[rel] + " on " + src);
            }
        }
    }

    private static List<Map<String, TreeSet<String>>> copy(List<Map<String, TreeSet<String>>> model) {
        var out = new ArrayList<Map<String, TreeSet<String>>>();
        for (Map<String, TreeSet<String>> m : model) {
            var c = new HashMap<String, TreeSet<String>>();
            m.forEach((k, v) -> c.put(k, new TreeSet<>(v)));
            out.add(c);
        }
        return out;
    }
}
