package dev.quiver.query;

import dev.quiver.storage.Builtin;
import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;
import dev.quiver.storage.World;
import dev.quiver.storage.table.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * A join {@code (Likes, $y), Pos($y)} over a non-fragmenting Likes reads the located targets'
 * {@code Pos} data ahead of the rows that answer them (engine {@code LocatedCheck.warm}), but only
 * in tables whose rows are in memory: after a reopen, a join that reads no value leaves the
 * targets' tables unread (the read-ahead would otherwise read them whole), and the values read through the
 * rows are the world's, before and after the reopen, for targets in several tables (a tag moved
 * some); a component whose first field is a string (no word to read: the first word field is read
 * instead) or that has only strings is read ahead safely.
 */
class LocatedWarmTest {
    @TempDir
    Path tmp;

    private static final int TARGETS = 6_000;
    private static final int HOLDERS = 2_000;

    @Test
    void readAheadReadsNoRowPageOfATableNotInMemoryAndChangesNoValue() {
        Path dir = tmp.resolve("w");
        long expected;
        try (World w = World.create(dir)) {
            w.component("Pos", Schema.of("x", FieldType.F64, "y", FieldType.F64));
            w.transaction(x -> {
                long pos = x.lookup("Pos");
                long likes = x.entity("Likes");
                x.add(likes, Builtin.DONT_FRAGMENT);
                long tag = x.entity("Tag");
                long[] target = new long[TARGETS];
                for (int i = 0; i < TARGETS; i++) {
                    target[i] = x.entity("t" + i);
                    x.set(target[i], pos, new Object[] {(double) i, (double) -i});
                    if (i % 7 == 3) {
                        x.add(target[i], tag); // another table
                    }
                }
                for (int i = 0; i < HOLDERS; i++) {
                    long h = x.entity("h" + i);
                    x.add(h, x.pair(likes, target[(int) ((i * 7919L) % TARGETS)]));
                }
            });
            expected = expectedSum();
            assertEquals(expected, sumOfX(w), "in memory");
        }
        try (World w = World.open(dir)) {
            assertEquals(HOLDERS, Query.parse(w, "(Likes, $y), Pos($y)").count());
            long[] rows = {0};
            Query.parse(w, "(Likes, $y), Pos($y)").forEachReused(r -> rows[0] += r.fieldRow(1) >= 0 ? 1 : 0);
            assertEquals(HOLDERS, rows[0]);
            for (String t : new String[] {"t0", "t3"}) { // the targets' two tables, unread
                Table tb = w.tableAccess().table(w.lookup(t));
                assertFalse(tb.rowsInMemory(), () -> "a join that reads no value read the rows of " + t + "'s table");
            }
            assertEquals(expected, sumOfX(w), "after the reopen");
        }
    }

    @Test
    void componentsWithoutAWordFirstOrWithoutAnyAreReadAheadSafely() {
        try (World w = World.create(tmp.resolve("s"))) {
            w.component("Label", Schema.of("text", FieldType.STRING, "n", FieldType.I64));
            w.component("Text", Schema.of("text", FieldType.STRING));
            w.transaction(x -> {
                long label = x.lookup("Label"), text = x.lookup("Text");
                long likes = x.entity("Likes");
                x.add(likes, Builtin.DONT_FRAGMENT);
                long[] target = new long[TARGETS];
                for (int i = 0; i < target.length; i++) {
                    target[i] = x.entity("t" + i);
                    x.set(target[i], label, new Object[] {"t" + i, (long) i});
                    x.set(target[i], text, new Object[] {"x" + i});
                }
                for (int i = 0; i < HOLDERS; i++) {
                    x.add(x.entity("h" + i), x.pair(likes, target[(i * 7) % TARGETS]));
                }
            });
            long[] sum = {0};
            long[] chars = {0};
            Query.parse(w, "(Likes, $y), Label($y), Text($y)").forEachReused(r -> {
                sum[0] += r.get(1, "n", Long.class);
                chars[0] += r.get(2, "text", String.class).length();
            });
            long expected = 0;
            long expectedChars = 0;
            for (int i = 0; i < HOLDERS; i++) {
                int t = (i * 7) % TARGETS;
                expected += t;
                expectedChars += ("x" + t).length();
            }
            assertEquals(expected, sum[0]);
            assertEquals(expectedChars, chars[0]);
        }
    }

    private static long expectedSum() {
        long s = 0;
        for (int i = 0; i < HOLDERS; i++) {
            s += (i * 7919L) % TARGETS;
        }
        return s;
    }

    private static long sumOfX(World w) {
        long[] sum = {0};
        Query.parse(w, "(Likes, $y), Pos($y)").forEachReused(r -> sum[0] += (long) r.get(1, "x", Double.class).doubleValue());
        return sum[0];
    }
}
