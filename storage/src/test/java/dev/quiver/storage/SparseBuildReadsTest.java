package dev.quiver.storage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * After an open, the first use of non-fragmenting storage (a sparse {@code has}, here) builds the
 * sparse pairs from the reverse index's blocks that may hold a sparse relationship's pair, and
 * reads nothing else: no row page, and not the reverse block that holds only a fragmenting
 * relationship's pairs (it read every page of the world before, 1,086 row pages for RG-1 depth 6).
 * The pairs it builds answer as before the close.
 */
class SparseBuildReadsTest {
    @TempDir
    Path tmp;

    private static final int SPARSE_TARGETS = 200;
    private static final int OTHERS = 6_000;

    @Test
    void theFirstSparseCheckAfterAnOpenReadsOnlyTheReverseBlocksOfSparsePairs() {
        Path dir = tmp.resolve("w");
        try (World w = World.create(dir)) {
            w.transaction(x -> {
                long r = x.entity("R");
                x.add(r, Builtin.DONT_FRAGMENT);
                long q = x.entity("Q"); // fragmenting (three targets): its pairs stay in table types
                long pos = x.component("Pos", Schema.of("x", FieldType.F64));
                long[] t = new long[SPARSE_TARGETS];
                for (int i = 0; i < SPARSE_TARGETS; i++) {
                    t[i] = x.entity("t" + i); // low indices: the first reverse blocks
                }
                long[] o = new long[OTHERS];
                for (int i = 0; i < OTHERS; i++) {
                    o[i] = x.entity("o" + i); // several row pages
                    x.set(o[i], pos, new Object[] {(double) i});
                    x.add(o[i], x.pair(r, t[i % SPARSE_TARGETS]));
                }
                for (int i = 0; i < OTHERS; i++) { // Q's targets: the last three, in a reverse block of Q only
                    x.add(o[i], x.pair(q, o[OTHERS - 1 - i % 3]));
                }
            });
        }
        try (World w = World.open(dir)) {
            long r = w.lookup("R"), q = w.lookup("Q");
            PageReads before = w.pageReads();
            assertTrue(w.has(w.lookup("o205"), w.pair(r, w.lookup("t5"))));
            PageReads after = w.pageReads();
            assertEquals(0, after.rowPages() - before.rowPages(), "row pages read by the first sparse check");
            long reverse = after.reversePages() - before.reversePages();
            // Q fragments, but the test suite's second run stores every relationship sparse
            boolean qSparse = w.tableAccess().sparse().isSparse(dev.quiver.index.Ids.index(q));
            assertEquals(qSparse ? 2 : 1, reverse, "reverse pages read: the block of R's targets (the first), "
                + "and Q's only when Q is sparse too (" + qSparse + ")");
            // the built pairs answer as before the close
            assertFalse(w.has(w.lookup("o205"), w.pair(r, w.lookup("t6"))));
            assertArrayEquals(new long[] {w.lookup("t7")}, w.targets(w.lookup("o4007"), r));
            assertTrue(w.has(w.lookup("o4007"), w.pair(q, w.lookup("o" + (OTHERS - 1 - 4007 % 3)))));
            long[] count = {0};
            for (int i = 0; i < OTHERS; i++) {
                if (w.has(w.lookup("o" + i), w.pair(r, w.lookup("t" + (i % SPARSE_TARGETS))))) {
                    count[0]++;
                }
            }
            assertEquals(OTHERS, count[0]);
        }
    }
}
