package dev.quiver.query;

import dev.quiver.index.Ids;
import dev.quiver.query.iter.FieldValueException;
import dev.quiver.query.iter.WorldChangedException;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;
import dev.quiver.storage.World;
import dev.quiver.storage.table.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Field data for fields whose source is a variable other than {@code $this}
 * ({@link QueryRow#fieldTable}, {@link QueryRow#fieldRow}, {@link QueryRow#column}): the RG-1 join
 * {@code (Likes, $y), Pos($y)} reads Pos of {@code $y} in place from the table the engine bound
 * {@code $y} with. Checked against the values the test set, in both storage kinds (Likes stored
 * sparse, whose targets the engine locates a chunk at a time, and fragmenting), across more rows
 * than one chunk; plus the cases without a located table (fixed and traversed sources, rows of a
 * stream), the errors, and rows kept past a write. Reproduce with {@code -Dquiver.seed=N}.
 */
class FieldTableTest {
    @TempDir
    Path tmp;

    private static final int N = 900;

    private record World3(World w, long pos, long likes, long tag, long[] e, List<long[]> pairs) {}

    private static World3 build(Path dir, boolean sparse, long seed) {
        World w = SparseChildOfQueryTest.create(dir, sparse ? "auto" : "never");
        long pos = w.component("Pos", Schema.of("x", FieldType.F64, "y", FieldType.F64));
        long[] ids = new long[3];
        long[] e = new long[N];
        List<long[]> pairs = new ArrayList<>();
        w.transaction(x -> {
            ids[0] = x.entity("Likes");
            ids[1] = x.entity("Tag");
            if (sparse) {
                x.add(ids[0], Builtin.DONT_FRAGMENT);
            }
            long[] tags = {x.entity("A"), x.entity("B"), x.entity("C")};
            Random rnd = new Random(seed);
            for (int i = 0; i < N; i++) {
                e[i] = x.entity("n" + i);
                if (i % 5 != 0) {
                    x.set(e[i], pos, Map.of("x", (double) i, "y", -1.0));
                }
                if (rnd.nextInt(3) == 0) { // several tables, so $y's table changes between rows
                    x.add(e[i], tags[rnd.nextInt(tags.length)]);
                }
                if (i % 7 == 0) {
                    x.add(e[i], ids[1]);
                }
            }
            for (int i = 0; i < N; i++) {
                for (int k = rnd.nextInt(3); k > 0; k--) {
                    long t = e[rnd.nextInt(N)];
                    if (!x.has(e[i], Ids.pair(ids[0], t))) {
                        x.add(e[i], Ids.pair(ids[0], t));
                        pairs.add(new long[] {e[i], t});
                    }
                }
            }
        });
        return new World3(w, pos, ids[0], ids[1], e, pairs);
    }

    private static double x(World3 m, long entity) {
        for (int i = 0; i < N; i++) {
            if (m.e[i] == entity) {
                return i;
            }
        }
        throw new AssertionError("no such node " + entity);
    }

    @Test
    void aVariableSourcesDataIsReadInPlaceFromTheTableTheEngineBoundItWith() {
        long seed = Long.getLong("quiver.seed", System.nanoTime() % 100000);
        System.out.println("FieldTableTest seed " + seed + " (-Dquiver.seed=" + seed + ")");
        for (boolean sparse : new boolean[] {true, false}) {
            World3 m = build(tmp.resolve(sparse ? "sparse" : "dense"), sparse, seed);
            try (World w = m.w) {
                String what = "seed " + seed + (sparse ? ", sparse" : ", dense");
                List<String> want = new ArrayList<>();
                for (long[] p : m.pairs) {
                    if (x(m, p[1]) % 5 != 0) {
                        want.add(p[0] + " " + p[1] + " " + x(m, p[1]));
                    }
                }
                assertTrue(want.size() > 300, "more rows than one chunk");
                Query q = Query.parse(w, "(Likes, $y), Pos($y)");
                List<String> got = new ArrayList<>();
                int[] located = {0};
                q.forEach(r -> {
                    long y = r.variable("y");
                    Table t = r.fieldTable(1);
                    if (t != null) {
                        located[0]++;
                        assertEquals(y, t.entity(r.fieldRow(1)), what);
                    } else {
                        assertEquals(-1, r.fieldRow(1), what);
                    }
                    double v = r.column(1).member("x").getDouble(0);
                    assertEquals(r.get(1, "x", Double.class), v, what);
                    assertEquals(-1.0, r.column(1).member("y").getDouble(0), what);
                    assertEquals(1, r.column(1).size());
                    // field 0's source is $this: its table is the row's own
                    assertSame(r.thisTable(), r.fieldTable(0), what);
                    assertEquals(r.thisRow(), r.fieldRow(0), what);
                    got.add(r.thisEntity() + " " + y + " " + v);
                });
                Collections.sort(want);
                Collections.sort(got);
                assertEquals(want, got, what);
                if (sparse) { // the targets of a sparse Likes are located with their tables (rows of one target)
                    assertTrue(located[0] > 100, what + ": " + located[0] + " rows located");
                }
                // kept rows read the same, and refuse once the world was written
                List<QueryRow> kept = q.rows(-1);
                assertEquals(want.size(), kept.size());
                QueryRow first = kept.get(0);
                assertEquals(x(m, first.variable("y")), first.column(1).member("x").getDouble(0), what);
                w.add(m.e[1], m.tag);
                assertThrows(WorldChangedException.class, () -> first.column(1), what);
            }
        }
    }

    /**
     * Rows with one located field keep it in the row's group itself, rows with several in per-field
     * arrays: every located field reads its own variable's table and row, in both storage kinds.
     */
    @Test
    void everyLocatedFieldOfARowReadsItsOwnSource() {
        long seed = Long.getLong("quiver.seed", System.nanoTime() % 100000);
        System.out.println("FieldTableTest seed " + seed + " (-Dquiver.seed=" + seed + ")");
        for (boolean sparse : new boolean[] {true, false}) {
            World3 m = build(tmp.resolve(sparse ? "s2" : "d2"), sparse, seed);
            try (World w = m.w) {
                String what = "seed " + seed + (sparse ? ", sparse" : ", dense");
                int[] located = {0, 0};
                // fields 1 and 2 both have $y as their source: both located, alike
                Query.parse(w, "(Likes, $y), Pos($y), Tag($y)").forEach(r -> {
                    long y = r.variable("y");
                    assertSame(r.fieldTable(1), r.fieldTable(2), what);
                    assertEquals(r.fieldRow(1), r.fieldRow(2), what);
                    if (r.fieldTable(2) != null) {
                        located[0]++;
                        assertEquals(y, r.fieldTable(2).entity(r.fieldRow(2)), what);
                    }
                    assertEquals(x(m, y), r.column(1).member("x").getDouble(0), what);
                });
                // two variables: each located field reads its own
                Query.parse(w, "(Likes, $y), Pos($y), Pos($z), (Likes, $z)").forEach(r -> {
                    long y = r.variable("y"), z = r.variable("z");
                    for (int f = 1; f <= 2; f++) {
                        long src = f == 1 ? y : z;
                        assertEquals(src, r.fieldSource(f), what);
                        if (r.fieldTable(f) != null) {
                            located[1]++;
                            assertEquals(src, r.fieldTable(f).entity(r.fieldRow(f)), what);
                        } else {
                            assertEquals(-1, r.fieldRow(f), what);
                        }
                        assertEquals(x(m, src), r.column(f).member("x").getDouble(0), what);
                    }
                });
                if (sparse) {
                    assertTrue(located[0] > 20 && located[1] > 100, what + ": " + located[0] + ", " + located[1] + " located");
                }
            }
        }
    }

    @Test
    void sourcesWithoutALocatedTableAreLookedUpAndBadFieldsAreRefused() {
        World3 m = build(tmp.resolve("w"), true, 7);
        try (World w = m.w) {
            // a fixed source: no table located, the column is read through the entity index
            QueryRow fixed = Query.parse(w, "Pos(n3)").rows(-1).get(0);
            assertNull(fixed.fieldTable(0));
            assertEquals(-1, fixed.fieldRow(0));
            assertEquals(3.0, fixed.column(0).member("x").getDouble(0));
            // rows of a pull iteration carry no located sources; the column is looked up
            Query join = Query.parse(w, "(Likes, $y), Pos($y)");
            try (var s = join.stream()) {
                s.forEach(r -> {
                    assertNull(r.fieldTable(1));
                    assertEquals(x(m, r.variable("y")), r.column(1).member("x").getDouble(0));
                });
            }
            // a traversed source is another entity than the variable's: not located, looked up
            long child = w.entity("n3.kid");
            QueryRow up = Query.parse(w, "Pos(up), (ChildOf, n3)").rows(-1).get(0);
            assertEquals(child, up.thisEntity());
            assertEquals(m.e[3], up.fieldSource(0));
            assertNull(up.fieldTable(0));
            assertEquals(3.0, up.column(0).member("x").getDouble(0));
            // not set, a tag, a wildcard
            QueryRow opt = Query.parse(w, "(Likes, $y), ?Pos($y), Tag($y)").rows(-1).stream()
                .filter(r -> !r.fieldSet(1)).findFirst().orElseThrow();
            assertNull(opt.fieldTable(1));
            assertEquals(-1, opt.fieldRow(1));
            assertThrows(FieldValueException.class, () -> opt.column(1));
            assertThrows(FieldValueException.class, () -> opt.column(2)); // Tag carries no data
            QueryRow any = Query.parse(w, "(Likes, *)").rows(1).get(0);
            assertThrows(FieldValueException.class, () -> any.column(0));
            assertThrows(IndexOutOfBoundsException.class, () -> opt.fieldTable(3));
            assertThrows(IndexOutOfBoundsException.class, () -> opt.column(-1));
        }
    }
}
