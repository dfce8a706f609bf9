package dev.quiver.query.parse;

import dev.quiver.query.QueryError;
import dev.quiver.query.QuerySyntaxException;
import dev.quiver.query.UnsupportedQueryException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Parser tests: every term shape of the Flecs v4 Query Language and every error path. */
class QueryParserTest {

    private static List<Term> terms(String q) {
        return QueryParser.parse(q).terms();
    }

    private static Term one(String q) {
        List<Term> t = terms(q);
        assertEquals(1, t.size(), q);
        return t.get(0);
    }

    @Test
    void plainComponentHasImplicitThisSource() {
        Term t = one("Position");
        assertEquals(Operator.AND, t.oper());
        assertEquals(TermRef.Kind.ENTITY, t.first().kind());
        assertEquals("Position", t.first().name());
        assertEquals(1, t.first().column());
        assertNull(t.second());
        assertTrue(t.source().isThis());
        assertEquals(TermRef.Kind.DEFAULT, t.source().kind());
        assertFalse(t.isPair());
    }

    @Test
    void commaSeparatedTermsAndWhitespace() {
        List<Term> t = terms("  Position ,\n\tVelocity,Mass  ");
        assertEquals(3, t.size());
        assertEquals("Velocity", t.get(1).first().name());
        assertEquals(15, t.get(1).column());
        assertEquals("Mass", t.get(2).first().name());
    }

    @Test
    void trailingCommaIsAccepted() {
        assertEquals(1, terms("Position,").size());
    }

    @Test
    void pairOnThis() {
        Term t = one("(Likes, bob)");
        assertTrue(t.isPair());
        assertEquals("Likes", t.first().name());
        assertEquals("bob", t.second().name());
        assertEquals(9, t.second().column());
        assertTrue(t.source().isThis());
    }

    @Test
    void pairWildcardsAnyAndVariables() {
        assertEquals(TermRef.Kind.WILDCARD, one("(Likes, *)").second().kind());
        assertEquals(TermRef.Kind.ANY, one("(Likes, _)").second().kind());
        assertEquals(TermRef.Kind.WILDCARD, one("(*, Pizza)").first().kind());
        assertEquals(TermRef.Kind.ANY, one("(_, Pizza)").first().kind());
        Term v = one("($R, $X)");
        assertEquals(TermRef.Kind.VARIABLE, v.first().kind());
        assertEquals("R", v.first().name());
        assertEquals("X", v.second().name());
        assertFalse(v.second().isThis());
    }

    @Test
    void explicitSources() {
        Term c = one("Position(Game)");
        assertEquals("Game", c.source().name());
        assertEquals(TermRef.Kind.ENTITY, c.source().kind());
        assertNull(c.second());
        Term p = one("LocatedIn($a, $b)");
        assertEquals("a", p.source().name());
        assertEquals("b", p.second().name());
        assertTrue(p.isPair());
        Term fixed = one("DependsOn(libc6, libc6)");
        assertEquals("libc6", fixed.source().name());
        assertEquals("libc6", fixed.second().name());
        Term th = one("Position($this)");
        assertTrue(th.source().isThis());
        assertEquals(TermRef.Kind.VARIABLE, th.source().kind());
        assertTrue(one("Position($This)").source().isThis());
        var removed = assertThrows(QuerySyntaxException.class, () -> one("Input($)"));
        assertEquals(7, removed.column());
        assertTrue(removed.getMessage().contains("removed in Flecs v4.1"), removed.getMessage());
        Term cv = one("C($x)");
        assertEquals("x", cv.source().name());
    }

    @Test
    void dottedPathsAndOldSeparator() {
        assertEquals("a.b.c", one("a.b.c").first().name());
        assertEquals("a.b.c", one("a::b::c").first().name());
        assertEquals("lib-foo.x_1", one("lib-foo.x_1").first().name());
        assertEquals("house.kitchen", one("Transform(house.kitchen)").source().name());
        Term lookup = one("Lamp($this.lamp)");
        assertEquals("this", lookup.source().name());
        assertEquals("lamp", lookup.source().lookup());
        assertFalse(lookup.source().isThis());
    }

    @Test
    void numericIds() {
        Term t = one("100");
        assertTrue(t.first().isNumeric());
        assertFalse(one("a100").first().isNumeric());
    }

    @Test
    void notAndOptional() {
        List<Term> t = terms("Position, !Velocity, ?(Eats, *), !(ChildOf, _)");
        assertEquals(Operator.AND, t.get(0).oper());
        assertEquals(Operator.NOT, t.get(1).oper());
        assertEquals(Operator.OPTIONAL, t.get(2).oper());
        assertEquals(11, t.get(1).column());
        assertEquals(Operator.NOT, t.get(3).oper());
        assertTrue(t.get(3).isPair());
    }

