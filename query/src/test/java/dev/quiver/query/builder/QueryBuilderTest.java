package dev.quiver.query.builder;

import dev.quiver.query.Query;
import dev.quiver.query.QueryRow;
import dev.quiver.query.QuerySyntaxException;
import dev.quiver.query.QueryValidationException;
import dev.quiver.query.UnknownQueryNameException;
import dev.quiver.query.UnsupportedQueryException;
import dev.quiver.query.parse.QueryAst;
import dev.quiver.query.parse.QueryParser;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.World;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The builder (QL-24, OTH-01) against the parser: for each pair of a builder and the equivalent
 * text, the same canonical text, the same plan and the same results in the same order; and every
 * bad use of the builder refused with {@link QueryBuilderException} (or the parser's exception
 * where the parser refuses the same query).
 */
class QueryBuilderTest {
    @TempDir
    Path dir;
    World w;

    @BeforeEach
    void world() {
        w = World.create(dir.resolve("w"));
        w.transaction(x -> {
            with("house", "Transform", "Light");
            with("house.kitchen", "Room", "Transform");
            with("house.kitchen.lamp", "Lamp", "Light");
            with("house.bedroom", "Room", "Transform");
            with("house.bedroom.closet", "Room");
            with("garden", "Outdoor");
            with("garden.shed", "Room", "Transform");
            with("alice", "Person", "(Likes,bob)", "(Likes,pizza)", "(Eats,pizza)");
            with("bob", "Person", "(Likes,alice)", "(Eats,salad)");
            with("carol", "Person", "Dead", "(Likes,bob)");
            with("pizza", "Food");
            with("salad", "Food", "Green");
            w.add(w.entity("LocatedIn"), Builtin.TRANSITIVE);
            with("paris", "City", "(LocatedIn,france)");
            with("france", "Country", "(LocatedIn,europe)");
            with("europe", "Continent");
            with("Game", "TimeOfDay");
            w.add(w.entity("TimeOfDay"), Builtin.SINGLETON);
        });
    }

    @AfterEach
    void close() {
        w.close();
    }

    private void with(String entity, String... ids) {
        long x = w.entity(entity);
        for (String id : ids) {
            w.add(x, w.ensureId(id));
        }
    }

    /** The builder's query and the parsed text agree on canonical text, plan and results (in order). */
    private void same(String text, QueryBuilder b) {
        Query parsed = Query.parse(w, text);
        Query built = b.build(w);
        assertEquals(parsed.canonicalText(), built.canonicalText(), text);
        assertEquals(built.canonicalText(), built.text(), "a built query's text is its canonical text");
        assertEquals(parsed.plan(), built.plan(), text);
        assertEquals(rows(parsed), rows(built), text);
        assertEquals(parsed.count(), built.count(), text);
        // the canonical text parses back to the same query
        assertEquals(rows(parsed), rows(Query.parse(w, built.canonicalText())), text);
    }

    private List<String> rows(Query q) {
        List<String> out = new ArrayList<>();
        for (QueryRow r : q.rows(-1)) {
            StringBuilder sb = new StringBuilder().append(r.thisEntity());
            for (String v : q.variableNames()) {
                sb.append(' ').append(v).append('=').append(r.variable(v));
            }
            for (int f = 0; f < r.fieldCount(); f++) {
                sb.append(" | ").append(r.fieldSet(f) ? w.idToString(r.fieldId(f)) + "@" + r.fieldSource(f) : "-");
            }
            out.add(sb.toString());
        }
        return out;
    }

    private static QueryBuilder qb() {
        return new QueryBuilder();
    }

    @Test
    void idsPairsAndSources() {
        same("Person", qb().with("Person"));
        same("Person, Food", qb().with("Person").with("Food"));
        same("(Likes, bob)", qb().with("Likes", "bob"));
        same("(Likes, *)", qb().with("Likes", "*"));
        same("(Likes, _)", qb().with("Likes", "_"));
        same("(*, pizza)", qb().with("*", "pizza"));
        same("Person, (Likes, $x), Person($x)", qb().with("Person").with("Likes", "$x").with("Person").src("$x"));
        same("Person, (Likes, $x), Person($x)", qb().with("Person").with("Likes").second("$x").term().first("Person").src().var("x"));
        same("Likes($this, $x), Eats($x, $y)", qb().term().first("Likes").src("$this").second("$x")
            .term().first("Eats").src().var("x").second().var("y"));
        same("Eats(alice, $f)", qb().with("Eats", "$f").src("alice"));
        same("Person($This)", qb().with("Person").src("$This"));
        same("$C(alice)", qb().with("$C").src("alice"));
        same("Food(pizza)", qb().term().first("Food").src("pizza"));
        same("Room(house::kitchen)", qb().with("Room").src("house::kitchen"));
        same("Room(house.kitchen)", qb().with("Room").src("house.kitchen"));
        long pizza = w.lookup("pizza");
        same(pizza + "", qb().with(pizza));
        same("(" + w.lookup("Likes") + ", " + w.lookup("bob") + ")", qb().with(w.lookup("Likes"), w.lookup("bob")));
        same("Food(" + pizza + ")", qb().with("Food").src(pizza));
        same("TimeOfDay(TimeOfDay)", qb().with("TimeOfDay").singleton());
        assertThrows(QueryBuilderException.class, () -> qb().with("TimeOfDay").src("$"), "the '$' source is removed (K10)");
        assertThrows(QueryBuilderException.class, () -> qb().with("Likes", "*").singleton());
        same("Transform, Room($this.kitchen)", qb().with("Transform").with("Room").src("$this.kitchen"));
    }

