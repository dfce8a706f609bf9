package dev.quiver.storage;

import dev.quiver.error.BadInputException;
import dev.quiver.index.Ids;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reverse blocks' summaries (page format 10): a lookup of one relationship's sources skips,
 * without decoding it, a block whose summary says it holds none of that relationship. A world
 * answers every {@code (R, t)} lookup as a model of its pairs says, however its blocks were read:
 * built in memory, reopened by a writer that keeps few blocks decoded (so that most lookups go
 * through the summaries), changed after the reopen (pairs added and removed, sources and targets
 * deleted, a refused transaction, new entities in new blocks), and reopened again by a reader and
 * a writer; and a first walk decodes only the blocks that hold the relationship (counted). The
 * sources come in the same order (Flecs order, which query results follow) from blocks read flat
 * from their pages as from the writer's blocks, changed ones turned into lists included.
 */
class ReverseSummaryTest {
    static final long SEED = Long.getLong("quiver.seed", System.nanoTime());
    /** Entities: about six reverse blocks (1024 targets each). */
    static final int N = 6000;
    /** Relationships, each pointing into its own few blocks. */
    static final int RELS = 12;

    @TempDir
    Path tmp;

    @BeforeAll
    static void printSeed() {
        System.out.println("ReverseSummaryTest seed " + SEED + " (-Dquiver.seed=" + SEED + ")");
    }

    /** The pairs (R, t) -> sources, as the world must answer them. */
    private final Map<Long, Map<Long, TreeSet<Long>>> model = new HashMap<>();
    private final List<Long> rels = new ArrayList<>();
    private final List<Long> entities = new ArrayList<>();
    /** Per relationship, the reverse blocks (target index / 1024) its targets are drawn from. */
    private final Map<Long, int[]> blocksOf = new HashMap<>();

    private TreeSet<Long> sourcesOf(long rel, long target) {
        return model.computeIfAbsent(rel, k -> new HashMap<>()).computeIfAbsent(target, k -> new TreeSet<>());
    }

    /** A live entity whose index lies in one of {@code rel}'s blocks, or any live entity when none does. */
    private long targetFor(Random rnd, long rel) {
        int[] bs = blocksOf.get(rel);
        for (int tries = 0; tries < 50; tries++) {
            long e = entities.get(rnd.nextInt(entities.size()));
            int b = Ids.index(e) >>> 10;
            for (int x : bs) {
                if (x == b) {
                    return e;
                }
            }
        }
        return entities.get(rnd.nextInt(entities.size()));
    }

    /** Per relationship, every block its pairs ever pointed into (its summaries may still name them: a superset). */
    private final Map<Long, TreeSet<Integer>> everHeld = new HashMap<>();

    private void addPair(World x, long source, long rel, long target) {
        x.add(source, x.pair(rel, target));
        sourcesOf(rel, target).add(source);
        everHeld.computeIfAbsent(rel, k -> new TreeSet<>()).add(Ids.index(target) >>> 10);
    }

    private void removePair(World x, long source, long rel, long target) {
        x.remove(source, x.pair(rel, target));
        sourcesOf(rel, target).remove(source);
    }

    /** Deletes {@code e}: its pairs go, and the pairs that point at it (the default OnDeleteTarget removes them). */
    private void delete(World x, long e) {
        x.delete(e);
        entities.remove(e);
        for (Map<Long, TreeSet<Long>> byTarget : model.values()) {
            byTarget.remove(e);
            for (TreeSet<Long> s : byTarget.values()) {
                s.remove(e);
            }
        }
    }

    private void populate(World w, Random rnd) {
        w.transaction(x -> {
            for (int k = 0; k < RELS; k++) {
                long r = x.entity("R" + k);
                rels.add(r);
            }
        });
        for (int from = 0; from < N; from += 2000) {
            int start = from;
            w.transaction(x -> {
                for (int i = start; i < Math.min(N, start + 2000); i++) {
                    entities.add(x.entity("e" + i));
                }
            });
        }
        int blocks = (Ids.index(entities.get(entities.size() - 1)) >>> 10) + 1;
        for (long r : rels) { // one to three blocks per relationship
            int[] bs = new int[1 + rnd.nextInt(3)];
            for (int j = 0; j < bs.length; j++) {
                bs[j] = rnd.nextInt(blocks);
            }
            blocksOf.put(r, bs);
        }
        w.transaction(x -> {
            for (int i = 0; i < 3 * N; i++) {
                long r = rels.get(rnd.nextInt(RELS));
                long s = entities.get(rnd.nextInt(entities.size()));
                long t = targetFor(rnd, r);
                if (!x.has(s, x.pair(r, t))) {
                    addPair(x, s, r, t);
                }
            }
        });
    }

