package dev.quiver.storage;

import dev.quiver.error.BadInputException;
import dev.quiver.index.Ids;
import dev.quiver.storage.format.WorldFormat;
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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A writer's working-set budget (issue 8 section 2: memory follows the working set): a writer that
 * keeps only a few entity blocks, reverse blocks and name buckets decoded between transactions
 * answers every read and commits every page exactly as an unbounded writer given the same seeded
 * changes (creations, pairs, removals, cascading deletes, renames, values, refused transactions,
 * reopens), and after each commit or refusal holds no more blocks than its budget. Counters of
 * blocks held and read, never timings.
 */
class WriterBudgetTest {
    static final long SEED = Long.getLong("quiver.seed", System.nanoTime());
    /** Entities created first: several entity blocks (1024), many reverse blocks (64 targets) and name buckets. */
    static final int N = 6000;
    static final int ENTITY_BLOCKS = 2, REVERSE_BLOCKS = 3, NAME_BUCKETS = 5;

    @TempDir
    static Path tmp;

    @BeforeAll
    static void printSeed() {
        System.out.println("WriterBudgetTest seed " + SEED + " (-Dquiver.seed=" + SEED + ")");
    }

    private static void small(World w) {
        w.format().writerBudget(ENTITY_BLOCKS, REVERSE_BLOCKS, NAME_BUCKETS);
    }

    private static void unbounded(World w) {
        w.format().writerBudget(Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE);
    }

    private static void assertWithinBudget(World w, String when) {
        WorldFormat f = w.format();
        assertTrue(f.entityBlocksInMemory() <= ENTITY_BLOCKS, when + ": " + f.entityBlocksInMemory() + " entity blocks, seed " + SEED);
        assertTrue(f.reverseBlocksInMemory() <= REVERSE_BLOCKS, when + ": " + f.reverseBlocksInMemory() + " reverse blocks, seed " + SEED);
        assertTrue(f.nameBucketsInMemory() <= NAME_BUCKETS, when + ": " + f.nameBucketsInMemory() + " name buckets, seed " + SEED);
    }

    /** Declares Pos, Likes and (LocatedIn: Transitive, (OnDeleteTarget, Delete)), then N entities in a tree with values and Likes pairs. */
    private static void populate(World w, long seed) {
        var rnd = new Random(seed);
        w.transaction(x -> {
            long pos = x.component("Pos", Schema.of("x", FieldType.F64, "label", FieldType.STRING));
            long in = x.entity("LocatedIn");
            x.add(in, Builtin.TRANSITIVE);
            x.add(in, x.pair(Builtin.ON_DELETE_TARGET, Builtin.DELETE));
            x.entity("Likes");
            x.set(x.entity("n0"), pos, Map.of("x", 0.0, "label", "root"));
        });
        long pos = w.lookup("Pos"), in = w.lookup("LocatedIn"), likes = w.lookup("Likes");
        for (int from = 1; from < N; from += 1500) { // several commits
            int start = from;
            w.transaction(x -> {
                for (int i = start; i < Math.min(N, start + 1500); i++) {
                    long e = x.entity("n" + i);
                    x.add(e, x.pair(in, x.lookup("n" + ((i - 1) / 4))));
                    x.set(e, pos, Map.of("x", (double) i, "label", "l" + i));
                    if (rnd.nextInt(5) == 0) {
                        x.add(e, x.pair(likes, x.lookup("n" + rnd.nextInt(i))));
                    }
                }
            });
        }
    }

