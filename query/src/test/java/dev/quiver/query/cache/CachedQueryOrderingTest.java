package dev.quiver.query.cache;

import dev.quiver.index.Ids;
import dev.quiver.query.Query;
import dev.quiver.query.QueryRow;
import dev.quiver.query.QueryValidationException;
import dev.quiver.query.UnknownQueryNameException;
import dev.quiver.query.UnsupportedQueryException;
import dev.quiver.query.builder.QueryBuilder;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;
import dev.quiver.storage.World;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * cascade / desc (QS-44, HIE-08), groupBy (QK-17) and orderBy (QK-14) on cached queries, each
 * with the same rows as the uncached query, and every bad ordering refused.
 */
class CachedQueryOrderingTest {
    @TempDir
    Path dir;
    World w;
    long position;
    long age;

    @BeforeEach
    void world() {
        w = World.create(dir.resolve("w"));
        w.transaction(x -> {
            position = w.component("Position", Schema.of("x", FieldType.F64, "y", FieldType.F64));
            age = w.component("Age", Schema.of("years", FieldType.I32, "name", FieldType.STRING));
            // a hierarchy, deepest entities created first so that evaluation order is not depth order
            for (String p : new String[] {"a.b.c.d", "a.b.c", "x.y.z", "a.b", "x.y", "a", "x", "a.b2", "a.b2.c2"}) {
                w.add(w.entity(p), w.ensureId("Transform"));
            }
            w.add(w.entity("loose"), w.ensureId("Transform"));
            for (String[] p : new String[][] {{"ann", "acme", "41"}, {"bo", "globex", "23"}, {"cy", "acme", "35"},
                {"di", null, "52"}, {"ed", "globex", "23"}}) {
                long e = w.entity(p[0]);
                w.add(e, w.ensureId("Person"));
                if (p[1] != null) {
                    w.add(e, Ids.pair(w.entity("WorksAt"), w.entity(p[1])));
                }
                w.set(e, age, Map.of("years", Integer.parseInt(p[2]), "name", p[0]));
                w.set(e, position, Map.of("x", (double) p[0].charAt(1), "y", 0.0));
            }
        });
    }

    @AfterEach
    void close() {
        w.close();
    }

    private List<String> paths(List<QueryRow> rows) {
        List<String> out = new ArrayList<>();
        for (QueryRow r : rows) {
            out.add(w.path(r.thisEntity()));
        }
        return out;
    }

    private int depth(long e) {
        int d = 0;
        for (long[] up = w.targets(e, Builtin.CHILD_OF); up.length > 0; up = w.targets(up[0], Builtin.CHILD_OF)) {
            d++;
        }
        return d;
    }

    private void sameRowsAsUncached(CachedQuery cq, String uncached) {
        assertEquals(CachedQueryModelTest.rows(w, Query.parse(w, uncached).rows(-1)), CachedQueryModelTest.rows(w, cq.rows(-1)),
            cq.toString());
        assertEquals(Query.parse(w, uncached).count(), cq.count());
    }

    @Test
    void cascadeOrdersParentsFirstAndDescDeepestFirst() {
        CachedQuery cq = CachedQuery.parse(w, "Transform, Transform(cascade)");
        assertEquals("Transform, Transform($this|cascade)", cq.canonicalText());
        sameRowsAsUncached(cq, "Transform, Transform(up)");
        List<Integer> depths = new ArrayList<>();
        for (QueryRow r : cq.rows(-1)) {
            depths.add(depth(r.thisEntity()));
        }
        List<Integer> sorted = new ArrayList<>(depths);
        sorted.sort(null);
        assertEquals(sorted, depths, "parents first: " + paths(cq.rows(-1)));
        assertEquals(List.of(1L, 2L, 3L), cq.groups());
        assertEquals(List.of("a.b.c.d"), paths(rowsOfGroup(cq, 3)));

        CachedQuery desc = CachedQuery.parse(w, "Transform, Transform(cascade ChildOf|desc)");
        sameRowsAsUncached(desc, "Transform, Transform(up ChildOf)");
        assertEquals("Transform, Transform($this|cascade ChildOf|desc)", desc.canonicalText(), "canonical text parses back");
        assertEquals(desc.canonicalText(), CachedQuery.parse(w, desc.canonicalText()).canonicalText());
        List<Integer> dd = new ArrayList<>();
        for (QueryRow r : desc.rows(-1)) {
            dd.add(depth(r.thisEntity()));
        }
        List<Integer> rev = new ArrayList<>(dd);
        rev.sort(java.util.Comparator.reverseOrder());
        assertEquals(rev, dd, "deepest first");
        assertEquals(List.of(3L, 2L, 1L), desc.groups());

        // self|cascade matches like self|up: the roots too, at depth 0
        CachedQuery self = CachedQuery.parse(w, "Transform(self|cascade)");
        sameRowsAsUncached(self, "Transform(self|up)");
        assertEquals(0, depth(self.rows(-1).get(0).thisEntity()));
        // the builder's cascade goes the same way
        CachedQuery built = CachedQuery.of(w, new QueryBuilder().with("Transform").with("Transform").cascade().ast());
        assertEquals(paths(cq.rows(-1)), paths(built.rows(-1)));
    }