    /** Every (R, t) lookup, for every relationship and live entity, against the model. */
    private void verify(World w, String when) {
        for (long r : rels) {
            for (long t : entities) {
                var got = new TreeSet<Long>();
                w.forEachSource(r, t, got::add);
                TreeSet<Long> want = model.getOrDefault(r, Map.of()).getOrDefault(t, new TreeSet<>());
                assertEquals(want, got, when + ": sources of (" + w.path(r) + ", " + w.path(t) + "), seed " + SEED);
            }
        }
    }

    /** Every (R, t) lookup's sources in the order the world gives them, keyed by "R t". */
    private Map<String, List<Long>> ordered(World w) {
        var out = new HashMap<String, List<Long>>();
        for (long r : rels) {
            for (long t : entities) {
                var got = new ArrayList<Long>();
                w.forEachSource(r, t, got::add);
                if (!got.isEmpty()) {
                    out.put(r + " " + t, got);
                }
            }
        }
        return out;
    }

    /** The blocks (target index / 1024) of the targets of {@code rel}'s pairs. */
    private TreeSet<Integer> blocksHolding(long rel) {
        var bs = new TreeSet<Integer>();
        model.getOrDefault(rel, Map.of()).forEach((t, sources) -> {
            if (!sources.isEmpty()) {
                bs.add(Ids.index(t) >>> 10);
            }
        });
        return bs;
    }

    /**
     * Right after an open (no block decoded): looks up the relationship whose pairs point into the
     * fewest blocks for every live target, which decodes those blocks (and at most the ones its
     * pairs ever pointed into: a remove leaves a summary as it was) and answers the targets of
     * the others from the summaries alone.
     */
    private void probe(World w, String when) {
        long rel = rels.get(0);
        for (long r : rels) {
            if (blocksHolding(r).size() < blocksHolding(rel).size()) {
                rel = r;
            }
        }
        var blocks = new TreeSet<Integer>();
        for (long t : entities) {
            blocks.add(Ids.index(t) >>> 10);
        }
        assertEquals(0, w.pageReads().reversePages(), when);
        for (long t : entities) {
            w.forEachSource(rel, t, s -> { });
        }
        PageReads p = w.pageReads();
        System.out.println("ReverseSummaryTest " + when + ": " + w.path(rel) + " points into blocks " + blocksHolding(rel)
                + " of " + blocks + ": " + p);
        // it decodes the blocks that hold the relationship, and at most those that ever held it
        assertTrue(p.reversePages() >= blocksHolding(rel).size() && p.reversePages() <= everHeld.get(rel).size(),
                when + ": " + p + ", seed " + SEED);
        assertTrue(blocksHolding(rel).size() == blocks.size() || p.reverseLookupsSkipped() > 0, when + ": " + p + ", seed " + SEED);
    }

    /** A transaction of random changes: pairs added and removed, entities deleted and created. */
    private void mutate(World w, Random rnd, int ops) {
        w.transaction(x -> {
            for (int i = 0; i < ops; i++) {
                int what = rnd.nextInt(10);
                long r = rels.get(rnd.nextInt(RELS));
                if (what < 5) {
                    long s = entities.get(rnd.nextInt(entities.size()));
                    // now and then a target of R0 to R2 outside their blocks: the summary must gain them
                    // (the others stay in their blocks, so that lookups of them skip blocks)
                    long t = rels.indexOf(r) < 3 && rnd.nextInt(4) == 0 ? entities.get(rnd.nextInt(entities.size())) : targetFor(rnd, r);
                    if (!x.has(s, x.pair(r, t))) {
                        addPair(x, s, r, t);
                    }
                } else if (what < 8) {
                    Map<Long, TreeSet<Long>> byTarget = model.getOrDefault(r, Map.of());
                    var held = byTarget.entrySet().stream().filter(en -> !en.getValue().isEmpty()).toList();
                    if (!held.isEmpty()) {
                        var en = held.get(rnd.nextInt(held.size()));
                        removePair(x, en.getValue().first(), r, en.getKey());
                    }
                } else if (what < 9) {
                    delete(x, entities.get(rnd.nextInt(entities.size())));
                } else {
                    long e = x.entity();
                    entities.add(e);
                    addPair(x, e, r, targetFor(rnd, r));
                }
            }
        });
    }

