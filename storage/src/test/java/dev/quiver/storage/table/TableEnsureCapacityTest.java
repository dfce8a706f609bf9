package dev.quiver.storage.table;

import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@link Table#ensureCapacity}: room made at once for the rows a batch is about to append is the
 * room appending them one by one ends with (doubling while small, an eighth at a time when large:
 * the growth policy is unchanged), the rows are then appended without growing the arrays again,
 * and the table's rows and values are those of a twin table grown by appends alone. Capacities
 * and contents only, never timings.
 */
class TableEnsureCapacityTest {
    private static final Schema SCHEMA = Schema.of("x", FieldType.F64, "label", FieldType.STRING);

    private static Table table() {
        return new Table(7, new long[] {1000}, new long[] {1000}, new Schema[] {SCHEMA});
    }

    /** Appends rows {@code [from, to)}: entity {@code 10 + r}, x {@code r}, label "l" r; every other row copies row 0. */
    private static void fill(Table t, int from, int to) {
        for (int r = from; r < to; r++) {
            if (r > 0 && r % 2 == 0) {
                assertEquals(r, t.appendCopy(10 + r, 0));
            } else {
                assertEquals(r, t.append(10 + r));
                Column c = t.columnsInPlace()[0];
                c.setWord(0, r, Double.doubleToRawLongBits(r));
                c.setString(1, r, "l" + r);
            }
        }
    }

    @Test
    void roomMadeAtOnceIsTheRoomAppendsReachAndKeepsEveryRow() {
        // small (doubling) and large (past 65,536 rows: by an eighth) tables, batches of all sizes
        int[][] cases = {{0, 1}, {0, 1000}, {3, 5}, {100, 0}, {1000, 1000}, {60_000, 20_000}, {70_000, 1000}, {70_000, 40_000}};
        for (int[] cs : cases) {
            int before = cs[0], batch = cs[1];
            Table sized = table(), grown = table();
            fill(sized, 0, before);
            fill(grown, 0, before);
            sized.ensureCapacity(batch);
            long[] array = sized.entities();
            fill(sized, before, before + batch);
            fill(grown, before, before + batch);
            String what = before + " rows, then " + batch;
            assertSame(array, sized.entities(), "the arrays grow once, before the batch: " + what);
            assertEquals(grown.capacity(), sized.capacity(), "the capacity appends reach: " + what);
            assertEquals(grown.count(), sized.count());
            assertArrayEquals(java.util.Arrays.copyOf(grown.entities(), grown.count()),
                    java.util.Arrays.copyOf(sized.entities(), sized.count()), what);
            for (int r = 0; r < sized.count(); r++) {
                assertEquals(grown.columns()[0].row(r), sized.columns()[0].row(r), "row " + r + ": " + what);
            }
        }
    }

    @Test
    void aNegativeBatchIsRefused() {
        Table t = table();
        fill(t, 0, 3);
        assertThrows(IllegalArgumentException.class, () -> t.ensureCapacity(-1));
        assertEquals(3, t.count());
        assertEquals(4, t.capacity());
    }
}
