package dev.quiver.query;

import dev.quiver.query.builder.QueryBuilder;
import dev.quiver.query.cache.CachedQuery;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code $this} set before evaluation ({@code Query.set("this", e)}, Flecs v4
 * {@code ecs_iter_set_var(it, 0, e)}, issue 10): the results are exactly the unset query's results
 * whose {@code $this} is e, over pairs, wildcards, transitive terms, up traversal, optional, not,
 * or, variables, inherited components, prefabs (left out as by the unset query), disabled and
 * builtin entities; count, table-at-a-time iteration (one table, one row per step), the cached
 * query and the builder agree; the plan looks the entity up instead of walking tables.
 */
class ThisPresetTest extends QueryTestSupport {
    private static final List<String> QUERIES = List.of(
        "City", "(LocatedIn, *)", "(*, *)", "*", "(*, california)", "LocatedIn($this, $y)", "(LocatedIn, earth)",
        "(LocatedIn, $y), Country($y)", "Tag(up)", "Tag(self|up)", "Tag(up ChildOf), City", "?City, (Likes, *)",
        "!City, (LocatedIn, *)", "City || Country", "Likes($this, $p), LivesIn($p, $c)", "LivesIn($p, $this)",
        "Speed", "Speed, Prefab", "Speed(self)", "(IsA, Monster)", "!City", "?City", "$this == sf, (LocatedIn, *)",
        "City, $this != sf", "Disabled", "City, !{ Likes($this, $x), City($x) }", "(ChildOf, $p)", "(Likes, $this)",
        "Speed, ?Tag(up)", "Prefab");

    private void world() {
        transitive("LocatedIn");
        with("sf", "(LocatedIn, california)", "City");
        with("la", "(LocatedIn, california)", "City", "Tag");
        with("california", "(LocatedIn, usa)", "Tag");
        with("usa", "(LocatedIn, earth)", "Country");
        with("paris", "(LocatedIn, france)", "City");
        with("france", "(LocatedIn, earth)", "Country");
        with("alice", "(Likes, bob)", "(Likes, sf)", "(LivesIn, sf)");
        with("bob", "(Likes, alice)", "(LivesIn, paris)");
        with("california.district", "City");
        with("california.district.block");
        long speed = w.component("Speed", Schema.of("value", FieldType.F32));
        w.add(speed, w.pair(Builtin.ON_INSTANTIATE, w.resolve("Inherit")));
        w.add(e("Monster"), Builtin.PREFAB);
        w.set(e("Monster"), speed, Map.of("value", 5.0));
        w.add(e("orc"), w.pair(Builtin.IS_A, e("Monster")));
        w.add(e("bat"), w.pair(Builtin.IS_A, e("Monster")));
        w.set(e("bat"), speed, Map.of("value", 12.0));
        with("sleeper", "City", "(LocatedIn, france)");
        w.add(e("sleeper"), Builtin.DISABLED);
    }

    private List<Long> entities() {
        List<Long> out = new ArrayList<>();
        for (String n : List.of("sf", "la", "california", "usa", "earth", "paris", "france", "alice", "bob",
            "california.district", "california.district.block", "Monster", "orc", "bat", "sleeper", "LocatedIn",
            "Speed")) {
            out.add(w.resolve(n));
        }
        out.add(Builtin.CHILD_OF);
        return out;
    }

    private List<String> formatted(Query q, List<QueryRow> rows) {
        List<String> out = new ArrayList<>();
        for (QueryRow r : rows) {
            out.add(format(q, r));
        }
        Collections.sort(out);
        return out;
    }

