package dev.quiver.storage;

import dev.quiver.index.Ids;
import dev.quiver.storage.table.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * {@link TableAccess#locate}: the entity, table and row of many entity indices at once agree with
 * {@link World#entityOfIndex}, {@link TableAccess#table} and {@link TableAccess#row} one by one;
 * an index that is not alive (deleted, never used, 0, negative, past the range) gives 0, null, -1.
 */
class TableAccessLocateTest {
    @TempDir
    Path tmp;

    @Test
    void locatesAliveIndicesAndNothingForTheOthers() {
        try (World w = World.create(tmp.resolve("w"))) {
            long tag = w.entity("Tag"), other = w.entity("Other");
            long[] e = new long[40];
            for (int i = 0; i < e.length; i++) {
                e[i] = w.entity("e" + i);
                if (i % 3 == 0) {
                    w.add(e[i], tag);
                }
                if (i % 5 == 0) {
                    w.add(e[i], other);
                }
            }
            long dead = e[7];
            w.delete(dead);
            int n = e.length + 4;
            int[] idx = new int[n + 2];
            for (int i = 0; i < e.length; i++) {
                idx[2 + i] = Ids.index(e[i]);
            }
            idx[2 + e.length] = 0;
            idx[2 + e.length + 1] = -5;
            idx[2 + e.length + 2] = 1 << 30;
            idx[2 + e.length + 3] = Ids.index(tag);
            long[] ids = new long[n];
            Table[] tables = new Table[n];
            int[] rows = new int[n];
            w.tableAccess().locate(idx, 2, n, ids, tables, rows);
            for (int i = 0; i < n; i++) {
                long want = w.entityOfIndex(idx[2 + i] > 0 ? idx[2 + i] : 0);
                assertEquals(want, ids[i], "index " + idx[2 + i]);
                if (want == 0) {
                    assertNull(tables[i]);
                    assertEquals(-1, rows[i]);
                } else {
                    assertSame(w.tableAccess().table(want), tables[i]);
                    assertEquals(w.tableAccess().row(want), rows[i]);
                    assertEquals(want, tables[i].entity(rows[i]));
                }
            }
            assertEquals(0, ids[7]);
            assertEquals(tag, ids[n - 1]);
        }
    }
}
