package dev.quiver.query.cache;

import dev.quiver.index.Ids;
import dev.quiver.query.Query;
import dev.quiver.query.QueryRow;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.World;
import dev.quiver.storage.table.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Cached queries against the same queries uncached over random mutations (entities created and
 * deleted, tags and pairs added and removed, reparenting, refused transactions that roll back):
 * after every step the cached rows equal the uncached rows as a multiset, the counts agree, every
 * table holding a result is in the cache and every cached table still exists. Seed printed;
 * reproduce with {@code -Dquiver.seed=N}.
 */
class CachedQueryModelTest {
    @TempDir
    Path dir;

    private static final String[] QUERIES = {
        "A", "A, B", "A, !B", "(R, *)", "(R, t1)", "(R, $x), A($x)", "A, ?B", "A || B", "C, A || B",
        "A(up)", "B, A(self|up)", "A, !{(R, $x), B($x)}", "(R, _)", "!A, B", "$x(t1), A", "A, (R, $x), !C($x)",
        "C, !(R, t2)", "(ChildOf, $p), B($p)", "A, $this != e3", "A, B(up), !C", "?A", "(R, t1|self), !A",
        "A, [in] B, [none] ?C", "$C, (R, t2)", "*(t1)", "A, Transform(cascade)", "Transform(cascade|desc), B",
    };

    @Test
    void cachedResultsEqualUncachedResultsUnderRandomMutations() {
        long seed = Long.getLong("quiver.seed", System.nanoTime());
        System.out.println("CachedQueryModelTest seed " + seed + " (reproduce with -Dquiver.seed=" + seed + ")");
        Random rnd = new Random(seed);
        World w = World.create(dir.resolve("w"));
        try {
            List<Long> ents = new ArrayList<>();
            String[] ids = {"A", "B", "C", "Transform", "(R,t1)", "(R,t2)", "(R,t3)"};
            w.transaction(x -> {
                for (String n : new String[] {"A", "B", "C", "Transform", "R", "t1", "t2", "t3"}) {
                    w.entity(n);
                }
                for (int i = 0; i < 12; i++) {
                    ents.add(w.entity("e" + i));
                }
                w.add(w.lookup("t1"), w.lookup("A"));
            });
            List<CachedQuery> cached = new ArrayList<>();
            for (String q : QUERIES) {
                cached.add(CachedQuery.parse(w, q));
            }
            for (int step = 0; step < 120; step++) {
                int batch = 1 + rnd.nextInt(6);
                boolean refuse = rnd.nextInt(10) == 0;
                final int s = step;
                try {
                    w.transaction(x -> {
                        for (int k = 0; k < batch; k++) {
                            mutate(w, rnd, ents, ids);
                        }
                        if (s % 7 == 0) {
                            check(w, cached, "seed " + seed + " step " + s + " (inside the transaction)");
                        }
                        if (refuse) {
                            throw new IllegalStateException("refused on purpose");
                        }
                    });
                } catch (IllegalStateException expected) {
                    assertEquals("refused on purpose", expected.getMessage());
                    ents.removeIf(e -> !w.isAlive(e));
                }
                check(w, cached, "seed " + seed + " step " + step);
            }
        } finally {
            w.close();
        }
    }

    private static void mutate(World w, Random rnd, List<Long> ents, String[] ids) {
        int op = rnd.nextInt(10);
        if (ents.isEmpty() || op == 0) {
            ents.add(w.entity());
            return;
        }
        long e = ents.get(rnd.nextInt(ents.size()));
        switch (op) {
            case 1:
                if (ents.size() > 4) {
                    w.delete(e);
                    ents.removeIf(x -> !w.isAlive(x));
                }
                break;
            case 2: {
                long p = ents.get(rnd.nextInt(ents.size()));
                if (p != e && !isAncestor(w, e, p)) {
                    w.add(e, Ids.pair(Builtin.CHILD_OF, p));
                }
                break;
            }
            case 3:
                for (long p : w.targets(e, Builtin.CHILD_OF)) {
                    w.remove(e, Ids.pair(Builtin.CHILD_OF, p));
                }
                break;
            case 4:
            case 5:
            case 6:
                w.add(e, w.ensureId(ids[rnd.nextInt(ids.length)]));
                break;
            default:
                long id = w.ensureId(ids[rnd.nextInt(ids.length)]);
                if (w.has(e, id)) {
                    w.remove(e, id);
                }
        }
    }