    @Test
    void operatorsAndAccess() {
        same("Person, !Dead", qb().with("Person").without("Dead"));
        same("Person, !(Likes, alice)", qb().with("Person").without("Likes", "alice"));
        same("Person, !Dead", qb().with("Person").with("Dead").not());
        same("Person, ?(Eats, $f)", qb().with("Person").with("Eats", "$f").optional());
        same("Food, Green || Dead", qb().with("Food").with("Green").or().with("Dead"));
        same("Person || Food || City", qb().with("Person").or().with("Food").or().with("City"));
        same("Person, Dead || (Eats, salad)", qb().with("Person").with("Dead").or().with("Eats", "salad"));
        same("[in] Person, [out] Food, [inout] Room, [none] City, [filter] Country",
            qb().with("Person").in().with("Food").out().with("Room").inout().with("City").none().with("Country").filter());
        same("[in] Person, ?Dead", qb().with("Person").in().and().with("Dead").optional());
        same("[inout] !Dead, Person", qb().with("Dead").inout().not().with("Person"));
        same("Person, !{(Likes, $x), Dead($x)}", qb().with("Person").scopeOpen().with("Likes", "$x").with("Dead").src("$x")
            .scopeClose());
        same("Person, !{(Likes, $x), !{Person($x), !Dead($x)}}", qb().with("Person").scopeOpen().with("Likes", "$x")
            .scopeOpen().with("Person").src("$x").without("Dead").src("$x").scopeClose().scopeClose());
        assertThrows(QueryValidationException.class, // a scope has no field, so no access (as the parser's text)
            () -> qb().with("Person").scopeOpen().with("Dead").scopeClose().in().build(w));
    }

    @Test
    void traversalFlags() {
        same("Room, Transform(up)", qb().with("Room").with("Transform").up());
        same("Room, Transform(up ChildOf)", qb().with("Room").with("Transform").up("ChildOf"));
        same("Room, Transform(parent)", qb().with("Room").with("Transform").parent());
        same("Room, Light(self|up)", qb().with("Room").with("Light").self().up());
        same("Light(self|up ChildOf)", qb().with("Light").src().self().up("ChildOf"));
        same("Room, !Light(up)", qb().with("Room").without("Light").up());
        same("Room, Light(up) || Outdoor(up)", qb().with("Room").with("Light").up().or().with("Outdoor").up());
        same("Room, Transform(house|self)", qb().with("Room").with("Transform").src("house").self());
        same("(LocatedIn, europe)", qb().with("LocatedIn", "europe"));
        same("(LocatedIn, *|self)", qb().with("LocatedIn", "*").second().self());
        same("(LocatedIn, $x|self)", qb().with("LocatedIn").second("$x").self());
        same("LocatedIn(paris, $x)", qb().with("LocatedIn", "$x").src("paris"));
        same("Lamp, Light(self|up)", qb().with("Lamp").with("Light").up().self());
    }

    @Test
    void predicatesAndExpr() {
        same("Person, $this == alice", qb().with("Person").eq("$this", "alice"));
        same("Person, $this != alice", qb().with("Person").neq("$this", "alice"));
        same("Person, $this == \"bob\"", qb().with("Person").eqName("$this", "bob"));
        same("Person, $this != \"bob\"", qb().with("Person").neqName("$this", "bob"));
        same("Person, $this ~= \"o\"", qb().with("Person").matchName("$this", "o"));
        same("Person, $this ~= \"!o\"", qb().with("Person").matchName("$this", "!o"));
        same("(Likes, $x), $x == bob", qb().with("Likes", "$x").eq("$x", "bob"));
        same("Person, !Dead, (Likes, $x)", qb().expr("Person, !Dead").with("Likes", "$x"));
        same("Person, Food($x), !{Dead}", qb().with("Person").expr("Food($x), !{Dead}"));
        // a fragment follows the parser's rules: it cannot start with a scope
        assertThrows(UnsupportedQueryException.class, () -> qb().with("Person").expr("!{Dead}"));
        same("Room, Transform(up)", qb().expr("Room").expr("Transform(up)"));
    }

