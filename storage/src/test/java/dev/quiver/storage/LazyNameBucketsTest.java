package dev.quiver.storage;

import dev.quiver.storage.entity.EntityNames;
import dev.quiver.storage.format.WorldFormat;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The flat name index read bucket by bucket (open in place): a reader reads exactly the name pages
 * of the buckets its lookups hash to, one each; a reader bounded to a few buckets forgets and
 * reads again, answering as an unbounded one; a writer's refused transaction (renames, deletes,
 * new names) leaves the committed names, and its committed renames survive a reopen. Seed:
 * {@code -Dquiver.seed=N} (printed).
 */
class LazyNameBucketsTest {
    static final long SEED = Long.getLong("quiver.seed", System.nanoTime());
    static final int ROOTS = 6_000;
    static final int PARENTS = 30;
    static final int CHILDREN = 40;

    @TempDir
    static Path tmp;

    @BeforeAll
    static void printSeed() {
        System.out.println("LazyNameBucketsTest seed " + SEED + " (-Dquiver.seed=" + SEED + ")");
    }

    static void build(Path dir) {
        try (World w = World.create(dir)) {
            w.transaction(x -> {
                for (int i = 0; i < ROOTS; i++) {
                    x.entity("r" + i);
                }
                for (int p = 0; p < PARENTS; p++) {
                    for (int c = 0; c < CHILDREN; c++) {
                        x.entity("p" + p + ".c" + c);
                    }
                }
            });
        }
    }

    @Test
    void aReaderReadsTheBucketsItsLookupsHashToOnceEach() {
        Path dir = tmp.resolve("read");
        build(dir);
        Random rnd = new Random(SEED);
        try (World r = World.openReadOnly(dir)) {
            WorldFormat f = r.format();
            assertEquals(0, f.nameBucketsRead(), "open reads no name page");
            Set<Integer> buckets = new HashSet<>();
            for (int k = 0; k < 300; k++) {
                String name = "r" + rnd.nextInt(ROOTS);
                long e = r.lookup(name);
                assertNotEquals(0, e, name);
                assertEquals(name, r.name(e));
                buckets.add(EntityNames.bucket(0, name));
                assertEquals(buckets.size(), f.nameBucketsRead(), "one page per new bucket, seed " + SEED);
            }
            // absent names read their bucket too, and find nothing
            assertEquals(0, r.lookup("absent"));
            buckets.add(EntityNames.bucket(0, "absent"));
            assertEquals(buckets.size(), f.nameBucketsRead());
            // a child: the parent's bucket, then the child's under the parent's index
            long p7 = r.lookup("p7");
            long c3 = r.lookup("p7.c3");
            assertEquals("p7.c3", r.path(c3));
            assertNotEquals(0, p7);
            assertEquals(List.of(), r.check());
        }
    }

    /**
     * A full read (a snapshot's or the checker's) after some lazy bucket loads reads the rest in
     * bucket order: the index's work stays linear in the names read (issue 8: one table for all
     * buckets made that read quadratic), and every name answers as in the writer's world.
     */
    @Test
    void aFullReadInBucketOrderIsLinearInTheNamesRead() {
        Path dir = tmp.resolve("full");
        build(dir);
        Random rnd = new Random(SEED + 2);
        try (World r = World.openReadOnly(dir)) {
            EntityNames names = r.m.names;
            for (int k = 0; k < 50; k++) {
                r.lookup("r" + rnd.nextInt(ROOTS));
            }
            r.format().readEverything();
            int n = names.size(); // the world's own names and the builtin entities'
            assertTrue(n >= ROOTS + PARENTS + PARENTS * CHILDREN, n + " names");
            assertTrue(names.probes() <= 8L * n, names.probes() + " slots probed to read " + n + " names, seed " + SEED);
            for (int i = 0; i < ROOTS; i++) {
                assertEquals("r" + i, r.path(r.lookup("r" + i)));
            }
            for (int p = 0; p < PARENTS; p++) {
                for (int c = 0; c < CHILDREN; c++) {
                    assertEquals("p" + p + ".c" + c, r.path(r.lookup("p" + p + ".c" + c)));
                }
            }
            assertEquals(List.of(), r.check());
        }
    }

    @Test
    void aBoundedReaderForgetsBucketsAndAnswersAsAnUnboundedOne() {
        Path dir = tmp.resolve("bounded");
        build(dir);
        Random rnd = new Random(SEED + 1);
        try (World whole = World.openReadOnly(dir); World r = World.openReadOnly(dir)) {
            r.format().boundCaches(WorldFormat.READER_REVERSE_BLOCKS, 3);
            for (int k = 0; k < 500; k++) {
                // root names: a child's path asks for its parent, which a sparse ChildOf
                // (-Dquiver.sparse=always) answers by reading the whole reverse index and so every page
                String path = "r" + rnd.nextInt(ROOTS + 50);
                long e = r.lookup(path);
                assertEquals(whole.lookup(path), e, path + ", seed " + SEED);
                if (e != 0) {
                    assertEquals(path, r.path(e));
                }
                assertTrue(r.format().nameBucketsInMemory() <= 3, "bounded: " + r.format().nameBucketsInMemory());
            }
            assertTrue(r.format().nameBucketsRead() > 3, "buckets forgotten and read again");
        }
    }

    @Test
    void aRefusedTransactionLeavesTheCommittedNamesAndRenamesSurviveAReopen() {
        Path dir = tmp.resolve("writer");
        build(dir);
        try (World w = World.open(dir)) {
            long r5 = w.lookup("r5");
            long c1 = w.lookup("p2.c1");
            assertThrows(IllegalStateException.class, () -> w.transaction(x -> {
                x.rename(r5, "renamed5");
                x.delete(c1);
                for (int i = 0; i < 2_000; i++) {
                    x.entity("new" + i);
                }
                assertEquals(r5, x.lookup("renamed5"));
                throw new IllegalStateException("refused");
            }));
            assertEquals(r5, w.lookup("r5"));
            assertEquals(0, w.lookup("renamed5"));
            assertEquals(c1, w.lookup("p2.c1"));
            assertEquals(0, w.lookup("new7"));
            assertEquals(List.of(), w.check());
            w.rename(r5, "renamed5");
            w.rename(c1, "c1b");
        }
        try (World r = World.openReadOnly(dir)) {
            assertEquals(0, r.lookup("r5"));
            assertEquals("renamed5", r.name(r.lookup("renamed5")));
            assertEquals("p2.c1b", r.path(r.lookup("p2.c1b")));
            assertEquals(0, r.lookup("p2.c1"));
            assertEquals(List.of(), r.check());
        }
    }
}