    @Test
    void orChainsUseTheV4Convention() {
        List<Term> t = terms("Position, Velocity || Speed || Mass, Foo");
        assertEquals(5, t.size());
        assertEquals(Operator.AND, t.get(0).oper());
        assertEquals(Operator.OR, t.get(1).oper());
        assertEquals(Operator.OR, t.get(2).oper());
        assertEquals(Operator.AND, t.get(3).oper());
        assertEquals(Operator.AND, t.get(4).oper());
        assertEquals("Position, Velocity || Speed || Mass, Foo", QueryParser.parse("Position,Velocity||Speed||Mass,Foo").canonical());
    }

    @Test
    void traversalFlagsOnTargetsAndSources() {
        Term self = one("(LocatedIn, *|self)");
        assertTrue(self.second().traversal().selfOnly());
        assertEquals(TermRef.Kind.WILDCARD, self.second().kind());
        Term vself = one("(Requires, $m|self)");
        assertTrue(vself.second().traversal().selfOnly());
        Term first = one("Unit|self");
        assertTrue(first.first().traversal().selfOnly());
        Term up = one("Position(up)");
        assertTrue(up.source().traversal().up());
        assertTrue(up.source().isThis());
        Term selfUp = one("Position(self|up)");
        assertTrue(selfUp.source().traversal().self());
        assertTrue(selfUp.source().traversal().up());
        Term upR = one("Speed(up IsA)");
        assertEquals("IsA", upR.source().traversal().relationship().name());
        Term upOld = one("Speed(up(IsA))");
        assertEquals("IsA", upOld.source().traversal().relationship().name());
        Term parent = one("Window(parent)");
        assertEquals("ChildOf", parent.source().traversal().relationship().name());
        Term fixedUp = one("Window(my_widget|up)");
        assertEquals("my_widget", fixedUp.source().name());
        assertTrue(fixedUp.source().traversal().up());
        Term cascade = one("Transform(cascade|desc)");
        assertTrue(cascade.source().traversal().cascade());
        assertTrue(cascade.source().traversal().desc());
        assertTrue(one("Position(super)").source().traversal().up());
    }

    @Test
    void equalityTerms() {
        Term eq = one("$this == Foo");
        assertEquals(Predicate.EQ, eq.predicate());
        assertTrue(eq.source().isThis());
        assertEquals("Foo", eq.second().name());
        Term str = one("$x != \"Na\\\"me\"");
        assertEquals(Predicate.NEQ, str.predicate());
        assertEquals(TermRef.Kind.STRING, str.second().kind());
        assertEquals("Na\"me", str.second().name());
        Term m = one("$this ~= \"Fo\"");
        assertEquals(Predicate.MATCH, m.predicate());
        List<Term> chain = terms("SpaceShip, $this == A || $this == B");
        assertEquals(Operator.OR, chain.get(1).oper());
        assertEquals(Predicate.EQ, chain.get(2).predicate());
    }

    @Test
    void notScopesNestTerms() {
        List<Term> t = terms("Position($this), !{ ChildOf($child, $this), Position($child) }");
        assertEquals(2, t.size());
        Term s = t.get(1);
        assertTrue(s.isScope());
        assertEquals(Operator.NOT, s.oper());
        assertEquals(2, s.scope().size());
        assertEquals("child", s.scope().get(0).source().name());
    }

    @Test
    void accessModifiersAndFromOperators() {
        List<Term> t = terms("[in] Position, [out] Velocity, [none] !Mass");
        assertEquals(InOut.IN, t.get(0).inout());
        assertEquals(InOut.OUT, t.get(1).inout());
        assertEquals(InOut.NONE, t.get(2).inout());
        assertEquals(Operator.NOT, t.get(2).oper());
        List<Term> f = terms("Tagged, and | type_list, OR | type_list, not|type_list");
        assertEquals(Operator.AND_FROM, f.get(1).oper());
        assertEquals(Operator.OR_FROM, f.get(2).oper());
        assertEquals(Operator.NOT_FROM, f.get(3).oper());
        assertEquals("type_list", f.get(3).first().name());
    }

    @Test
    void canonicalTextRoundTrips() {
        String[] qs = {
            "Position, (LocatedIn, *|self)",
            "R($a, $b), !C($a), ?(Eats, _)",
            "Position(self|up IsA), $this == \"x\"",
            "Position, !{Velocity || Speed}",
        };
        String[] expected = {
            "Position, (LocatedIn,*|self)",
            "R($a,$b), !C($a), ?(Eats,_)",
            "Position($this|self|up IsA), $this == \"x\"",
            "Position, !{Velocity || Speed}",
        };
        for (int i = 0; i < qs.length; i++) {
            String c = QueryParser.parse(qs[i]).canonical();
            assertEquals(expected[i], c);
            assertEquals(c, QueryParser.parse(c).canonical(), "re-parse of " + c);
        }
    }

