package dev.quiver.storage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * After an open, the first use of non-fragmenting storage (a sparse {@code has}, here) reads the
 * one {@code sparse} page of the source's block (page format 13) and nothing else: no reverse page
 * and no row page. Before format 13 it built every sparse pair from the reverse pages that may hold
 * one (and before that from every page of the world: 1,086 row pages for RG-1 depth 6). The pairs
 * read answer as before the close.
 */
class SparseOpenReadsTest {
    @TempDir
    Path tmp;

    private static final int SPARSE_TARGETS = 200;
    private static final int OTHERS = 6_000;

    @Test
    void theFirstSparseCheckAfterAnOpenReadsOneSparsePage() {
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
            // whether R is in use comes from its marker tables' rows: no page read
            assertTrue(w.tableAccess().sparse().isSparse(dev.quiver.index.Ids.index(r)));
            assertEquals(0, w.pageReads().sparsePages() - before.sparsePages(), "sparse pages read to know R is in use");
            assertTrue(w.has(w.lookup("o205"), w.pair(r, w.lookup("t5"))));
            PageReads after = w.pageReads();
            assertEquals(0, after.rowPages() - before.rowPages(), "row pages read by the first sparse check");
            assertEquals(0, after.reversePages() - before.reversePages(), "reverse pages read by the first sparse check");
            assertEquals(1, after.sparsePages() - before.sparsePages(), "sparse pages read: R's, of o205's block");
            // the pairs read answer as before the close
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
            // Q fragments, but the test suite's second run stores every relationship sparse
            boolean qSparse = w.tableAccess().sparse().isSparse(dev.quiver.index.Ids.index(q));
            int blocks = (OTHERS + SPARSE_TARGETS + 8) / 1024 + 1;
            assertTrue(w.pageReads().sparsePages() <= (qSparse ? 2 * blocks : blocks),
                "sparse pages read: at most one per relationship and block, " + w.pageReads());
            assertEquals(0, w.pageReads().reversePages(), "no reverse page read by sparse checks");
        }
    }
}