    /** True when {@code a} is {@code p} or an ancestor of {@code p} along ChildOf (no cycles). */
    private static boolean isAncestor(World w, long a, long p) {
        for (long x = p; x != 0; ) {
            if (x == a) {
                return true;
            }
            long[] up = w.targets(x, Builtin.CHILD_OF);
            x = up.length == 0 ? 0 : up[0];
        }
        return false;
    }

    private static void check(World w, List<CachedQuery> cached, String where) {
        Set<Table> alive = Collections.newSetFromMap(new IdentityHashMap<>());
        alive.addAll(w.allTables());
        for (CachedQuery cq : cached) {
            Query plain = cq.query();
            List<String> expected = rows(w, plain.rows(-1));
            List<String> got = rows(w, cq.rows(-1));
            assertEquals(expected, got, where + ": " + cq);
            assertEquals(expected.size(), cq.count(), where + ": count of " + cq);
            Set<Table> in = Collections.newSetFromMap(new IdentityHashMap<>());
            in.addAll(cq.tables());
            for (Table t : cq.tables()) {
                assertTrue(alive.contains(t), where + ": " + cq + " keeps a table that no longer exists: " + t);
            }
            if (plain.hasThis()) {
                for (QueryRow r : plain.rows(-1)) {
                    assertTrue(in.contains(w.table(r.thisEntity())), where + ": " + cq + " lacks the table of "
                        + w.path(r.thisEntity()));
                }
            }
        }
    }

    /** Rows as sorted text: $this, variables, fields. */
    static List<String> rows(World w, List<QueryRow> rows) {
        List<String> out = new ArrayList<>();
        for (QueryRow r : rows) {
            StringBuilder sb = new StringBuilder().append(r.thisEntity());
            for (int f = 0; f < r.fieldCount(); f++) {
                sb.append(" | ").append(r.fieldSet(f) ? r.fieldId(f) + "@" + r.fieldSource(f) : "-");
            }
            out.add(sb.toString());
        }
        Collections.sort(out);
        return out;
    }

    @Test
    void upkeepMatchesOnlyNewTables() {
        World w = World.create(dir.resolve("u"));
        try {
            w.transaction(x -> {
                w.add(w.entity("a"), w.ensureId("A"));
                w.add(w.entity("b"), w.ensureId("B"));
            });
            CachedQuery cq = CachedQuery.parse(w, "A");
            assertEquals(1, cq.count());
            long matched = cq.tableMatches();
            assertTrue(matched > 0);
            w.transaction(x -> w.add(w.entity("c"), w.ensureId("A"))); // same table as a
            assertEquals(2, cq.count());
            assertEquals(matched, cq.tableMatches(), "no new table, no match");
            w.transaction(x -> w.add(w.lookup("c"), w.ensureId("C"))); // one new table {A, C}
            assertEquals(2, cq.count());
            assertEquals(matched + 1, cq.tableMatches(), "only the new table is matched");
            assertEquals(2, cq.tables().stream().filter(t -> t.count() > 0).count());
            w.transaction(x -> w.delete(w.lookup("c")));
            assertEquals(1, cq.count());
            assertThrows(IllegalStateException.class, () -> w.transaction(x -> {
                w.add(w.entity("d"), w.ensureId("A"));
                w.add(w.lookup("d"), w.ensureId("D"));
                assertEquals(2, cq.count(), "sees the open transaction's new table");
                throw new IllegalStateException("refused");
            }));
            assertEquals(1, cq.count(), "the rolled back table is gone from the cache");
            assertEquals(List.of("a"), cq.rows(-1).stream().map(r -> w.path(r.thisEntity())).toList());
        } finally {
            w.close();
        }
    }
}