    @Test
    void cascadeFollowsMovesBetweenEvaluations() {
        CachedQuery cq = CachedQuery.parse(w, "Transform(self|cascade)");
        w.transaction(x -> w.add(w.lookup("x"), Ids.pair(Builtin.CHILD_OF, w.lookup("a.b.c.d"))));
        List<QueryRow> rows = cq.rows(-1);
        assertEquals("a.b.c.d.x.y.z", w.path(rows.get(rows.size() - 1).thisEntity()), "z is now the deepest");
        sameRowsAsUncached(cq, "Transform(self|up)");
    }

    @Test
    void uncachedQueriesStillRefuseCascade() {
        assertThrows(QueryValidationException.class, () -> Query.parse(w, "Transform, Transform(cascade)"));
        assertThrows(QueryValidationException.class, () -> CachedQuery.parse(w, "Transform, Transform(desc)"));
        QueryValidationException two = assertThrows(QueryValidationException.class,
            () -> CachedQuery.parse(w, "Transform(cascade), Person(cascade)"));
        assertTrue(two.getMessage().contains("one cascade term"), two.getMessage());
        assertThrows(UnsupportedQueryException.class, () -> CachedQuery.parse(w, "Person, Transform($x|cascade)"));
        assertThrows(QueryValidationException.class, () -> CachedQuery.parse(w, "Transform(cascade WorksAt)"),
            "WorksAt is not Traversable");
        assertThrows(UnknownQueryNameException.class, () -> CachedQuery.parse(w, "Transform(cascade Nope)"));
        w.transaction(x -> w.add(w.lookup("WorksAt"), Builtin.TRAVERSABLE));
        CachedQuery works = CachedQuery.parse(w, "Person, Person(cascade WorksAt)");
        assertEquals(0, works.count(), "no company is a Person");
    }

    @Test
    void groupByTargetInAscendingGroupOrder() {
        long acme = w.lookup("acme");
        long globex = w.lookup("globex");
        CachedQuery cq = CachedQuery.parse(w, "Person").groupBy("WorksAt");
        sameRowsAsUncached(cq, "Person");
        List<Long> expected = new ArrayList<>(List.of(0L, acme, globex));
        expected.sort(null);
        assertEquals(expected, cq.groups());
        List<Long> seen = new ArrayList<>();
        for (QueryRow r : cq.rows(-1)) {
            long[] t = w.targets(r.thisEntity(), w.lookup("WorksAt"));
            long g = t.length == 0 ? 0 : t[0];
            if (seen.isEmpty() || seen.get(seen.size() - 1) != g) {
                seen.add(g);
            }
        }
        assertEquals(expected, seen, "one run per group, in group order");
        assertEquals(List.of("ann", "cy"), sortedPaths(rowsOfGroup(cq, acme)));
        assertEquals(List.of("di"), paths(rowsOfGroup(cq, 0)));
        assertEquals(List.of(), rowsOfGroup(cq, w.lookup("Person")));
    }

