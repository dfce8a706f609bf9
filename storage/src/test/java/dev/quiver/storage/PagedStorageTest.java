package dev.quiver.storage;

import dev.quiver.index.PagedArrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The paged arrays of the entity index, the table columns and the sparse store
 * ({@link PagedArrays}) through the public API: a world of more entities than two pages hold,
 * grown commit by commit (each growth crossing or filling a page), keeps every state, name, value
 * and sparse pair through growth, a refused transaction that grew it, a delete of many rows in one
 * transaction, a reopen (rows read lazily, then grown again) and the checker. Values only, never
 * timings.
 */
class PagedStorageTest {
    /** Two full pages and part of a third, reached in steps that do not fall on page boundaries. */
    static final int N = 2 * PagedArrays.PAGE + 3_000;
    static final int STEP = 7_001;

    @TempDir
    Path tmp;

    private long pos;
    private long rel;

    @Test
    void worldsPastSeveralPagesKeepEveryEntryValueAndPair() {
        Path dir = tmp.resolve("w");
        long[] ents = new long[N + 2 * STEP];
        try (World w = World.create(dir)) {
            w.transaction(x -> {
                pos = x.component("Pos", Schema.of("x", FieldType.F64, "label", FieldType.STRING));
                rel = x.entity("Near");
                x.add(rel, Builtin.DONT_FRAGMENT);
            });
            for (int from = 0; from < N; from += STEP) {
                append(w, ents, from, Math.min(N, from + STEP));
            }
            assertWorld(w, ents, N, -1);

            // a refused transaction that grew every array past another page leaves the committed state
            assertThrows(IllegalStateException.class, () -> w.transaction(x -> {
                for (int i = N; i < N + PagedArrays.PAGE + 5; i++) {
                    long e = x.entity("extra" + i);
                    x.set(e, pos, Map.of("x", -1.0, "label", "refused"));
                    x.add(e, w.pair(rel, ents[i - N]));
                }
                x.set(ents[PagedArrays.PAGE + 1], pos, Map.of("x", -7.0, "label", "refused"));
                throw new IllegalStateException("refuse");
            }));
            assertWorld(w, ents, N, -1);
            assertEquals(0, w.lookup("extra" + N));

            // many rows of one table removed in one transaction: every third entity
            w.transaction(x -> {
                for (int i = 0; i < N; i += 3) {
                    x.delete(ents[i]);
                }
            });
            assertWorld(w, ents, N, 3);
        }
        try (World w = World.open(dir)) { // read lazily, then grown across a page boundary again
            pos = w.lookup("Pos");
            rel = w.lookup("Near");
            assertWorld(w, ents, N, 3);
            append(w, ents, N, N + STEP);
            assertWorld(w, ents, N + STEP, 3);
        }
        try (World w = World.open(dir)) {
            pos = w.lookup("Pos");
            rel = w.lookup("Near");
            assertWorld(w, ents, N + STEP, 3);
        }
    }

    /**
     * Creates entities {@code [from, to)}: "e&lt;i&gt;" with Pos (x = i, label "l&lt;i&gt;") and the
     * sparse pair (Near, e&lt;i / 2&gt;), and (Near, e&lt;i - 1&gt;) too for every fifth (a source
     * with two targets); a pair whose target was deleted is left out.
     */
    private void append(World w, long[] ents, int from, int to) {
        w.transaction(x -> {
            for (int i = from; i < to; i++) {
                long e = x.entity("e" + i);
                x.set(e, pos, Map.of("x", (double) i, "label", "l" + i));
                ents[i] = e;
                if (i > 0 && x.isAlive(ents[i / 2])) {
                    x.add(e, w.pair(rel, ents[i / 2]));
                }
                if (i % 5 == 0 && i > 1 && x.isAlive(ents[i - 1])) {
                    x.add(e, w.pair(rel, ents[i - 1]));
                }
            }
        });
    }

    /** True when entity i was deleted: every {@code gone}-th (-1: none) of the first {@link #N}. */
    private static boolean deleted(int i, int gone) {
        return gone > 0 && i < N && i % gone == 0;
    }

