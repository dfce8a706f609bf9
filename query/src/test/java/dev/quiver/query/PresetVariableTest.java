package dev.quiver.query;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Variables set before evaluation ({@link Query#set}, issue 10): every result has the variable at
 * the set entity, and the answers are exactly the unset query's answers with that value, for
 * every entity and every variable of a set of queries covering pairs, transitive walks in both
 * directions, variables as relationship, Not and Optional.
 */
class PresetVariableTest extends QueryTestSupport {
    private void world() {
        transitive("LocatedIn");
        with("sf", "(LocatedIn, california)", "City");
        with("la", "(LocatedIn, california)", "City");
        with("california", "(LocatedIn, usa)");
        with("usa", "(LocatedIn, earth)");
        with("paris", "(LocatedIn, france)", "City");
        with("france", "(LocatedIn, earth)");
        with("alice", "(Likes, bob)", "(Likes, sf)", "(LivesIn, sf)");
        with("bob", "(Likes, alice)", "(LivesIn, paris)");
    }

    /** Rows of {@code q} (formatted) whose variable {@code var} is {@code value}. */
    private List<String> filtered(Query q, String var, long value) {
        List<String> out = new ArrayList<>();
        for (QueryRow r : q.rows(-1)) {
            if (r.variable(var) == value) {
                out.add(format(q, r));
            }
        }
        Collections.sort(out);
        return out;
    }

    private List<String> rowsOf(Query q) {
        List<String> out = new ArrayList<>();
        for (QueryRow r : q.rows(-1)) {
            out.add(format(q, r));
        }
        Collections.sort(out);
        assertEquals(out.size(), q.count(), "count() of " + q + " with preset");
        return out;
    }

    @Test
    void aSetVariableGivesExactlyTheAnswersWithThatValue() {
        world();
        List<String> queries = List.of("LocatedIn($x, $y)", "(LocatedIn, $y)", "LocatedIn($x, earth)",
            "Likes($x, $y), LivesIn($y, $c)", "$r(alice, $t)", "City, LivesIn($p, $this)",
            "City, !LivesIn($p, $this), Likes($p, $this)", "LivesIn($p, $c), ?Likes($c, $q)",
            "LocatedIn($x, $y), LocatedIn($y, $z)");
        List<String> entities = List.of("sf", "la", "california", "usa", "earth", "paris", "france", "alice", "bob",
            "Likes", "LocatedIn");
        int checked = 0;
        for (String text : queries) {
            Query q = Query.parse(w, text);
            for (String var : q.variableNames()) {
                if (text.startsWith("LivesIn($p, $c), ?Likes") && var.equals("q")) {
                    continue; // bound only by an optional term: see optionalOnlyVariable
                }
                for (String name : entities) {
                    long e = e(name);
                    Query set = q.set(var, e);
                    assertEquals(filtered(q, var, e), rowsOf(set), text + " with $" + var + " = " + name);
                    checked++;
                }
            }
        }
        assertTrue(checked > 100, checked + " combinations");
    }

    @Test
    void setWalksFromTheSetEntityAndCanBeReplaced() {
        world();
        Query q = Query.parse(w, "LocatedIn($x, $y)");
        Query sf = q.set("$x", e("sf"));
        assertEquals(List.of("- | $x=sf $y=california | (LocatedIn,california)@sf", "- | $x=sf $y=earth | (LocatedIn,earth)@sf",
            "- | $x=sf $y=usa | (LocatedIn,usa)@sf"), rowsOf(sf));
        Query paris = sf.set("x", e("paris"));
        assertEquals(2, paris.count());
        assertEquals(3, sf.count(), "a query is immutable: set returns a new one");
        assertEquals(2, paris.set("y", e("earth")).count() + 1, "$x=paris, $y=earth: one row");
    }

    /**
     * A variable bound only by an optional term keeps its set value in every row (Flecs v4: a set
     * variable stays set); the optional field is set where the term matches with that value.
     */
    @Test
    void optionalOnlyVariable() {
        world();
        Query q = Query.parse(w, "LivesIn($p, $c), ?Likes($p, $q)").set("q", e("sf"));
        assertEquals(List.of("- | $c=paris $p=bob $q=sf | (LivesIn,paris)@bob -",
            "- | $c=sf $p=alice $q=sf | (LivesIn,sf)@alice (Likes,sf)@alice"), rowsOf(q));
    }

    @Test
    void badVariablesAreRefused() {
        world();
        Query q = Query.parse(w, "LocatedIn($x, $y)");
        var ex = assertThrows(QueryVariableException.class, () -> q.set("z", e("sf")));
        assertTrue(ex.getMessage().contains("no variable $z"), ex.getMessage());
        var noThis = assertThrows(QueryVariableException.class, () -> Query.parse(w, "City(sf)").set("this", e("sf")));
        assertTrue(noThis.getMessage().contains("has no $this to set"), noThis.getMessage());
        assertThrows(QueryVariableException.class, () -> Query.parse(w, "LocatedIn($_a, $y)").set("_a", e("sf")));
        long gone = w.entity("gone");
        w.delete(gone);
        assertThrows(QueryVariableException.class, () -> q.set("x", gone));
        assertEquals(5 + 2 + 2 + 1 + 1 + 1, q.count(), "the query itself is unchanged");
    }
}