    @Test
    void orderByMemberOrIdWithinGroups() {
        CachedQuery byYears = CachedQuery.parse(w, "Person, Age").orderBy("Age.years");
        sameRowsAsUncached(byYears, "Person, Age");
        List<String> p = paths(byYears.rows(-1));
        assertEquals(List.of("cy", "ann", "di"), p.subList(2, 5));
        assertTrue(p.subList(0, 2).containsAll(List.of("bo", "ed")));
        assertEquals(List.of("di", "ann", "cy"), paths(CachedQuery.parse(w, "Person").orderBy("Age.years", true)
            .rows(3)));
        assertEquals(List.of("ann", "bo", "cy", "di", "ed"), paths(CachedQuery.parse(w, "Person").orderBy("Age.name").rows(-1)));
        assertEquals(List.of("ed", "di", "ann", "bo", "cy"),
            paths(CachedQuery.parse(w, "Person").orderBy("Position.x").rows(-1)));
        List<QueryRow> byId = CachedQuery.parse(w, "Transform").orderBy("id", true).rows(-1);
        for (int i = 1; i < byId.size(); i++) {
            assertTrue(byId.get(i - 1).thisEntity() > byId.get(i).thisEntity());
        }
        CachedQuery grouped = CachedQuery.parse(w, "Person").groupBy("WorksAt").orderBy("Age.years", true);
        List<String> g = paths(grouped.rows(-1));
        sameRowsAsUncached(grouped, "Person");
        long acme = w.lookup("acme");
        assertEquals(List.of("ann", "cy"), paths(rowsOfGroup(grouped, acme)), "oldest first within the group");
        assertEquals(5, g.size());
        // entities without the component sort first
        assertEquals("a", w.path(CachedQuery.parse(w, "Transform").orderBy("Age.years").rows(1).get(0).thisEntity()).substring(0, 1));
    }

    /**
     * orderBy reads the value on the source of the field that queries the component: a variable
     * (the employer's revenue), a fixed entity, the parent found by up, the IsA base of an
     * inherited value; {@code Comp.member(src)} picks among several fields of one component.
     */
    @Test
    void orderByAFieldOfAnySource() {
        long[] ids = new long[2];
        w.transaction(x -> {
            ids[0] = w.component("Revenue", Schema.of("amount", FieldType.I64));
            w.set(w.lookup("acme"), ids[0], Map.of("amount", 10L));
            w.set(w.lookup("globex"), ids[0], Map.of("amount", 5L));
            w.set(w.lookup("acme"), age, Map.of("years", 1, "name", "acme"));
            w.set(w.lookup("globex"), age, Map.of("years", 2, "name", "globex"));
            ids[1] = w.component("Rank", Schema.of("r", FieldType.I32));
            w.add(ids[1], Ids.pair(Builtin.ON_INSTANTIATE, Builtin.INHERIT));
            long elder = w.entity("Elder");
            w.add(elder, Builtin.PREFAB);
            w.set(elder, ids[1], Map.of("r", 9));
            long old = w.entity("old");
            w.add(old, w.lookup("Person"));
            w.add(old, Ids.pair(Builtin.IS_A, elder));
            for (String p : new String[] {"ann", "bo", "cy", "di", "ed"}) {
                w.set(w.lookup(p), ids[1], Map.of("r", p.charAt(0) - 'a'));
            }
            w.add(w.entity("ann.kid"), w.lookup("Person"));
        });
        // a variable source: employees by their employer's revenue, globex (5) before acme (10)
        String q = "Person, (WorksAt, $c), Revenue($c)";
        CachedQuery byEmployer = CachedQuery.parse(w, q).orderBy("Revenue.amount");
        sameRowsAsUncached(byEmployer, q);
        List<String> p = paths(byEmployer.rows(-1));
        assertEquals(List.of("bo", "ed"), sortedPaths(byEmployer.rows(-1).subList(0, 2)), p.toString());
        assertEquals(List.of("ann", "cy"), sortedPaths(byEmployer.rows(-1).subList(2, 4)), p.toString());
        assertEquals("acme", w.path(CachedQuery.parse(w, q).orderBy("Revenue.amount", true).rows(1).get(0).variable("c")));
        // two fields of Age: $this's (the first) or the employer's, chosen by source
        String two = "Person, Age, (WorksAt, $c), Age($c)";
        assertEquals(4, orderedByOwnAge(CachedQuery.parse(w, two).orderBy("Age.years")).size());
        assertEquals(orderedByOwnAge(CachedQuery.parse(w, two).orderBy("Age.years($this)")),
            orderedByOwnAge(CachedQuery.parse(w, two).orderBy("Age.years")));
        List<QueryRow> byEmployerAge = CachedQuery.parse(w, two).orderBy("Age.years($c)", true).rows(-1);
        assertEquals(List.of("globex", "globex", "acme", "acme"),
            byEmployerAge.stream().map(r -> w.path(r.variable("c"))).toList());
        // a fixed source: every row has the same key, the evaluation order stays (stable)
        CachedQuery fixed = CachedQuery.parse(w, "Person, Age(globex)").orderBy("Age.years(globex)");
        sameRowsAsUncached(fixed, "Person, Age(globex)");
        // up: the kid sorts by its parent's Rank (ann, 0), inherited: old by Elder's (9)
        CachedQuery up = CachedQuery.parse(w, "Person, Rank(up)").orderBy("Rank.r");
        assertEquals(List.of("ann.kid"), paths(up.rows(-1)));
        CachedQuery inherited = CachedQuery.parse(w, "Person, Rank").orderBy("Rank.r", true);
        sameRowsAsUncached(inherited, "Person, Rank");
        List<QueryRow> ranks = inherited.rows(-1);
        assertEquals("old", w.path(ranks.get(0).thisEntity()));
        assertEquals(w.lookup("Elder"), ranks.get(0).fieldSource(1), "the value is the base's");
        assertEquals(List.of("old", "ed", "di", "cy", "bo", "ann"), paths(ranks));
        CachedQuery selfUp = CachedQuery.parse(w, "Person, Rank(self|up)").orderBy("Rank.r");
        List<String> su = paths(selfUp.rows(-1)); // ann and her kid tie at 0
        assertEquals(List.of("ann", "ann.kid"), sortedPaths(selfUp.rows(-1).subList(0, 2)), su.toString());
        assertEquals(List.of("bo", "cy", "di", "ed"), su.subList(2, su.size()));
    }

