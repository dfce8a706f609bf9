package dev.quiver.query;

import dev.quiver.index.Ids;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The public result API: Query metadata, QueryRow fields and variables, limits, determinism. */
class QueryRowTest extends QueryTestSupport {

    @Test
    void variableNamesInFirstAppearanceOrderWithoutThisAnonymousOrScopeLocal() {
        with("a", "(Likes,b)");
        Query q = Query.parse(w, "Likes($who, $what), (Likes, $_anon), !{ Likes($inner, $this) }, $who == $who");
        assertEquals(List.of("who", "what"), q.variableNames());
        assertTrue(q.hasThis());
        assertEquals(3, q.fieldCount());
        Query noThis = Query.parse(w, "Likes($x, $y)");
        assertFalse(noThis.hasThis());
        assertEquals(List.of("x", "y"), noThis.variableNames());
        assertEquals("Likes($who, $what), (Likes, $_anon), !{ Likes($inner, $this) }, $who == $who", q.text());
        assertEquals("Likes($who,$what), (Likes,$_anon), !{Likes($inner,$this)}, $who == $who", q.canonicalText());
    }

    @Test
    void fieldsVariablesAndSources() {
        long likes = e("Likes");
        long bob = with("bob", "(Likes,carol)");
        long alice = with("alice", "(Likes,bob)", "Person");
        e("Velocity");
        Query q = Query.parse(w, "Person, (Likes, $x), ?Velocity, Likes($x, $y)");
        List<QueryRow> rows = q.rows(-1);
        assertEquals(1, rows.size());
        QueryRow r = rows.get(0);
        assertEquals(alice, r.thisEntity());
        assertEquals(alice, r.variable("this"));
        assertEquals(bob, r.variable("x"));
        assertEquals(bob, r.variable("$x"));
        assertEquals(e("carol"), r.variable("y"));
        assertEquals(bob, r.fieldSource(3));
        assertEquals(4, r.fieldCount());
        assertTrue(r.fieldSet(0));
        assertEquals(e("Person"), r.fieldId(0));
        assertEquals(alice, r.fieldSource(0));
        assertEquals(Ids.pair(likes, bob), r.fieldId(1));
        assertFalse(r.fieldSet(2));
        assertEquals(0, r.fieldId(2));
        assertEquals(0, r.fieldSource(2));
        assertThrows(IllegalArgumentException.class, () -> r.variable("nope"));
        assertNotNull(r.thisTable());
        assertEquals(alice, r.thisTable().entity(r.thisRow()));
    }

    @Test
    void fixedSourceFieldsReportTheSource() {
        long likes = e("Likes");
        long bob = e("bob");
        long alice = with("alice", "(Likes,bob)");
        QueryRow r = Query.parse(w, "Likes(alice, $x)").rows(-1).get(0);
        assertEquals(0, r.thisEntity());
        assertNull(r.thisTable());
        assertEquals(-1, r.thisRow());
        assertEquals(bob, r.variable("x"));
        assertEquals(alice, r.fieldSource(0));
        assertEquals(Ids.pair(likes, bob), r.fieldId(0));
    }

    @Test
    void rowsWithALimitStopEarly() {
        for (int i = 0; i < 30; i++) {
            with("e" + i, "T");
        }
        Query q = Query.parse(w, "T");
        assertEquals(5, q.rows(5).size());
        assertEquals(0, q.rows(0).size());
        assertEquals(30, q.rows(-1).size());
        assertEquals(30, q.count());
        int[] n = {0};
        q.forEach(r -> n[0]++);
        assertEquals(30, n[0]);
    }

    @Test
    void resultsAreDeterministic() {
        transitive("R");
        for (int i = 0; i < 50; i++) {
            with("n" + i, "(R,n" + (i / 3) + ")", i % 2 == 0 ? "Even" : "Odd");
        }
        for (String query : new String[] {"(R, $x)", "(R, n1)", "Even || Odd, (R, *)", "R(n49, $x)"}) {
            Query q = Query.parse(w, query);
            assertEquals(q.rows(-1), Query.parse(w, query).rows(-1), query);
        }
    }

    @Test
    void deletedFixedIdsMatchNothing() {
        with("alice", "(Likes,bob)", "Person");
        Query likesBob = Query.parse(w, "(Likes, bob)");
        Query notLikesBob = Query.parse(w, "Person, !(Likes, bob)");
        assertEquals(1, likesBob.count());
        assertEquals(0, notLikesBob.count());
        w.delete(e("bob"));
        for (int i = 0; i < 5; i++) {
            with("alice", "(Likes,carl" + i + ")"); // may reuse bob's entity index
        }
        assertEquals(0, likesBob.count());
        assertEquals(1, notLikesBob.count());
    }

    @Test
    void queriesSeeChangesMadeAfterCreation() {
        with("a", "T");
        Query q = Query.parse(w, "T");
        assertEquals(1, q.count());
        with("b", "T");
        assertEquals(2, q.count());
        w.delete(e("a"));
        assertEquals(1, q.count());
    }
}
