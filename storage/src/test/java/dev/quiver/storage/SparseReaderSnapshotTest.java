package dev.quiver.storage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A reader beside a writer sees the committed state of its start in the sparse pages too (issue 8
 * section 4): the blocks it reads after the writer changed and committed them (page format 13
 * reads a block's page when a source is first asked about) give the pairs as they were when the
 * reader opened, and a reader opened afterwards sees the change.
 */
class SparseReaderSnapshotTest {
    @TempDir
    Path tmp;

    @Test
    void aReaderReadsTheSparsePagesOfItsStart() {
        Path dir = tmp.resolve("w");
        int n = 3_000; // three blocks of sources
        try (World w = World.create(dir)) {
            w.transaction(x -> {
                long r = x.entity("R");
                x.add(r, Builtin.DONT_FRAGMENT);
                long t = x.entity("t"), u = x.entity("u");
                for (int i = 0; i < n; i++) {
                    x.add(x.entity("e" + i), x.pair(r, i % 2 == 0 ? t : u));
                }
            });
        }
        try (World w = World.open(dir); World before = World.openReadOnly(dir)) {
            long r = w.lookup("R"), t = w.lookup("t"), u = w.lookup("u");
            // the reader has read no sparse page yet; the writer changes sources in every block
            w.transaction(x -> {
                for (int i = 0; i < n; i += 7) {
                    x.remove(x.lookup("e" + i), x.pair(r, i % 2 == 0 ? t : u));
                    x.add(x.lookup("e" + i), x.pair(r, x.lookup("e" + (n - 1 - i))));
                }
            });
            assertEquals(0, before.pageReads().sparsePages(), "the reader read no sparse page before the commit");
            for (int i = 0; i < n; i++) {
                long want = before.lookup(i % 2 == 0 ? "t" : "u");
                assertArrayEquals(new long[] {want}, before.targets(before.lookup("e" + i), before.lookup("R")),
                    "the reader's e" + i);
            }
            assertTrue(before.pageReads().sparsePages() >= 3, "the reader read its pages after the commit");
            try (World after = World.openReadOnly(dir)) {
                for (int i = 0; i < n; i += 7) {
                    assertArrayEquals(new long[] {after.lookup("e" + (n - 1 - i))},
                        after.targets(after.lookup("e" + i), after.lookup("R")), "a later reader's e" + i);
                }
                assertEquals(java.util.List.of(), after.check());
            }
        }
    }
}