    /** Entities {@code [0, n)} as {@link #append} made them, less the {@link #deleted} ones. */
    private void assertWorld(World w, long[] ents, int n, int gone) {
        int alive = 0;
        for (int i = 0; i < n; i++) {
            boolean deleted = deleted(i, gone);
            assertEquals(!deleted, w.isAlive(ents[i]), "alive " + i);
            if (deleted) {
                assertEquals(0, w.lookup("e" + i), "name of deleted " + i);
                continue;
            }
            alive++;
            assertEquals(ents[i], w.lookup("e" + i), "name " + i);
            assertEquals("e" + i, w.name(ents[i]));
            assertEquals((double) i, w.getDouble(ents[i], pos, 0), "x of " + i);
            if (i % 101 == 0 || (i & PagedArrays.MASK) <= 1 || (i & PagedArrays.MASK) == PagedArrays.MASK) {
                assertEquals("l" + i, w.get(ents[i], pos).get("label"), "label of " + i);
            }
            long[] expected = expectedTargets(ents, i, gone);
            assertArrayEquals(expected, w.targets(ents[i], rel), "targets of " + i);
            if (i > 0) {
                assertEquals(!deleted(i / 2, gone), w.has(ents[i], w.pair(rel, ents[i / 2])), "pair of " + i);
            }
        }
        assertEquals(alive, (int) java.util.stream.IntStream.range(0, n).filter(i -> w.isAlive(ents[i])).count());
        assertEquals(List.of(), w.check());
    }

    private static long[] expectedTargets(long[] ents, int i, int gone) {
        var out = new java.util.TreeMap<Integer, Long>(); // by target index: targets come ascending
        if (i > 0 && !deleted(i / 2, gone)) {
            out.put(dev.quiver.index.Ids.index(ents[i / 2]), ents[i / 2]);
        }
        if (i % 5 == 0 && i > 1 && !deleted(i - 1, gone)) {
            out.put(dev.quiver.index.Ids.index(ents[i - 1]), ents[i - 1]);
        }
        return out.values().stream().mapToLong(Long::longValue).toArray();
    }

    /**
     * After a reopen every entry is unread until its block is read ({@code EntityIndex.lazy} marks
     * them page by page): an entity at either edge of a page, touched first in a fresh open, reads
     * its block and answers with its row, not with an empty entry.
     */
    @Test
    void afterAReopenAnEntityAtAPageEdgeTouchedFirstReadsItsBlock() {
        Path dir = tmp.resolve("edges");
        long[] ents = new long[N];
        try (World w = World.create(dir)) {
            w.transaction(x -> {
                pos = x.component("Pos", Schema.of("x", FieldType.F64, "label", FieldType.STRING));
                rel = x.entity("Near");
                x.add(rel, Builtin.DONT_FRAGMENT);
            });
            append(w, ents, 0, N);
        }
        int edges = 0;
        for (int i = 0; i < N; i++) {
            int slot = dev.quiver.index.Ids.index(ents[i]) & PagedArrays.MASK;
            if (slot != 0 && slot != PagedArrays.MASK) {
                continue;
            }
            edges++;
            try (World w = World.open(dir)) {
                assertTrue(w.isAlive(ents[i]), "alive " + i);
                assertEquals((double) i, w.getDouble(ents[i], w.lookup("Pos"), 0), "x of " + i);
                assertEquals("e" + i, w.name(ents[i]));
            }
        }
        assertEquals(4, edges, "the first and last slots of pages 0, 1 and 2 that entities hold");
    }

    @Test
    void growthCopiesNoFullPageAndKeepsValues() {
        long[][] s = new long[0][];
        for (int n = 1; n <= 3 * PagedArrays.PAGE + 17; n++) {
            long[][] before = s;
            s = PagedArrays.grow(s, n);
            assertTrue(PagedArrays.capacity(s) >= n);
            s[(n - 1) >>> PagedArrays.SHIFT][(n - 1) & PagedArrays.MASK] = n;
            for (int p = 0; p + 1 < before.length; p++) {
                assertTrue(before[p] == s[p], "full page " + p + " kept, not copied, at " + n);
            }
        }
        int cap = PagedArrays.capacity(s);
        assertTrue(cap - (3 * PagedArrays.PAGE + 17) <= PagedArrays.PAGE / 2, "at most half a page unused: " + cap);
        for (int i = 0; i < 3 * PagedArrays.PAGE + 17; i++) {
            assertEquals(i + 1, s[i >>> PagedArrays.SHIFT][i & PagedArrays.MASK], "slot " + i);
        }
        assertFalse(PagedArrays.grow(s, cap) != s, "a spine that holds the slots is returned as is");
        assertThrows(IllegalStateException.class, () -> PagedArrays.grow(new int[0][], dev.quiver.index.Capacity.MAX + 1L));
    }
}