    private List<String> orderedByOwnAge(CachedQuery cq) {
        List<String> out = new ArrayList<>();
        int last = Integer.MIN_VALUE;
        for (QueryRow r : cq.rows(-1)) {
            int y = ((Number) w.get(r.thisEntity(), age).get("years")).intValue();
            assertTrue(y >= last, cq + " out of order at " + w.path(r.thisEntity()));
            last = y;
            out.add(w.path(r.thisEntity()));
        }
        return out;
    }

    @Test
    void orderingByAFieldWithoutAValueIsRefused() {
        bad(() -> CachedQuery.parse(w, "Person, !Age").orderBy("Age.years"), "a Not term's field");
        bad(() -> CachedQuery.parse(w, "Person, Age").orderBy("Age.years($nope)"), "on source '$nope'");
        bad(() -> CachedQuery.parse(w, "Person, Age").orderBy("Age.years(bo)"), "on source 'bo'");
        bad(() -> CachedQuery.parse(w, "Person, Age").orderBy("Age.years()"), "empty source");
        w.transaction(x -> {
            w.add(w.entity("Kit"), Builtin.PREFAB);
            w.add(w.lookup("Kit"), w.lookup("Person"));
        });
        // Kit is not Age: no *From field names Age here, the key reads $this's own
        assertEquals(5, CachedQuery.parse(w, "and | Kit").orderBy("Age.years").count());
    }

    @Test
    void badOrderingsAreRefused() {
        CachedQuery cq = CachedQuery.parse(w, "Person");
        bad(() -> cq.orderBy("Nope.x"), "unknown component 'Nope'");
        bad(() -> cq.orderBy("Age.months"), "no member 'months'");
        bad(() -> cq.orderBy("Person.x"), "has no members");
        bad(() -> cq.orderBy("Age"), "neither 'id' nor");
        bad(() -> cq.orderBy("Age."), "neither 'id' nor");
        bad(() -> cq.orderBy(" "), "empty order key");
        bad(() -> cq.orderBy(null), "empty order key");
        bad(() -> cq.groupBy("Nope"), "unknown relationship");
        bad(() -> cq.groupBy(null), "unknown relationship");
        bad(() -> CachedQuery.parse(w, "Transform(self|cascade)").groupBy("WorksAt"), "one grouping");
        bad(() -> CachedQuery.parse(w, "Person(ann)").orderBy("id"), "no $this");
        bad(() -> CachedQuery.parse(w, "Person(ann)").groupBy("WorksAt"), "no $this");
        bad(() -> cq.forEachInGroup(0, r -> { }), "not grouped");
    }

    private List<QueryRow> rowsOfGroup(CachedQuery cq, long group) {
        List<QueryRow> out = new ArrayList<>();
        cq.forEachInGroup(group, out::add);
        return out;
    }

    private List<String> sortedPaths(List<QueryRow> rows) {
        List<String> p = paths(rows);
        p.sort(null);
        return p;
    }

    private static void bad(org.junit.jupiter.api.function.Executable use, String words) {
        QueryOrderingException e = assertThrows(QueryOrderingException.class, use);
        assertTrue(e.getMessage().contains(words), e.getMessage());
    }
}
