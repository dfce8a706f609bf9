package dev.quiver.query.cache;

import dev.quiver.index.Ids;
import dev.quiver.query.Query;
import dev.quiver.query.QueryRow;
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
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
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
        "Val", "A, ?Val", "Val(up)", "(R, $x), Val($x)", "A || B, Val(self|up)",
    };

    /**
     * Grouped and ordered cached queries: {query, groupBy relationship or null, order key or
     * null, descending}. Their order is checked against keys worked out here from the world.
     */
    private static final String[][] ORDERED = {
        {"A", "R", null, ""}, {"Val", null, "Val.n", ""}, {"Val, B", "R", "Val.n", "desc"},
        {"A, ?Val", null, "Val.n", ""}, {"(R, $x), Val($x)", null, "Val.n($x)", ""},
        {"A, Val(up)", "R", "Val.n", "desc"}, {"Val(self|up)", null, "Val.n", ""}, {"B || C", "R", "id", "desc"},
        {"Transform(cascade), ?Val", null, "Val.n", ""}, {"Val, Val(t1)", null, "Val.n(t1)", ""},
    };

    @Test
    void cachedResultsEqualUncachedResultsUnderRandomMutations() {
        long seed = Long.getLong("quiver.seed", System.nanoTime());
        System.out.println("CachedQueryModelTest seed " + seed + " (reproduce with -Dquiver.seed=" + seed + ")");
        Random rnd = new Random(seed);
        World w = World.create(dir.resolve("w"));
        List<CachedQuery> cached = new ArrayList<>();
        try {
            List<Long> ents = new ArrayList<>();
            String[] ids = {"A", "B", "C", "Transform", "(R,t1)", "(R,t2)", "(R,t3)"};
            w.transaction(x -> {
                for (String n : new String[] {"A", "B", "C", "Transform", "R", "t1", "t2", "t3"}) {
                    w.entity(n);
                }
                w.component("Val", Schema.of("n", FieldType.I32));
                for (int i = 0; i < 12; i++) {
                    ents.add(w.entity("e" + i));
                }
                w.add(w.lookup("t1"), w.lookup("A"));
                w.set(w.lookup("t1"), w.lookup("Val"), Map.of("n", 7));
            });
            for (String q : QUERIES) {
                cached.add(CachedQuery.parse(w, q));
            }
            for (String[] o : ORDERED) {
                CachedQuery cq = CachedQuery.parse(w, o[0]);
                if (o[1] != null) {
                    cq = cq.groupBy(o[1]);
                }
                if (o[2] != null) {
                    cq = cq.orderBy(o[2], o[3].equals("desc"));
                }
                cached.add(cq);
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
            cached.forEach(CachedQuery::close);
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
        if (rnd.nextInt(4) == 0) { // a value: a new table the first time, a write to a column after
            w.set(e, w.lookup("Val"), Map.of("n", rnd.nextInt(5) - 2));
            return;
        }
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
        for (int i = 0; i < ORDERED.length; i++) {
            checkOrder(w, cached.get(QUERIES.length + i), ORDERED[i], where);
        }
        Set<Table> alive = Collections.newSetFromMap(new IdentityHashMap<>());
        alive.addAll(w.tableAccess().allTables());
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
                    assertTrue(in.contains(w.tableAccess().table(r.thisEntity())), where + ": " + cq + " lacks the table of "
                        + w.path(r.thisEntity()));
                }
            }
        }
    }

    /**
     * The rows of a grouped or ordered cached query come in (group, key) order, stable: the group
     * is the target of $this's first (R, *) pair (0 without one; groups ascending) or, for cascade,
     * the depth along ChildOf; the key is the id of $this or the member n of Val read on the
     * named field's source ($this's own or inherited value when no field names Val).
     */
    private static void checkOrder(World w, CachedQuery cq, String[] o, String where) {
        List<QueryRow> rows = cq.rows(-1);
        long val = w.lookup("Val");
        long[] prev = null;
        for (QueryRow r : rows) {
            long e = r.thisEntity();
            long group;
            if (o[1] != null) {
                long[] t = w.targets(e, w.lookup(o[1]));
                group = t.length == 0 ? 0 : t[0];
            } else if (o[0].contains("cascade")) {
                group = 0;
                for (long x = e; w.targets(x, Builtin.CHILD_OF).length > 0; x = w.targets(x, Builtin.CHILD_OF)[0]) {
                    group++;
                }
            } else {
                group = 0;
            }
            long key;
            if (o[2] == null) {
                key = 0;
            } else if (o[2].equals("id")) {
                key = e;
            } else {
                int f = -1;
                for (int i = 0; i < r.fieldCount() && f < 0; i++) {
                    String src = o[2].contains("(") ? o[2].substring(o[2].indexOf('(') + 1, o[2].length() - 1) : null;
                    long want = src == null ? 0 : src.equals("$x") ? r.variable("x") : w.lookup(src);
                    if (r.fieldSet(i) && r.fieldId(i) == val
                        && (src == null || r.fieldSource(i) == want)) {
                        f = i;
                    }
                }
                // an unset optional field reads nothing; a field set to another id neither
                long owner = f >= 0 ? r.fieldSource(f) : hasValField(cq) ? 0 : e;
                Map<String, Object> v = owner == 0 ? null : w.get(owner, val);
                key = v == null ? Long.MIN_VALUE : ((Number) v.get("n")).longValue();
            }
            long[] cur = {group, o[3].equals("desc") ? -key : key};
            if (key == Long.MIN_VALUE) {
                cur[1] = Long.MIN_VALUE; // a missing value sorts first either way (descending reverses it: last)
                if (o[3].equals("desc")) {
                    cur[1] = Long.MAX_VALUE;
                }
            }
            if (prev != null) {
                assertTrue(prev[0] < cur[0] || prev[0] == cur[0] && prev[1] <= cur[1],
                    where + ": " + cq + " out of order at " + w.path(e) + ": " + java.util.Arrays.toString(prev) + " then "
                    + java.util.Arrays.toString(cur));
            }
            prev = cur;
        }
    }

    private static boolean hasValField(CachedQuery cq) {
        return cq.text().contains("Val");
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

    /**
     * The rows an ordered query sorted inside a transaction that is then refused are not handed
     * out again: the next evaluation gives the order of the world as it is after the rollback.
     */
    @Test
    void anOrderSeenInsideARefusedTransactionIsNotKept() {
        World w = World.create(dir.resolve("r"));
        try {
            long[] val = new long[1];
            w.transaction(x -> {
                val[0] = w.component("Val", Schema.of("n", FieldType.I32));
                for (int i = 0; i < 3; i++) {
                    w.set(w.entity("e" + i), val[0], Map.of("n", 10 - i));
                }
            });
            try (CachedQuery ordered = CachedQuery.parse(w, "Val").orderBy("Val.n")) {
                List<String> before = paths(w, ordered.rows(-1));
                assertEquals(List.of("e2", "e1", "e0"), before);
                assertThrows(IllegalStateException.class, () -> w.transaction(x -> {
                    w.set(w.lookup("e2"), val[0], Map.of("n", 99));
                    assertEquals(List.of("e1", "e0", "e2"), paths(w, ordered.rows(-1)));
                    throw new IllegalStateException("refused");
                }));
                assertEquals(before, paths(w, ordered.rows(-1)));
            }
        } finally {
            w.close();
        }
    }

    @Test
    void anUnchangedWorldNeitherRescansNorMatchesNorSorts() {
        World w = World.create(dir.resolve("n"));
        try {
            long[] val = new long[1];
            w.transaction(x -> {
                val[0] = w.component("Val", Schema.of("n", FieldType.I32));
                for (int i = 0; i < 6; i++) {
                    long e = w.entity("e" + i);
                    w.add(e, w.ensureId(i % 2 == 0 ? "A" : "B"));
                    w.set(e, val[0], Map.of("n", 10 - i));
                }
            });
            try (CachedQuery plain = CachedQuery.parse(w, "Val");
                 CachedQuery ordered = CachedQuery.parse(w, "Val").orderBy("Val.n");
                 CachedQuery cascade = CachedQuery.parse(w, "Val(self|cascade)")) {
                List<String> first = paths(w, ordered.rows(-1));
                assertEquals(List.of("e5", "e4", "e3", "e2", "e1", "e0"), first);
                plain.rows(-1);
                cascade.rows(-1);
                long matches = plain.tableMatches();
                long sorts = ordered.sorts();
                long cascadeSorts = cascade.sorts();
                for (int k = 0; k < 5; k++) { // the same world: no scan, no match, no sort
                    assertEquals(6, plain.count());
                    assertEquals(first, paths(w, ordered.rows(-1)));
                    assertEquals(6, cascade.rows(-1).size());
                }
                assertEquals(1, plain.tableRescans());
                assertEquals(1, ordered.tableRescans());
                assertEquals(matches, plain.tableMatches(), "no table appeared: nothing matched");
                assertEquals(sorts, ordered.sorts(), "nothing changed: the sorted rows are reused");
                assertEquals(cascadeSorts, cascade.sorts(), "nothing changed: the depth order is reused");
                // a value changes: sorted again, no table event
                w.transaction(x -> w.set(w.lookup("e5"), val[0], Map.of("n", 99)));
                assertEquals(List.of("e4", "e3", "e2", "e1", "e0", "e5"), paths(w, ordered.rows(-1)));
                assertEquals(sorts + 1, ordered.sorts());
                assertEquals(matches, plain.tableMatches());
                // a new table: matched once, through the event, without a rescan
                w.transaction(x -> w.add(w.lookup("e0"), w.ensureId("C")));
                assertEquals(matches + 1, plain.tableMatches());
                assertEquals(6, plain.count());
                assertEquals(1, plain.tableRescans());
                // a move under a parent: the cascade order is worked out again
                w.transaction(x -> w.add(w.lookup("e0"), Ids.pair(Builtin.CHILD_OF, w.lookup("e1"))));
                assertEquals("e1.e0", w.path(cascade.rows(-1).get(5).thisEntity()));
                long after = cascade.sorts();
                assertTrue(after > cascadeSorts, "sorted again after the move");
                cascade.rows(-1);
                assertEquals(after, cascade.sorts(), "and not again until the next change");
                plain.close();
                plain.close(); // idempotent
                assertThrows(IllegalStateException.class, plain::count);
                w.transaction(x -> w.add(w.lookup("e2"), w.ensureId("D"))); // a table event after close: no listener left
                assertEquals(6, ordered.count());
            }
        } finally {
            w.close();
        }
    }

    @Test
    void aDroppedCachedQueryIsNotKeptByTheWorld() throws InterruptedException {
        World w = World.create(dir.resolve("g"));
        try {
            w.transaction(x -> w.add(w.entity("a"), w.ensureId("A")));
            java.lang.ref.WeakReference<TableCache> dropped = droppedCache(w);
            for (int i = 0; i < 200 && dropped.get() != null; i++) {
                System.gc();
                Thread.sleep(5);
            }
            assertNull(dropped.get(), "the world's table listeners hold a dropped cached query's tables");
            // the next table event finds the cache gone and unregisters its forwarder; a live query keeps working
            try (CachedQuery live = CachedQuery.parse(w, "A")) {
                assertEquals(1, live.count());
                w.transaction(x -> w.add(w.lookup("a"), w.ensureId("B")));
                assertEquals(1, live.count());
                assertEquals(List.of("a"), paths(w, live.rows(-1)));
            }
        } finally {
            w.close();
        }
    }

    private static java.lang.ref.WeakReference<TableCache> droppedCache(World w) {
        CachedQuery cq = CachedQuery.parse(w, "A");
        assertEquals(1, cq.count());
        return new java.lang.ref.WeakReference<>(cq.tableCache()); // cq is never closed
    }

    /**
     * An ordered cached query kept across many changes (values with ties, tables appearing, rows
     * moving and leaving) sorts from its last order after each change: its rows must stay exactly
     * the stable sort, by key, of its rows in walk order (what a sort from scratch gives), ties in
     * walk order. Seeded.
     */
    @Test
    void aResortAfterChangesGivesTheSortFromScratch() {
        long seed = Long.getLong("quiver.seed", System.nanoTime());
        System.out.println("CachedQueryModelTest resort seed " + seed + " (reproduce with -Dquiver.seed=" + seed + ")");
        Random rnd = new Random(seed);
        World w = World.create(dir.resolve("r"));
        try {
            long[] val = new long[1];
            List<Long> ents = new ArrayList<>();
            w.transaction(x -> {
                val[0] = w.component("Val", Schema.of("n", FieldType.I32));
                for (int i = 0; i < 300; i++) {
                    long e = w.entity("e" + i);
                    w.set(e, val[0], Map.of("n", rnd.nextInt(8)));
                    if (rnd.nextBoolean()) {
                        w.add(e, w.ensureId(rnd.nextBoolean() ? "A" : "B"));
                    }
                    ents.add(e);
                }
            });
            try (CachedQuery byN = CachedQuery.parse(w, "Val").orderBy("Val.n");
                 CachedQuery byNDesc = CachedQuery.parse(w, "Val, ?A").orderBy("Val.n", true);
                 CachedQuery byId = CachedQuery.parse(w, "Val").orderBy("id", true)) {
                for (int step = 0; step < 60; step++) {
                    int changes = 1 + rnd.nextInt(step % 5 == 0 ? 40 : 3);
                    int st = step;
                    w.transaction(x -> {
                        for (int c = 0; c < changes; c++) {
                            long e = ents.get(rnd.nextInt(ents.size()));
                            if (!w.isAlive(e)) {
                                continue;
                            }
                            switch (rnd.nextInt(6)) {
                                case 0 -> w.add(e, w.ensureId("A"));
                                case 1 -> w.remove(e, w.ensureId("A"));
                                case 2 -> w.add(e, w.ensureId(rnd.nextBoolean() ? "B" : "C"));
                                case 3 -> w.delete(e);
                                case 4 -> {
                                    long f = w.entity("f" + st + "_" + c);
                                    w.set(f, val[0], Map.of("n", rnd.nextInt(8)));
                                    ents.add(f);
                                }
                                default -> w.set(e, val[0], Map.of("n", rnd.nextInt(8)));
                            }
                        }
                    });
                    ents.removeIf(e -> e == 0 || !w.isAlive(e));
                    for (CachedQuery cq : List.of(byN, byNDesc, byId)) {
                        boolean id = cq == byId;
                        boolean desc = cq != byN;
                        List<QueryRow> walk = new ArrayList<>();
                        cq.query().forEachIn(cq.tables(), walk::add);
                        List<QueryRow> want = new ArrayList<>(walk);
                        java.util.Comparator<QueryRow> by = id ? java.util.Comparator.comparingLong(QueryRow::thisEntity)
                            : java.util.Comparator.comparingLong(r -> ((Number) w.get(r.thisEntity(), val[0]).get("n")).longValue());
                        want.sort(desc ? by.reversed() : by); // stable: ties in walk order
                        assertEquals(paths(w, want), paths(w, cq.rows(-1)), cq + " after step " + step + ", seed " + seed);
                    }
                }
            }
        } finally {
            w.close();
        }
    }

    private static List<String> paths(World w, List<QueryRow> rows) {
        return rows.stream().map(r -> w.path(r.thisEntity())).toList();
    }
}