    @Test
    void setThisGivesExactlyTheRowsOfThatEntity() {
        world();
        int checked = 0, nonEmpty = 0;
        for (String text : QUERIES) {
            Query q = Query.parse(w, text);
            List<QueryRow> all = q.rows(-1);
            for (long e : entities()) {
                String what = text + " with $this = " + name(e);
                List<QueryRow> want = new ArrayList<>();
                for (QueryRow r : all) {
                    if (r.thisEntity() == e) {
                        want.add(r);
                    }
                }
                Query set = q.set("this", e);
                assertEquals(formatted(q, want), formatted(set, set.rows(-1)), what);
                assertEquals(want.size(), set.count(), "count() of " + what);
                IterationCheck.check(set);
                int[] steps = {0};
                set.forEachTable(t -> {
                    steps[0]++;
                    assertEquals(1, t.count(), "one row per step: " + what);
                    assertEquals(e, t.entity(0), what);
                    assertNotNull(t.table(), "the entity's table: " + what);
                    assertEquals(w.tableAccess().table(e), t.table(), what);
                    return true;
                });
                assertEquals(want.size(), steps[0], "forEachTable steps of " + what);
                try (CachedQuery unset = CachedQuery.parse(w, text); CachedQuery cq = unset.set("$this", e)) {
                    assertEquals(formatted(q, want), formatted(q, cq.rows(-1)), "cached: " + what);
                    assertEquals(want.size(), cq.count(), "cached count() of " + what);
                }
                checked++;
                nonEmpty += want.isEmpty() ? 0 : 1;
            }
        }
        assertTrue(nonEmpty > 60 && nonEmpty < checked / 2, nonEmpty + " non-empty of " + checked);
    }

    @Test
    void prefabsDisabledAndBuiltinsFollowTheUnsetQuery() {
        world();
        long monster = e("Monster");
        assertEquals(0, Query.parse(w, "Speed").set("this", monster).count(), "a prefab is left out (QS-47)");
        assertEquals(0, Query.parse(w, "!City").set("this", monster).count(), "also by EACH");
        assertEquals(list("Monster | - | Speed Prefab"), rowsOf(Query.parse(w, "Speed, Prefab").set("this", monster)));
        assertEquals(list("orc | - | Speed@Monster"), rowsOf(Query.parse(w, "Speed").set("this", e("orc"))),
            "an inherited component");
        assertEquals(list("bat | - | Speed"), rowsOf(Query.parse(w, "Speed").set("this", e("bat"))));
        assertEquals(0, Query.parse(w, "City").set("this", e("sleeper")).count(), "a disabled entity is left out");
        assertEquals(1, Query.parse(w, "City, Disabled").set("this", e("sleeper")).count());
        assertEquals(0, Query.parse(w, "!City").set("this", Builtin.CHILD_OF).count(), "EACH leaves builtins out");
        assertEquals(1, Query.parse(w, "LivesIn($p, $this)").set("this", e("paris")).count());
    }

    private List<String> rowsOf(Query q) {
        return formatted(q, q.rows(-1));
    }

    @Test
    void thePlanLooksTheEntityUp() {
        world();
        long sf = e("sf");
        assertEquals("0: THIS_SET $this\n1: WITH City($this) field=0\n2: WITH (Likes,$p)($this) field=1 binds=$p\n",
            Query.parse(w, "City, (Likes, $p)").set("this", sf).plan());
        assertEquals("0: EACH $this set\n1: NOT field=0\n     WITH City($this)\n",
            Query.parse(w, "!City").set("this", sf).plan());
        assertEquals("0: THIS_SET $this\n1: TRANS_UP (LocatedIn,$y)($this) field=0 binds=$y\n",
            Query.parse(w, "LocatedIn($this, $y)").set("this", sf).plan());
        assertEquals(list("sf | $y=california | (LocatedIn,california)", "sf | $y=earth | (LocatedIn,earth)",
            "sf | $y=usa | (LocatedIn,usa)"), rowsOf(Query.parse(w, "LocatedIn($this, $y)").set("this", sf)));
    }