    /** The sources of every (R, t) in order, as the last writer left them. */
    private Map<String, List<Long>> order;

    @Test
    void aReopenedWorldAnswersEveryLookupAsItsPairsSay() {
        var rnd = new Random(SEED);
        Path dir = tmp.resolve("w");
        try (World w = World.create(dir)) {
            populate(w, rnd);
            verify(w, "built");
            order = ordered(w);
        }
        for (int round = 0; round < 3; round++) {
            try (World w = World.open(dir)) {
                w.format().writerBudget(Integer.MAX_VALUE, 2, Integer.MAX_VALUE); // most blocks forgotten after each commit
                probe(w, "reopened, round " + round);
                verify(w, "reopened, round " + round);
                assertEquals(order, ordered(w), "order of sources after a reopen, round " + round + ", seed " + SEED);
                for (int t = 0; t < 4; t++) {
                    mutate(w, rnd, 200);
                    verify(w, "changed, round " + round + " tx " + t);
                }
                // a refused transaction leaves what it added nowhere, summaries included
                long r = rels.get(0), s = entities.get(0), t = entities.get(entities.size() - 1);
                boolean had = w.has(s, w.pair(r, t));
                assertThrows(BadInputException.class, () -> w.transaction(x -> {
                    x.add(s, x.pair(r, t));
                    throw new BadInputException("refused");
                }));
                assertEquals(had, w.has(s, w.pair(r, t)));
                verify(w, "after a refusal, round " + round);
                assertEquals(List.of(), w.check(), "seed " + SEED);
                order = ordered(w);
            }
            try (World reader = World.openReadOnly(dir)) {
                verify(reader, "read, round " + round);
                assertEquals(order, ordered(reader), "order of sources read, round " + round + ", seed " + SEED);
                assertEquals(List.of(), reader.check(), "seed " + SEED);
            }
        }
    }

    /**
     * A walk over one relationship's sources decodes only the blocks whose summaries hold it:
     * A points into block 0 only, B into blocks 1 to 5 only (block 0 holds A's entries and the
     * builtins' pairs), so looking up A for every target decodes one block of six, B (in a new
     * reader) five.
     */
    @Test
    void aLookupDecodesOnlyTheBlocksThatHoldItsRelationship() {
        Path dir = tmp.resolve("count");
        long a, b;
        List<Long> all = new ArrayList<>();
        var blocksOfA = new TreeSet<Integer>();
        var blocksOfB = new TreeSet<Integer>();
        try (World w = World.create(dir)) {
            a = w.transactionResult(x -> x.entity("A"));
            b = w.transactionResult(x -> x.entity("B"));
            w.transaction(x -> {
                for (int i = 0; i < 5 * 1024; i++) {
                    all.add(x.entity());
                }
            });
            w.transaction(x -> {
                for (long e : all) {
                    int block = Ids.index(e) >>> 10;
                    long t = all.get((int) (Ids.index(e) * 31L % all.size()));
                    if (block == 0 && Ids.index(t) >>> 10 == 0) {
                        x.add(e, x.pair(a, t));
                        blocksOfA.add(Ids.index(t) >>> 10);
                    } else if (Ids.index(t) >>> 10 >= 1) {
                        x.add(e, x.pair(b, t));
                        blocksOfB.add(Ids.index(t) >>> 10);
                    }
                }
            });
        }
        assertEquals(List.of(0), List.copyOf(blocksOfA));
        assertEquals(5, blocksOfB.size(), "B's targets lie in blocks " + blocksOfB);
        long[] counts = new long[2];
        try (World r = World.openReadOnly(dir)) {
            assertEquals(0, r.pageReads().reversePages(), "open decodes no reverse page");
            for (long t : all) {
                r.forEachSource(a, t, s -> counts[0]++);
            }
            assertEquals(1, r.pageReads().reversePages(), "A's lookups decode block 0 only");
            assertTrue(r.pageReads().reverseLookupsSkipped() >= 4 * 1024, "skipped " + r.pageReads().reverseLookupsSkipped());
            assertEquals(1, r.pageReads().reverseSummaryPages(), "one summary page covers 1024 blocks");
        }
        try (World r = World.openReadOnly(dir)) {
            for (long t : all) {
                r.forEachSource(b, t, s -> counts[1]++);
            }
            assertEquals(5, r.pageReads().reversePages(), "B's lookups decode blocks 1 to 5, not block 0");
            assertEquals(List.of(), r.check());
        }
        assertTrue(counts[0] > 100 && counts[1] > 1000, counts[0] + " A, " + counts[1] + " B sources");
    }
}
