package dev.quiver.storage;

import dev.quiver.index.Ids;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A block read from its page whose names nobody used is written back with its names section as
 * read (format 11), not decoded to be encoded again: a commit that changes only the tables of
 * named entities, and a cascade delete whose survivors only lose a pair (RG-1's delete), decode
 * no names section of those entities' blocks; the pages written are byte for byte the ones a
 * block with decoded names gives, and every name is back after a reopen.
 */
class EntityPageNamesCopyTest {
    /** Holders: named entities over several blocks, every 7th anonymous (gaps in the names sections). */
    private static final int HOLDERS = 6_000;
    /** The doomed subtree: a root and its children, after the holders (blocks of their own). */
    private static final int CHILDREN = 2_500;

    @TempDir
    Path tmp;

    private static String holderName(int i) {
        return i % 7 == 3 ? null : "h" + i;
    }

    /** The world: holders, then the subtree; holder i with i % 3 == 0 likes a child of the subtree. */
    private static void build(Path dir) {
        try (World w = World.create(dir)) {
            w.transaction(x -> {
                long loc = x.entity("LocatedIn");
                x.add(loc, Builtin.TRANSITIVE, x.pair(Builtin.ON_DELETE_TARGET, Builtin.DELETE));
                long likes = x.entity("Likes");
                x.entity("Tag");
                long[] holders = new long[HOLDERS];
                for (int i = 0; i < HOLDERS; i++) {
                    String name = holderName(i);
                    holders[i] = name == null ? x.entity() : x.entity(name);
                }
                long root = x.entity("sub");
                long[] children = new long[CHILDREN];
                for (int c = 0; c < CHILDREN; c++) {
                    children[c] = x.entity("c" + c);
                    x.add(children[c], x.pair(loc, root));
                }
                for (int i = 0; i < HOLDERS; i += 3) {
                    x.add(holders[i], x.pair(likes, children[(i * 7919) % CHILDREN]));
                }
            });
        }
    }

    /** Every entities page of the world, by key, as stored. */
    private static Map<Long, byte[]> entityPages(Path dir) {
        var out = new TreeMap<Long, byte[]>();
        try (World r = World.openReadOnly(dir)) {
            WorldPages.forEach(r, (m, k, b) -> {
                if (m.equals("entities")) {
                    out.put(k, b.clone());
                }
            });
        }
        return out;
    }

    private static void assertSamePages(Map<Long, byte[]> expected, Map<Long, byte[]> actual) {
        assertEquals(expected.keySet(), actual.keySet());
        for (long k : expected.keySet()) {
            assertArrayEquals(expected.get(k), actual.get(k), "entities page " + k);
        }
    }

    /** The holders' names and ids as a reopened world gives them, and a clean check. */
    private static void verifyNames(Path dir, long[] holderIds) {
        try (World r = World.openReadOnly(dir)) {
            for (int i = 0; i < HOLDERS; i++) {
                String name = holderName(i);
                assertTrue(r.isAlive(holderIds[i]), "holder " + i);
                if (name == null) {
                    assertNull(r.name(holderIds[i]), "holder " + i);
                } else {
                    assertEquals(holderIds[i], r.lookup(name), name);
                    assertEquals(name, r.name(holderIds[i]));
                }
            }
            assertEquals(java.util.List.of(), r.check());
        }
    }

    /** The holders' ids, then the subtree root's and its children's, read by a reader (whose decodes do not count). */
    private static long[] ids(Path dir) {
        try (World r = World.openReadOnly(dir)) {
            long[] ids = new long[HOLDERS + 1 + CHILDREN];
            int first = Ids.index(r.lookup("h0"));
            for (int i = 0; i < HOLDERS; i++) {
                ids[i] = r.entityOfIndex(first + i);
            }
            ids[HOLDERS] = r.lookup("sub");
            for (int c = 0; c < CHILDREN; c++) {
                ids[HOLDERS + 1 + c] = r.lookup("c" + c);
            }
            return ids;
        }
    }

    /** Builds the same world in {@code dir} and {@code decoded}; their ids ({@link #ids}), checked equal. */
    private static long[] twins(Path dir, Path decoded) {
        build(dir);
        build(decoded);
        long[] ids = ids(dir);
        assertArrayEquals(ids, ids(decoded));
        return ids;
    }

    /** Uses a name in every block of holders, so that each block's names section is decoded. */
    private static void decodeHolderNames(World w, long[] ids) {
        for (int i = 0; i < HOLDERS; i += 1024) {
            w.name(ids[i + 1]);
        }
    }

    @Test
    void aCommitChangingOnlyTablesOfNamedEntitiesDecodesNoNamesSection() {
        Path dir = tmp.resolve("tables"), decoded = tmp.resolve("tables-decoded");
        long[] ids = twins(dir, decoded);
        try (World w = World.open(decoded)) { // the same change with every holder block's names decoded first
            decodeHolderNames(w, ids);
            addTag(w, ids);
        }
        try (World w = World.open(dir)) {
            long before = w.pageReads().entityNameSections();
            addTag(w, ids);
            assertEquals(before, w.pageReads().entityNameSections(),
                    "the changed blocks' names sections are written as read, not decoded");
        }
        assertSamePages(entityPages(decoded), entityPages(dir));
        verifyNames(dir, ids);
    }

    /** Tag on every 5th holder: each holder block changes tables and rows, no name. */
    private static void addTag(World w, long[] ids) {
        long tag = w.lookup("Tag");
        w.transaction(x -> {
            for (int i = 0; i < HOLDERS; i += 5) {
                x.add(ids[i], tag);
            }
        });
    }

    @Test
    void aCascadeDeleteDecodesTheNamesOfTheDoomedBlocksOnlyNotOfTheSurvivorsLosingAPair() {
        Path dir = tmp.resolve("cascade"), decoded = tmp.resolve("cascade-decoded");
        long[] ids = twins(dir, decoded);
        long root = ids[HOLDERS];
        try (World w = World.open(decoded)) {
            decodeHolderNames(w, ids);
            w.delete(root);
        }
        Set<Integer> doomedBlocks = new HashSet<>();
        for (int k = HOLDERS; k < ids.length; k++) {
            doomedBlocks.add(Ids.index(ids[k]) >>> 10);
        }
        try (World w = World.open(dir)) {
            long sections = w.pageReads().entityNameSections();
            w.delete(root);
            assertFalse(w.isAlive(root));
            assertEquals(sections + doomedBlocks.size(), w.pageReads().entityNameSections(),
                    "the doomed blocks' names are decoded (their names leave the name index), the holders' are not; "
                            + w.pageReads());
        }
        assertSamePages(entityPages(decoded), entityPages(dir));
        verifyNames(dir, ids);
        try (World r = World.openReadOnly(dir)) {
            long likes = r.lookup("Likes");
            for (int i = 0; i < HOLDERS; i++) {
                assertEquals(0, Arrays.stream(r.type(ids[i])).filter(id -> Ids.isPair(id) && Ids.first(id) == Ids.index(likes)).count(),
                        "a holder's Likes pair into the subtree is gone");
            }
            assertEquals(0, r.lookup("c0"));
        }
    }
}