    @Test
    void builderQueriesAndReplacedValues() {
        world();
        Query built = new QueryBuilder().with("City").build(w);
        assertEquals(list("la | - | City"), rowsOf(built.set("this", e("la"))));
        Query paris = built.set("this", e("sf")).set("$this", e("paris"));
        assertEquals(list("paris | - | City"), rowsOf(paris), "setting $this again replaces its value");
        Query both = Query.parse(w, "Likes($this, $p), LivesIn($p, $c)").set("p", e("bob")).set("this", e("alice"));
        assertEquals(list("alice | $c=paris $p=bob | (Likes,bob) (LivesIn,paris)@bob"), rowsOf(both));
        long gone = with("gone", "City");
        Query q = Query.parse(w, "City").set("this", gone);
        w.delete(gone);
        assertEquals(0, q.count(), "an entity deleted after set has no results");
        assertEquals(List.of(), q.rows(-1));
    }

    @Test
    void setThisIsRefusedWithoutThis() {
        world();
        var ex = assertThrows(QueryVariableException.class, () -> Query.parse(w, "LocatedIn(sf, $y)").set("this", e("sf")));
        assertTrue(ex.getMessage().contains("no $this to set"), ex.getMessage());
        assertEquals("this", ex.variable());
        assertThrows(QueryVariableException.class, () -> Query.parse(w, "City(sf)").set("$this", e("sf")));
        try (CachedQuery cq = CachedQuery.parse(w, "City, LocatedIn(sf, $y)")) {
            assertThrows(QueryVariableException.class, () -> cq.set("z", e("sf")));
        }
    }

    @Test
    void aPredicateMayReadSetVariablesBeforeATermBindsThem() {
        world();
        long sf = e("sf"), la = e("la");
        var ex = assertThrows(QuerySyntaxException.class, () -> Query.parse(w, "$this != sf, City"));
        assertTrue(ex.getMessage().contains("before a term binds it"), ex.getMessage());
        assertThrows(QuerySyntaxException.class, () -> Query.parse(w, "$this != sf, City", Map.of("p", sf)),
            "a set variable other than the one read does not help");
        assertEquals(list("la | - | - City"), rowsOf(Query.parse(w, "$this != sf, City", Map.of("this", la))),
            "the predicate's field is not set");
        assertEquals(list(), rowsOf(Query.parse(w, "$this != sf, City", Map.of("$this", sf))));
        assertEquals(0, Query.parse(w, "$this != sf, City", Map.of("this", sf)).count());
        assertEquals(1, Query.parse(w, "$this != sf, City", Map.of("this", la)).count());
        assertEquals(0, Query.parse(w, "$this != sf, City", Map.of("this", e("california"))).count(), "not a City");
        for (long e : entities()) {
            Query set = Query.parse(w, "$this != sf, City", Map.of("this", e));
            assertEquals(Query.parse(w, "City, $this != sf").set("this", e).count(), set.count(), name(e));
            assertEquals(e != sf && Query.parse(w, "City").set("this", e).count() == 1 ? list(name(e) + " | - | - City") : list(), rowsOf(set), name(e));
            IterationCheck.check(set);
            try (CachedQuery cq = CachedQuery.parse(w, "$this != sf, City", Map.of("this", e))) {
                assertEquals(rowsOf(set), formatted(set, cq.rows(-1)), "cached: " + name(e));
            }
        }
        Query named = Query.parse(w, "$p != bob, Likes($this, $p)", Map.of("p", sf));
        assertEquals(list("alice | $p=sf | - (Likes,sf)"), rowsOf(named));
        assertEquals(list(), rowsOf(Query.parse(w, "$p != bob, Likes($this, $p)", Map.of("p", e("bob")))));
        assertEquals(rowsOf(named), rowsOf(Query.parse(w, "$p != bob, Likes($this, $p)", Map.of("p", la)).set("p", sf)),
            "set replaces a value given at parse");
        assertThrows(QueryVariableException.class, () -> Query.parse(w, "City, $this != sf", Map.of("z", sf)));
        long gone = with("gone", "City");
        w.delete(gone);
        assertThrows(QueryVariableException.class, () -> Query.parse(w, "$this != sf, City", Map.of("this", gone)));
    }
}
