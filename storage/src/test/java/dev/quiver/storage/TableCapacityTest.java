package dev.quiver.storage;

import dev.quiver.storage.table.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Table arrays sized to their rows (issue 8, memory): a large table grows by an eighth, not by
 * doubling ({@code index.Capacity}), and keeps every value through growth, a refused transaction that grew it, a reopen
 * (rows read lazily, then grown by appends) and the checker; the entity index grows alike. Capacities and values only, never
 * timings.
 */
class TableCapacityTest {
    /** Past the doubling threshold (65,536 rows), so that several eighth-steps happen. */
    static final int N = 90_000;

    @TempDir
    Path tmp;

    @Test
    void aLargeTableHoldsAtMostAnEighthMoreRowsAndKeepsItsValues() {
        Path dir = tmp.resolve("w");
        long[] ents = new long[N + 1000];
        long pos;
        try (World w = World.create(dir)) {
            pos = w.transactionResult(x -> x.component("Pos", Schema.of("x", FieldType.F64, "label", FieldType.STRING)));
            for (int from = 0; from < N; from += 30_000) { // several commits, each growing the table
                int start = from;
                w.transaction(x -> {
                    for (int i = start; i < start + 30_000; i++) {
                        long e = x.entity();
                        x.set(e, pos, java.util.Map.of("x", (double) i, "label", "l" + i));
                        ents[i] = e;
                    }
                });
            }
            Table t = w.tableAccess().table(ents[0]);
            assertEquals(N, t.count());
            assertTrue(t.capacity() >= N && t.capacity() <= N + N / 8 + 1, "capacity " + t.capacity() + " for " + N + " rows");
            assertValues(w, ents, pos, N);
            int entities = w.m.parts.entities().nextIndex();
            int entityCap = w.m.parts.entities().capacity();
            assertTrue(entityCap >= entities && entityCap <= entities + entities / 8 + 1, "entity index capacity " + entityCap + " for " + entities);

            // a refused transaction that grew the table leaves the committed rows and values
            int capBefore = t.capacity();
            assertThrows(IllegalStateException.class, () -> w.transaction(x -> {
                for (int i = N; i < N + 1000; i++) {
                    long e = x.entity();
                    x.set(e, pos, java.util.Map.of("x", -1.0, "label", "refused"));
                }
                x.set(ents[7], pos, java.util.Map.of("x", -7.0, "label", "refused"));
                throw new IllegalStateException("refuse");
            }));
            Table after = w.tableAccess().table(ents[0]);
            assertEquals(N, after.count());
            assertTrue(after.capacity() <= Math.max(capBefore, N + N / 8 + 1), "capacity " + after.capacity());
            assertValues(w, ents, pos, N);
            assertEquals(List.of(), w.check());
        }
        try (World w = World.open(dir)) { // read lazily, sized to its rows, then grown by an append
            Table t = w.tableAccess().table(ents[N - 1]);
            assertEquals(N, t.count());
            assertValues(w, ents, pos, N);
            assertEquals(N, t.capacity(), "rows read from pages take exactly their rows");
            w.transaction(x -> {
                for (int i = N; i < N + 1000; i++) {
                    long e = x.entity();
                    x.set(e, pos, java.util.Map.of("x", (double) i, "label", "l" + i));
                    ents[i] = e;
                }
            });
            assertEquals(N + 1000, t.count());
            assertTrue(t.capacity() <= N + N / 8 + 1, "capacity " + t.capacity());
            assertValues(w, ents, pos, N + 1000);
            assertEquals(List.of(), w.check());
        }
        try (World w = World.open(dir)) {
            assertValues(w, ents, pos, N + 1000);
        }
    }

    private static void assertValues(World w, long[] ents, long pos, int n) {
        for (int i = 0; i < n; i++) {
            assertEquals((double) i, w.getDouble(ents[i], pos, 0), "x of entity " + i);
            if (i % 997 == 0) {
                assertEquals("l" + i, w.get(ents[i], pos).get("label"));
            }
        }
    }
}