    @Test
    void columnsPointIntoTheCanonicalText() {
        QueryAst ast = qb().with("Person").with("Likes", "$x").with("Transform").src("house").up("ChildOf").ast();
        assertEquals("Person, (Likes,$x), Transform(house|up ChildOf)", ast.text());
        QueryAst parsed = QueryParser.parse(ast.text());
        assertEquals(parsed, ast, "the built AST equals the parsed canonical text, columns included");
        QueryAst cascade = qb().with("T").src("$this").cascade("ChildOf").desc().with("U").src("$x").self().up("IsA").ast();
        assertEquals("T($this|cascade ChildOf|desc), U($x|self|up IsA)", cascade.text());
        assertEquals(QueryParser.parse(cascade.text()), cascade);
        QueryAst scoped = qb().with("A").in().scopeOpen().with("B").not().with("C").or().with("D").scopeClose()
            .eqName("$y", "x").ast();
        assertEquals(QueryParser.parse(scoped.text()), scoped);
        UnknownQueryNameException e = assertThrows(UnknownQueryNameException.class,
            () -> qb().with("Person").with("Likes", "nobody").build(w));
        assertEquals(16, e.column(), e.getMessage());
        QueryValidationException v = assertThrows(QueryValidationException.class,
            () -> qb().with("Room").with("Transform").up("Likes").build(w));
        assertTrue(v.getMessage().contains("non-traversable"), v.getMessage());
        assertEquals(26, v.column(), v.getMessage()); // "Room, Transform($this|up Likes)": 'Likes' at 26
    }

    @Test
    void languageErrorsAreTheParsersErrors() {
        assertThrows(QueryValidationException.class, () -> qb().with("Transform").with("Transform").cascade().build(w));
        assertThrows(QueryValidationException.class, () -> qb().with("Transform").with("Transform").desc().build(w));
        assertThrows(UnsupportedQueryException.class, () -> qb().scopeOpen().with("Dead").scopeClose().with("Person").ast());
        assertThrows(QuerySyntaxException.class, () -> qb().expr("Person,,"));
        assertThrows(UnknownQueryNameException.class, () -> qb().with("Nope").build(w));
    }

    @Test
    void badUseIsRefused() {
        bad(() -> qb().term().ast(), "has no id");
        bad(() -> qb().with("Person").term().second("x").ast(), "term 2 has no id");
        bad(() -> qb().ast(), "no terms");
        bad(() -> qb().not(), "no current term");
        bad(() -> qb().in(), "no current term");
        bad(() -> qb().up(), "no current term");
        bad(() -> qb().first("A"), "no current term");
        bad(() -> qb().with("Person").scopeClose(), "no open scope");
        bad(() -> qb().with("Person").scopeOpen().scopeClose(), "empty scope");
        bad(() -> qb().with("Person").scopeOpen().with("Dead").ast(), "not closed");
        bad(() -> qb().with("Person").or().ast(), "no term follows");
        bad(() -> qb().with("Person").or().without("Dead").ast(), "Or chain");
        bad(() -> qb().with("Person").or().scopeOpen().with("Dead").scopeClose().ast(), "Or chain");
        bad(() -> qb().with("Person").not().optional(), "already has operator '!'");
        bad(() -> qb().with("Person").or().not(), "already has operator '||'");
        bad(() -> qb().with("Person").scopeOpen().with("A").scopeClose().optional(), "scope");
        bad(() -> qb().with("Person").scopeOpen().with("A").scopeClose().src("x"), "scope");
        bad(() -> qb().expr("Person").not(), "expr");
        bad(() -> qb().expr("Person").src("x"), "expr");
        bad(() -> qb().with(""), "empty element");
        bad(() -> qb().with((String) null), "empty element");
        bad(() -> qb().with("Position, Velocity"), "not one element");
        bad(() -> qb().with("a..b"), "not one element");
        bad(() -> qb().with("a b"), "not one element");
        bad(() -> qb().with("$"), "removed in Flecs v4.1");
        bad(() -> qb().with("R", "$"), "removed in Flecs v4.1");
        bad(() -> qb().with("Person").src("up"), "traversal flag");
        bad(() -> qb().with("Person").var("1x y"), "not one element");
        bad(() -> qb().with("Person").var(""), "not a variable name");
        bad(() -> qb().with("Person").up("*"), "must be an entity");
        bad(() -> qb().with("Person").up("$x"), "must be an entity");
        bad(() -> qb().with("Person").second().self(), "no second element");
        bad(() -> qb().eq("alice", "bob"), "must be a $variable");
        bad(() -> qb().eq("$x", "*"), "cannot be '*'");
        bad(() -> qb().eqName("$x", null), "null string");
        bad(() -> qb().eq("$x", "bob").second("y"), "equality term");
        bad(() -> qb().eq("$x", "bob").up(), "equality term");
        QueryBuilder deep = qb().with("A");
        for (int i = 0; i < QueryParser.MAX_SCOPE_DEPTH; i++) {
            deep.scopeOpen();
        }
        bad(deep::scopeOpen, "nested deeper");
    }

    @Test
    void aRefusedCallLeavesTheBuilderUsable() {
        QueryBuilder b = qb().with("Person");
        assertThrows(QueryBuilderException.class, () -> b.with("a b"));
        assertThrows(QueryBuilderException.class, () -> b.scopeClose());
        b.without("Dead");
        same("Person, !Dead", b);
        assertFalse(b.toString().isEmpty());
        assertEquals("QueryBuilder[incomplete]", qb().term().toString());
    }

    private static void bad(Executable use, String words) {
        QueryBuilderException e = assertThrows(QueryBuilderException.class, use);
        assertTrue(e.getMessage().contains(words), e.getMessage());
    }
}