    // ------------------------------------------------------------------ errors

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "`Position)`                   | `unexpected ')' at column 9`             | 9",
        "`(Likes *)`                   | `unexpected '*' at column 8`             | 8",
        "`(Likes, *`                   | `unexpected end of query at column 10`   | 10",
        "`Position($this`              | `unexpected end of query at column 15`   | 15",
        "`Walks ||`                    | `unexpected end of query at column 9`    | 9",
        "`Position, ?`                 | `unexpected end of query at column 12`   | 12",
        "`Position,,Velocity`          | `unexpected ',' at column 10`            | 10",
        "`, Position`                  | `unexpected ',' at column 1`             | 1",
        "`-Position`                   | `unexpected '-' at column 1`             | 1",
        "`Position Velocity`           | `unexpected 'Velocity' at column 10`     | 10",
        "`(Likes, bob, carl)`          | `unexpected ',' at column 12`            | 12",
        "`R(a, b, c)`                  | `unexpected ',' at column 7`             | 7",
        "`Position#`                   | `unexpected '#' at column 9`             | 9",
        "`a.`                          | `unexpected '.' at column 2`             | 2",
        "`a::`                         | `unexpected '::' at column 2`            | 2",
        "`Foo = Bar`                   | `unexpected '=' at column 5`             | 5",
        "`$this ~ Bar`                 | `unexpected '~' at column 7`             | 7",
        "`Foo == Bar`                  | `left side of '==' must be a variable, found 'Foo' at column 1` | 1",
        "`$this ~= Foo`                | `expected a string after '~=' at column 10, found 'Foo'` | 10",
        "`$this == *`                  | `unexpected '*' at column 10`            | 10",
        "`$this == \"abc`              | `unterminated string at column 10`       | 10",
        "`(Likes, $)`                  | `unexpected '$' at column 9`             | 9",
        "`Position(self|foo)`          | `unknown traversal flag 'foo' at column 15` | 15",
        "`(LocatedIn, *|)`             | `expected a traversal flag (self, up, cascade, desc) at column 15, found ')'` | 15",
        "`[into] Position`             | `unknown access modifier 'into' at column 2` | 2",
        "`[] Position`                 | `expected an access modifier (in, out, inout, none, filter) at column 2, found ']'` | 2",
        "`[in Position`                | `unexpected 'Position' at column 5`      | 5",
        "`!Position || Velocity`       | `'||' cannot follow a '!' term at column 11` | 11",
        "`Position || ?Velocity`       | `operator '?' inside an '||' chain at column 13` | 13",
        "`Position, !{}`               | `unexpected '}' at column 13`            | 13",
        "`Position, !{ Velocity`       | `unexpected end of query at column 22`   | 22",
        "`Position }`                  | `unexpected '}' at column 10`            | 10",
        "`()`                          | `unexpected ')' at column 2`             | 2",
        "`$`                           | `unexpected '$' at column 1`             | 1",
    })
    void syntaxErrorsNameTokenAndColumn(String query, String message, int column) {
        QuerySyntaxException e = assertThrows(QuerySyntaxException.class, () -> QueryParser.parse(query));
        assertEquals(message, e.getMessage());
        assertEquals(column, e.column());
    }

    @Test
    void emptyQueryIsAnError() {
        assertEquals("empty query at column 1",
            assertThrows(QuerySyntaxException.class, () -> QueryParser.parse("   ")).getMessage());
        assertThrows(QuerySyntaxException.class, () -> QueryParser.parse(""));
        assertThrows(QuerySyntaxException.class, () -> QueryParser.parse(null));
    }

    @Test
    void errorTokenIsReported() {
        QueryError e = assertThrows(QuerySyntaxException.class, () -> QueryParser.parse("(Likes, bob))"));
        assertEquals(")", e.token());
        assertEquals(13, e.column());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "`!{ Velocity }, Position`      | `unsupported: query scope as the first term at column 1`  | 1",
        "`Position, { Velocity }`       | `unsupported: query scope without '!' at column 11`       | 11",
        "`Position(subset)`             | `unsupported: traversal 'subset' at column 10`            | 10",
        "`Position(self|all)`           | `unsupported: traversal 'all' at column 15`               | 15",
        "`Position()`                   | `unsupported: term without a source '()' at column 9`     | 9",
    })
    void unsupportedConstructsNameTheColumn(String query, String message, int column) {
        UnsupportedQueryException e = assertThrows(UnsupportedQueryException.class, () -> QueryParser.parse(query));
        assertEquals(message, e.getMessage());
        assertEquals(column, e.column());
    }
}