    /** One seeded round of changes; some transactions are refused on purpose after changing things. */
    private static void change(World w, Random rnd, int round) {
        long pos = w.lookup("Pos"), in = w.lookup("LocatedIn"), likes = w.lookup("Likes");
        for (int t = 0; t < 6; t++) {
            boolean refuse = rnd.nextInt(4) == 0;
            int tx = t;
            Runnable body = () -> w.transaction(x -> {
                for (int k = 0; k < 30; k++) {
                    long e = x.lookup("n" + rnd.nextInt(N));
                    if (e == 0) {
                        x.entity("m" + round + "_" + tx + "_" + k);
                        continue;
                    }
                    switch (rnd.nextInt(7)) {
                        case 0 -> x.set(e, pos, Map.of("x", -1.0 * k, "label", "c" + round + "_" + k));
                        case 1 -> {
                            if (rnd.nextInt(4) == 0) {
                                x.delete(e); // cascades down its LocatedIn subtree
                            }
                        }
                        case 2 -> x.rename(e, "r" + round + "_" + tx + "_" + k);
                        case 3 -> {
                            long target = x.lookup("n" + rnd.nextInt(N));
                            x.add(e, x.pair(likes, target == 0 ? in : target));
                        }
                        case 4 -> {
                            long[] ts = x.targets(e, likes);
                            if (ts.length > 0) {
                                x.remove(e, x.pair(likes, ts[0]));
                            }
                        }
                        case 5 -> x.add(x.entity("k" + round + "_" + tx + "_" + k), x.pair(in, e));
                        default -> x.entity("n" + Ids.index(e) % N + ".child" + k);
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
    }

    /** What a world answers, read through the accessors the budget governs. */
    private static List<String> answers(World w, Random rnd) {
        var out = new ArrayList<String>();
        long in = w.lookup("LocatedIn"), likes = w.lookup("Likes");
        out.add("count " + w.entityCount());
        for (int k = 0; k < 400; k++) {
            String name = "n" + rnd.nextInt(N);
            long e = w.lookup(name);
            out.add(name + " " + e);
            if (e != 0) {
                out.add(w.path(e) + " " + Arrays.toString(w.type(e)) + " " + w.get(e, w.lookup("Pos"))
                        + " " + Arrays.toString(w.targets(e, likes)) + " " + Arrays.toString(w.targets(e, in)));
                long[] sources = {0};
                w.forEachSource(in, e, s -> sources[0] += s);
                w.forEachSource(likes, e, s -> sources[0] += 31 * s);
                out.add("sources " + sources[0]);
            }
        }
        return out;
    }

    @Test
    void aWriterWithASmallBudgetAnswersAndCommitsExactlyAsAnUnboundedOne() {
        Path smallDir = tmp.resolve("small"), wholeDir = tmp.resolve("whole");
        try (World s = World.create(smallDir); World u = World.create(wholeDir)) {
            small(s);
            unbounded(u);
            populate(s, SEED);
            populate(u, SEED);
            assertWithinBudget(s, "after the load");
            long readsAfterLoad = s.format().entityBlocksRead() + s.format().nameBucketsRead();
            var rs = new Random(SEED + 1);
            var ru = new Random(SEED + 1);
            for (int round = 0; round < 3; round++) {
                change(s, rs, round);
                change(u, ru, round);
                assertWithinBudget(s, "round " + round);
                long q = SEED + 100 + round;
                assertEquals(answers(u, new Random(q)), answers(s, new Random(q)), "round " + round + ", seed " + SEED);
            }
            assertTrue(s.format().entityBlocksRead() + s.format().nameBucketsRead() > readsAfterLoad,
                    "blocks forgotten by the bounded writer were read again");
            // (an unbounded index that never became lazy counts no buckets: names are left out here)
            assertTrue(u.format().entityBlocksInMemory() > ENTITY_BLOCKS && u.format().reverseBlocksInMemory() > REVERSE_BLOCKS,
                    "the unbounded writer holds more than the budget: "
                    + u.format().entityBlocksInMemory() + " entity blocks, " + u.format().reverseBlocksInMemory()
                    + " reverse blocks, " + u.format().nameBucketsInMemory() + " name buckets");
            assertEquals(List.of(), s.check(), "seed " + SEED);
            assertEquals(List.of(), u.check(), "seed " + SEED);
        }
        assertEquals(OpenInPlaceTest.dump(wholeDir), OpenInPlaceTest.dump(smallDir), "seed " + SEED);
        // reopened as writers: the bounded one reads lazily and forgets, the other keeps everything it reads
        var rs = new Random(SEED + 2);
        var ru = new Random(SEED + 2);
        try (World s = World.open(smallDir); World u = World.open(wholeDir)) {
            small(s);
            unbounded(u);
            for (int round = 3; round < 5; round++) {
                change(s, rs, round);
                change(u, ru, round);
                assertWithinBudget(s, "reopened, round " + round);
                long q = SEED + 200 + round;
                assertEquals(answers(u, new Random(q)), answers(s, new Random(q)), "round " + round + ", seed " + SEED);
            }
            assertEquals(List.of(), s.check(), "seed " + SEED);
        }
        assertEquals(OpenInPlaceTest.dump(wholeDir), OpenInPlaceTest.dump(smallDir), "seed " + SEED);
    }

    @Test
    void aCommitFailureReloadKeepsTheBudget() {
        Path dir = tmp.resolve("reload");
        try (World w = World.create(dir)) {
            small(w);
            populate(w, SEED);
            // a failure that is not a refusal by a rule reloads the committed state whole: the bounds stay
            assertThrows(IllegalStateException.class, () -> w.transaction(x -> {
                x.entity("gone");
                throw new IllegalStateException("not a rule's refusal");
            }));
            assertEquals(0, w.lookup("gone"));
            w.transaction(x -> x.entity("n1.kept"));
            assertWithinBudget(w, "after a reload and a commit");
            assertTrue(w.lookup("n1.kept") != 0);
            assertEquals(List.of(), w.check(), "seed " + SEED);
        }
    }

    @Test
    void budgetsOfOneBlockStillAnswer() {
        Path dir = tmp.resolve("one");
        try (World w = World.create(dir)) {
            w.format().writerBudget(1, 1, 1);
            populate(w, SEED);
            assertEquals(1, w.format().entityBlocksInMemory());
            assertArrayEquals(new long[] {w.lookup("n0")}, w.targets(w.lookup("n1"), w.lookup("LocatedIn")));
            assertEquals(N + 3, w.entityCount(), "N nodes, Pos, LocatedIn and Likes");
            assertEquals(List.of(), w.check(), "seed " + SEED);
        }
    }

    /**
     * A block every transaction touches stays decoded under a small budget (second chance): a
     * prefab's reverse lists grow by each instance, and each batch also reads the blocks of its new
     * instances (the targets of their children's ChildOf), which pushed the prefab's block out
     * first in, first out, so that every batch decoded it again whole. Each batch now reads only
     * blocks of its own new instances.
     */
    @Test
    void aBlockEveryBatchTouchesIsNotReadAgain() {
        Path dir = tmp.resolve("prefab");
        try (World w = World.create(dir)) {
            // room for the prefab's block, the block a batch ends in and the (at most two) blocks the next one adds
            int reverseBlocks = 4;
            w.format().writerBudget(Integer.MAX_VALUE, reverseBlocks, Integer.MAX_VALUE);
            long[] prefab = new long[1];
            w.transaction(x -> {
                prefab[0] = x.entity("Ship");
                x.add(prefab[0], Builtin.PREFAB);
                x.add(x.entity("Ship.hull"), Builtin.PREFAB);
            });
            var seen = new java.util.HashSet<Integer>(); // blocks of instances: read once each, when the first instance in them is made
            for (long e : w.instantiate(prefab[0], 700)) {
                seen.add(Ids.index(e) >>> 10);
            }
            long readsAll = 0;
            int newBlocks = 0;
            for (int batch = 0; batch < 8; batch++) {
                long before = w.format().reverseBlocksRead();
                long[] made = w.instantiate(prefab[0], 700); // 1,400 entities: two or three blocks of 1,024 targets
                readsAll += w.format().reverseBlocksRead() - before;
                for (long e : made) {
                    newBlocks += seen.add(Ids.index(e) >>> 10) ? 1 : 0;
                }
                assertTrue(w.format().reverseBlocksInMemory() <= reverseBlocks, "after batch " + batch);
            }
            assertTrue(readsAll <= newBlocks, readsAll + " reverse pages read for " + newBlocks
                    + " blocks of new instances: the prefab's block was read again");
            assertEquals(List.of(), w.check());
        }
    }
}
