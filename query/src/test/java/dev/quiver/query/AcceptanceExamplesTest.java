package dev.quiver.query;

import dev.quiver.error.BadInputException;
import dev.quiver.index.Ids;
import dev.quiver.query.builder.QueryBuilder;
import dev.quiver.query.iter.FieldValueException;
import dev.quiver.query.cache.CachedQuery;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.CleanupPanicException;
import dev.quiver.storage.CycleException;
import dev.quiver.storage.FieldType;
import dev.quiver.storage.FinalException;
import dev.quiver.storage.MaxDepthExceededException;
import dev.quiver.storage.OneOfException;
import dev.quiver.storage.RelationshipSpec;
import dev.quiver.storage.RelationshipWalks;
import dev.quiver.storage.Schema;
import dev.quiver.storage.ValidationException;
import dev.quiver.storage.World;
import dev.quiver.storage.WorldPages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * FEATURES.md section 14, the acceptance examples A-01 to A-40, through the public Java API
 * ({@link World}, {@link Query}, {@link CachedQuery}, {@link QueryBuilder}): one test per example,
 * checking every expectation line. Results are compared as sorted lists (sets with duplicates
 * visible) unless the example states an order. Rows print as {@code this | $vars | fields}; a field
 * prints its matched id, with {@code @source} when the source is not {@code $this}, and {@code -}
 * when it is not set. A refused operation must throw its specific exception and leave the world
 * unchanged (its committed pages and {@link World#check()}).
 *
 * <p>Each world is built in one transaction ({@link #build}), so a test costs a few commits.
 *
 * <p>Not covered here: the {@code $} singleton source (A-28, removed in Flecs v4.1). A-40
 * (snapshots) is in the cli module's AcceptanceExamplesCliTest, since this module's test
 * classpath has no snapshots.
 */
class AcceptanceExamplesTest {
    @TempDir
    Path dir;
    World w;
    private final List<World> extra = new ArrayList<>();

    @BeforeEach
    void open() {
        w = World.create(dir.resolve("world"));
    }

    @AfterEach
    void close() {
        assertEquals(List.of(), w.check(), "check after the example");
        w.close();
        for (World x : extra) {
            assertEquals(List.of(), x.check(), "check after the example");
            x.close();
        }
    }

    // ------------------------------------------------------------------ helpers

    /** Another fresh world for the example's variants, closed after the test; becomes {@link #w}. */
    private World fresh() {
        extra.add(w);
        w = World.create(dir.resolve("world" + extra.size()));
        return w;
    }

    /** Builds the example's world in one transaction. */
    private void build(Runnable body) {
        w.transaction(x -> body.run());
    }

    private long e(String path) {
        return w.entity(path);
    }

    private long id(String text) {
        return w.ensureId(text);
    }

    private long pair(String r, String t) {
        return Ids.pair(e(r), e(t));
    }

    private void with(String entity, String... ids) {
        long x = e(entity);
        for (String i : ids) {
            w.add(x, id(i));
        }
    }

    private void isA(String e, String base) {
        w.add(e(e), w.pair(Builtin.IS_A, e(base)));
    }

    private long component(String name, Object... fields) {
        return w.component(name, Schema.of(fields));
    }

    /** Rows as sorted "this | vars | fields" lines; count() must agree. */
    private List<String> rows(String text) {
        return rows(Query.parse(w, text));
    }

    private List<String> rows(Query q) {
        List<String> out = new ArrayList<>();
        for (QueryRow r : q.rows(-1)) {
            out.add(QueryTestSupport.format(w, q, r));
        }
        Collections.sort(out);
        assertEquals(out.size(), q.count(), () -> "count() of " + q.text());
        return out;
    }

    /** The "this | vars" part of each row, sorted. */
    private List<String> answers(String text) {
        return answers(Query.parse(w, text));
    }

    private List<String> answers(Query q) {
        List<String> out = new ArrayList<>();
        for (String r : rows(q)) {
            out.add(r.substring(0, r.lastIndexOf(" | ")));
        }
        Collections.sort(out);
        return out;
    }

    /** The $this entities (paths) of the rows, sorted, duplicates kept. */
    private List<String> these(String text) {
        return these(Query.parse(w, text));
    }

    private List<String> these(Query q) {
        assertTrue(q.hasThis(), () -> q.text() + " has $this");
        List<String> out = new ArrayList<>();
        for (QueryRow r : q.rows(-1)) {
            out.add(w.path(r.thisEntity()));
        }
        Collections.sort(out);
        assertEquals(out.size(), q.count(), () -> "count() of " + q.text());
        return out;
    }

    private long count(String text) {
        return Query.parse(w, text).count();
    }

    private static List<String> list(String... s) {
        return QueryTestSupport.list(s);
    }

    /** The ids of an entity as text, in type order. */
    private List<String> ids(String entity) {
        List<String> out = new ArrayList<>();
        for (long i : w.type(w.resolve(entity))) {
            out.add(w.idToString(i));
        }
        return out;
    }

    private static double num(Map<String, Object> value, String field) {
        return ((Number) value.get(field)).doubleValue();
    }

    /** The world's committed pages, by map and key. */
    private Map<String, String> fingerprint() {
        Map<String, String> pages = new TreeMap<>();
        WorldPages.forEach(w, (map, key, blob) -> pages.put(map + "/" + key,
                Integer.toHexString(Arrays.hashCode(blob)) + ":" + blob.length));
        return pages;
    }

    /**
     * Asserts that {@code op} throws {@code type} (a {@link BadInputException}) and changes
     * nothing: the committed pages are the same and the in-memory state still equals them.
     */
    private <T extends BadInputException> T refused(Class<T> type, Executable op) {
        Map<String, String> before = fingerprint();
        T ex = assertThrows(type, op);
        assertEquals(before, fingerprint(), "the store is unchanged");
        assertEquals(List.of(), w.check(), "memory equals the committed state");
        return ex;
    }

    // ------------------------------------------------------------------ pairs and wildcards

    @Test
    void a01BobEats() {
        // A-01 Bob eats: pairs, has, * vs _ [000, 001, 004]
        build(() -> {
            e("Bananas");
            with("Bob", "(Eats, Apples)", "(Eats, Pears)");
        });
        with("Bob", "(Eats, Apples)"); // added again
        long bob = w.resolve("Bob");
        assertTrue(w.has(bob, pair("Eats", "Apples")));
        assertTrue(w.has(bob, pair("Eats", "Pears")));
        assertFalse(w.has(bob, pair("Eats", "Bananas")));
        assertEquals(list("Bob | - | (Eats,Apples)", "Bob | - | (Eats,Pears)"), rows("(Eats, *)"));
        assertEquals(List.of("(Eats,Apples)", "(Eats,Pears)"), ids("Bob"), "the re-add created no duplicate");
        assertEquals(list("Bob"), these("(Eats, _)"));
    }

    @Test
    void a02WildcardPositions() {
        // A-02 Wildcard positions [000, 002]
        build(() -> {
            component("Position", "x", FieldType.F64, "y", FieldType.F64);
            e("Bananas");
            with("Bob", "(Eats, Apples)", "(Eats, Pears)", "Hungry");
            w.set(e("Bob"), w.resolve("Position"), Map.of("x", 1, "y", 2));
            with("Alice", "(Likes, Apples)");
        });
        assertEquals(0, w.parent(w.resolve("Alice")));
        assertEquals(0, w.parent(w.resolve("Bob")));
        assertEquals(list("Alice | - | (Likes,Apples)", "Bob | - | (Eats,Apples)"), rows("(*, Apples)"));
        // "$this preset to Bob": Query.set("this", Bob), the API form of ecs_iter_set_var(it, 0, Bob)
        long bob = w.resolve("Bob");
        Query pairs = Query.parse(w, "(*, *)").set("this", bob);
        assertEquals(list("Bob | - | (Eats,Apples)", "Bob | - | (Eats,Pears)"), rows(pairs));
        assertEquals(2, pairs.count());
        assertEquals(list("Bob | - | Hungry", "Bob | - | Position"), rows(Query.parse(w, "*").set("$this", bob)));
        assertEquals(list("Alice | - | (Likes,Apples)"), rows(Query.parse(w, "(*, Apples)").set("this",
            w.resolve("Alice"))));
        // the same answers with $this bound by an equality term
        assertEquals(list("Bob | - | - (Eats,Apples)", "Bob | - | - (Eats,Pears)"), rows("$this == Bob, (*, *)"));
        assertEquals(list("Bob | - | - Hungry", "Bob | - | - Position"), rows("$this == Bob, *"));
    }

    @Test
    void a03RelationshipData() {
        // A-03 Relationship data [000]
        build(() -> {
            long requires = component("Requires", "amount", FieldType.F32);
            w.set(e("delorean"), w.pair(requires, e("Gigawatts")), Map.of("amount", 1.21f));
            long event = component("Event", "value", FieldType.STRING);
            w.set(e("universe"), w.pair(e("Begin"), event), Map.of("value", "Big Bang"));
            w.set(e("universe"), w.pair(e("End"), event), Map.of("value", "Heat Death"));
            long pos = component("Position", "x", FieldType.F64, "y", FieldType.F64);
            w.set(e("e"), w.pair(pos, e("first")), Map.of("x", 1, "y", 2));
            w.set(e("e"), w.pair(pos, e("second")), Map.of("x", 3, "y", 4));
            w.set(e("e"), w.pair(pos, e("third")), Map.of("x", 5, "y", 6));
        });
        assertEquals(1.21f, ((Number) w.get(w.resolve("delorean"), pair("Requires", "Gigawatts")).get("amount")).floatValue());
        assertEquals("Big Bang", w.get(w.resolve("universe"), pair("Begin", "Event")).get("value"));
        assertEquals(w.schema(w.resolve("Event")), w.schema(pair("Begin", "Event")), "the pair's type is Event");
        Query events = Query.parse(w, "(*, Event)");
        List<String> got = new ArrayList<>();
        for (QueryRow r : events.rows(-1)) {
            got.add(w.path(r.thisEntity()) + " " + r.get(0, "value", String.class));
        }
        Collections.sort(got);
        assertEquals(list("universe Big Bang", "universe Heat Death"), got);
        Query positions = Query.parse(w, "(Position, *)");
        got.clear();
        for (QueryRow r : positions.rows(-1)) {
            got.add(w.path(r.thisEntity()) + " " + w.idToString(r.fieldId(0)) + " " + r.value(0));
        }
        Collections.sort(got);
        assertEquals(list("e (Position,first) {x=1.0, y=2.0}", "e (Position,second) {x=3.0, y=4.0}",
            "e (Position,third) {x=5.0, y=6.0}"), got);
        assertEquals(List.of(), rows("Position"));
    }

    @Test
    void a04PairIsTag() {
        // A-04 Tag / PairIsTag [000]
        build(() -> {
            long pos = component("Position", "x", FieldType.F64, "y", FieldType.F64);
            w.set(e("e"), pos, Map.of("x", 10, "y", 20));
            w.add(e("e"), w.pair(e("Serializable"), pos));
        });
        long e = w.resolve("e");
        assertEquals(Map.of("x", 0.0, "y", 0.0), w.get(e, pair("Serializable", "Position")), "the pair's own value");
        assertEquals(Map.of("x", 10.0, "y", 20.0), w.get(e, w.resolve("Position")));
        // a fresh world where Serializable gets PairIsTag before use
        fresh();
        build(() -> {
            long pos = component("Position", "x", FieldType.F64, "y", FieldType.F64);
            w.add(e("Serializable"), Builtin.PAIR_IS_TAG);
            w.set(e("e"), pos, Map.of("x", 10, "y", 20));
            w.add(e("e"), w.pair(e("Serializable"), pos));
        });
        long e2 = w.resolve("e");
        long serializable = pair("Serializable", "Position");
        assertNull(w.schema(serializable), "the pair carries no data");
        refused(dev.quiver.storage.ValueException.class, () -> w.set(e2, serializable, Map.of("x", 1)));
        Query q = Query.parse(w, "(Serializable, Position)");
        assertEquals(list("e | - | (Serializable,Position)"), rows(q));
        FieldValueException noData = assertThrows(FieldValueException.class, () -> q.rows(-1).get(0).value(0));
        assertTrue(noData.getMessage().contains("no data"), noData.getMessage());
        dev.quiver.storage.ValueException noValue = assertThrows(dev.quiver.storage.ValueException.class,
            () -> w.getDouble(e2, serializable, 0));
        assertTrue(noValue.getMessage().contains("Serializable"), noValue.getMessage());
        assertEquals(Map.of("x", 10.0, "y", 20.0), w.get(e2, w.resolve("Position")));
    }

    // ------------------------------------------------------------------ transitivity, reflexivity, cycles

    private void chainA06() {
        build(() -> {
            e("LocatedIn");
            w.add(e("LocatedIn"), Builtin.TRANSITIVE);
            with("Manhattan", "(LocatedIn, NewYork)");
            with("CentralPark", "(LocatedIn, Manhattan)");
            with("Bob", "(LocatedIn, CentralPark)");
        });
    }

    @Test
    void a05ManhattanNewYorkUsa() {
        // A-05 Manhattan / NewYork / USA [000]
        build(() -> {
            with("Manhattan", "(LocatedIn, NewYork)");
            with("NewYork", "(LocatedIn, USA)");
        });
        assertEquals(list("NewYork"), these("(LocatedIn, USA)"));
        w.add(w.resolve("LocatedIn"), Builtin.TRANSITIVE);
        assertEquals(list("Manhattan", "NewYork"), these("(LocatedIn, USA)"));
        Query yes = Query.parse(w, "LocatedIn(Manhattan, USA)");
        assertFalse(yes.hasThis(), "no entity column");
        assertEquals(1, rows(yes).size());
        assertEquals(0, count("LocatedIn(USA, Manhattan)"));
    }

    @Test
    void a06TransitiveChain() {
        // A-06 Transitive chain: fixed target, |self, wildcard [001, 004]
        chainA06();
        assertEquals(list("Bob", "CentralPark", "Manhattan"), these("(LocatedIn, NewYork)"));
        assertEquals(list("Manhattan"), these("(LocatedIn, NewYork|self)"));
        assertEquals(list("Bob | - | (LocatedIn,CentralPark)", "CentralPark | - | (LocatedIn,Manhattan)",
            "Manhattan | - | (LocatedIn,NewYork)"), rows("(LocatedIn, *|self)"));
        assertEquals(list("Bob | - | (LocatedIn,CentralPark)", "Bob | - | (LocatedIn,Manhattan)",
            "Bob | - | (LocatedIn,NewYork)", "CentralPark | - | (LocatedIn,Manhattan)",
            "CentralPark | - | (LocatedIn,NewYork)", "Manhattan | - | (LocatedIn,NewYork)"), rows("(LocatedIn, *)"));
    }

    @Test
    void a07TransitiveVariableTarget() {
        // A-07 Transitive variable target and constraint [001, 004]
        chainA06();
        with("NewYork", "City");
        assertEquals(list("Manhattan | $Place=NewYork", "CentralPark | $Place=Manhattan", "CentralPark | $Place=NewYork",
            "Bob | $Place=CentralPark", "Bob | $Place=Manhattan", "Bob | $Place=NewYork"), answers("(LocatedIn, $Place)"));
        assertEquals(list("Manhattan | $Place=NewYork", "CentralPark | $Place=NewYork", "Bob | $Place=NewYork"),
            answers("(LocatedIn, $Place), City($Place)"));
    }

    @Test
    void a08VariablesOnBothSides() {
        // A-08 Variables on both sides; fixed source [001, 004 (derived)]
        chainA06();
        Query both = Query.parse(w, "LocatedIn($x, $y)");
        assertFalse(both.hasThis(), "no entity column");
        assertEquals(list("- | $x=Manhattan $y=NewYork", "- | $x=CentralPark $y=Manhattan", "- | $x=CentralPark $y=NewYork",
            "- | $x=Bob $y=CentralPark", "- | $x=Bob $y=Manhattan", "- | $x=Bob $y=NewYork"), answers(both));
        assertEquals(list("- | $Place=CentralPark", "- | $Place=Manhattan", "- | $Place=NewYork"),
            answers("LocatedIn(Bob, $Place)"));
        assertEquals(1, count("LocatedIn(CentralPark, NewYork)"));
    }

    @Test
    void a09SanFranciscoDistricts() {
        // A-09 San Francisco districts [002]
        build(() -> {
            with("SanFrancisco", "(LocatedIn, US)");
            with("Mission", "(LocatedIn, SanFrancisco)");
            with("SOMA", "(LocatedIn, SanFrancisco)");
            with("e", "(LocatedIn, Mission)");
        });
        assertEquals(list("Mission", "SOMA"), these("(LocatedIn, SanFrancisco)"));
        w.add(w.resolve("LocatedIn"), Builtin.TRANSITIVE);
        assertEquals(list("Mission", "SOMA", "e"), these("(LocatedIn, SanFrancisco)"));
        assertEquals(list("SanFrancisco", "Mission", "SOMA", "e"), these("(LocatedIn, US)"));
        assertEquals(list("e"), these("(LocatedIn, Mission)"));
    }

    @Test
    void a10ReflexiveIsAVersusLocatedIn() {
        // A-10 Reflexive IsA vs non-reflexive LocatedIn [000, 001, 004]
        build(() -> {
            isA("Oak", "Tree");
            isA("Apple", "Fruit");
            isA("GrannySmith", "Apple");
            w.add(e("LocatedIn"), Builtin.TRANSITIVE);
            with("SanFrancisco", "(LocatedIn, UnitedStates)");
        });
        assertEquals(list("Oak", "Tree"), these("(IsA, Tree)"));
        assertEquals(1, count("IsA(Tree, Tree)"));
        assertEquals(0, count("IsA(Tree, Oak)"));
        assertEquals(list("Apple", "Fruit", "GrannySmith"), these("(IsA, Fruit)"));
        assertEquals(list("Apple", "GrannySmith"), these("(IsA, Apple)"));
        assertEquals(0, count("LocatedIn(SanFrancisco, SanFrancisco)"));
        assertEquals(List.of(), these("(LocatedIn, SanFrancisco)"));
        w.add(w.resolve("LocatedIn"), Builtin.REFLEXIVE);
        assertEquals(list("SanFrancisco"), these("(LocatedIn, SanFrancisco)"));
    }

    @Test
    void a11Cycles() {
        // A-11 Cycles [002, 000]
        build(() -> {
            w.add(e("LocatedIn"), Builtin.TRANSITIVE);
            with("A", "(LocatedIn, B)");
            with("B", "(LocatedIn, A)");
        });
        assertEquals(list("A", "B"), these("(LocatedIn, A)"), "each exactly once");
        assertEquals(list("A | $p=A", "A | $p=B", "B | $p=A", "B | $p=B"), answers("(LocatedIn, $p)"));
        assertEquals(List.of(), w.check());
        assertEquals(List.of("cycle in LocatedIn: A -> B -> A"), w.warnings());
        // the same pairs with ChildOf are refused: A (ChildOf, B), then B (ChildOf, A)
        with("A", "(ChildOf, B)");
        long b = w.resolve("B"), a = w.resolve("B.A");
        CycleException cycle = refused(CycleException.class, () -> w.add(b, w.pair(Builtin.CHILD_OF, a)));
        assertTrue(cycle.getMessage().contains("B -> B.A -> B"), cycle.getMessage());
        assertEquals(0, w.targets(b, Builtin.CHILD_OF).length, "B keeps no ChildOf");
    }

    // ------------------------------------------------------------------ IsA inheritance and prefabs

    @Test
    void a12ComponentInheritance() {
        // A-12 Component inheritance [001, 004]
        build(() -> {
            e("Unit");
            isA("MeleeUnit", "Unit");
            isA("RangedUnit", "Unit");
            with("unit_01", "MeleeUnit");
            with("unit_02", "RangedUnit");
        });
        assertEquals(list("unit_01 | - | MeleeUnit", "unit_02 | - | RangedUnit"), rows("Unit"));
        assertEquals(list("unit_01"), these("MeleeUnit"));
        fresh();
        build(() -> w.add(e("Unit"), Builtin.FINAL));
        long melee = e("MeleeUnit");
        long unit = w.resolve("Unit");
        refused(FinalException.class, () -> w.add(melee, w.pair(Builtin.IS_A, unit)));
        assertEquals(List.of(), ids("MeleeUnit"));
    }

    @Test
    void a13ArtworkTaxonomyAndFinal() {
        // A-13 Artwork taxonomy and Final [002, 000]
        build(() -> {
            isA("Painting", "Artwork");
            isA("Portrait", "Painting");
            isA("SelfPortrait", "Portrait");
            with("MonaLisa", "Portrait");
            with("F", "Final");
            e("i");
        });
        assertEquals(list("MonaLisa"), these("Artwork"));
        assertEquals(list("MonaLisa"), these("Painting"));
        assertEquals(list("Artwork", "Painting", "Portrait", "SelfPortrait"), these("(IsA, Artwork)"));
        long i = w.resolve("i"), f = w.resolve("F");
        refused(FinalException.class, () -> w.add(i, w.pair(Builtin.IS_A, f)));
        assertEquals(List.of(), ids("i"), "i is unchanged");
        assertEquals(list("F"), these("(IsA, F)"));
    }

    /** The A-14 world: MaxSpeed and Defense {value}, Inherit unless {@code override}. */
    private void spaceships(boolean override) {
        build(() -> {
            for (String c : new String[] {"MaxSpeed", "Defense"}) {
                long comp = component(c, "value", FieldType.F64);
                if (!override) {
                    w.add(comp, w.pair(Builtin.ON_INSTANTIATE, Builtin.INHERIT));
                }
            }
            setValue("SpaceShip", "MaxSpeed", 100);
            setValue("SpaceShip", "Defense", 50);
            isA("Frigate", "SpaceShip");
            setValue("Frigate", "Defense", 75);
            isA("FastFrigate", "Frigate");
            setValue("FastFrigate", "MaxSpeed", 200);
        });
    }

    private void setValue(String e, String comp, double v) {
        w.set(e(e), w.resolve(comp), Map.of("value", v));
    }

    private double value(String e, String comp) {
        return num(w.get(w.resolve(e), w.resolve(comp)), "value");
    }

    private String owner(String e, String comp) {
        return w.path(w.owner(w.resolve(e), w.resolve(comp)));
    }

    @Test
    void a14SpaceShipValues() {
        // A-14 SpaceShip / Frigate / FastFrigate values [000]
        spaceships(false);
        assertEquals(100, value("Frigate", "MaxSpeed"));
        assertEquals("SpaceShip", owner("Frigate", "MaxSpeed"));
        assertEquals(75, value("Frigate", "Defense"));
        assertEquals("Frigate", owner("Frigate", "Defense"));
        assertEquals(200, value("FastFrigate", "MaxSpeed"));
        assertEquals("FastFrigate", owner("FastFrigate", "MaxSpeed"));
        assertEquals(75, value("FastFrigate", "Defense"));
        assertEquals("Frigate", owner("FastFrigate", "Defense"));
        setValue("SpaceShip", "MaxSpeed", 120);
        assertEquals(120, value("Frigate", "MaxSpeed"));
        assertEquals(200, value("FastFrigate", "MaxSpeed"));
        // variant with the default Override policy
        fresh();
        spaceships(true);
        setValue("SpaceShip", "MaxSpeed", 120);
        assertEquals(100, value("Frigate", "MaxSpeed"));
        assertEquals("Frigate", owner("Frigate", "MaxSpeed"), "a copy made at instantiation");
    }

    /** Rows with the value of field {@code f}: "this value@source". */
    private List<String> valueRows(String text, int f) {
        Query q = Query.parse(w, text);
        List<String> out = new ArrayList<>();
        for (QueryRow r : q.rows(-1)) {
            long src = r.fieldSource(f);
            out.add(w.path(r.thisEntity()) + " " + r.get(f, Double.class)
                + (src == r.thisEntity() ? " self" : " @" + w.path(src)));
        }
        Collections.sort(out);
        assertEquals(out.size(), q.count());
        return out;
    }

    @Test
    void a15QueriesOverA14() {
        // A-15 Queries over A-14 [000, 004]
        spaceships(false);
        assertEquals(list("SpaceShip 100.0 self", "Frigate 100.0 @SpaceShip", "FastFrigate 200.0 self"),
            valueRows("MaxSpeed", 0));
        assertEquals(list("FastFrigate", "SpaceShip"), these("MaxSpeed(self)"));
        assertEquals(list("Frigate 50.0 @SpaceShip", "FastFrigate 75.0 @Frigate"), valueRows("Defense(up IsA)", 0));
        fresh();
        spaceships(true);
        assertEquals(list("FastFrigate", "Frigate", "SpaceShip"), these("MaxSpeed(self)"));
    }

    @Test
    void a16DontInherit() {
        // A-16 DontInherit [000, 004]
        for (boolean alias : new boolean[] {false, true}) {
            if (alias) {
                fresh();
            }
            build(() -> {
                e("TagA");
                w.add(e("TagB"), alias ? Builtin.DONT_INHERIT : w.pair(Builtin.ON_INSTANTIATE, Builtin.DONT_INHERIT));
                with("base", "TagA", "TagB");
                isA("inst", "base");
            });
            long inst = w.resolve("inst");
            assertTrue(w.has(inst, w.resolve("TagA")));
            assertFalse(w.has(inst, w.resolve("TagB")));
            assertEquals(list("base", "inst"), these("TagA"));
            assertEquals(list("base"), these("TagB"));
        }
    }

    @Test
    void a17PrefabInstancesAndSharedValues() {
        // A-17 Prefab instances and shared values [001, 002, 004]
        build(() -> {
            long mass = component("Mass", "value", FieldType.F64);
            w.add(mass, w.pair(Builtin.ON_INSTANTIATE, Builtin.INHERIT));
            long pos = component("Position", "x", FieldType.F64, "y", FieldType.F64);
            with("base", "Prefab");
            setValue("base", "Mass", 10);
            isA("inst_1", "base");
            w.set(e("inst_1"), pos, Map.of("x", 10, "y", 20));
            isA("inst_2", "base");
            w.set(e("inst_2"), pos, Map.of("x", 30, "y", 40));
            setValue("ent_1", "Mass", 20);
            w.set(e("ent_1"), pos, Map.of("x", 40, "y", 50));
            setValue("ent_2", "Mass", 30);
            w.set(e("ent_2"), pos, Map.of("x", 50, "y", 60));
        });
        assertEquals(list("inst_1 10.0 @base", "inst_2 10.0 @base", "ent_1 20.0 self", "ent_2 30.0 self"),
            valueRows("Position, Mass", 1));
        assertEquals(list("ent_1", "ent_2", "inst_1", "inst_2"), these("Mass"));
        assertEquals(list("ent_1", "ent_2"), these("Mass(self)"));
        assertFalse(w.has(w.resolve("inst_1"), Builtin.PREFAB));
        assertEquals(list("base"), these("Prefab"));
    }

    // ------------------------------------------------------------------ traversal

    @Test
    void a18UpTraversalAndOptionalParent() {
        // A-18 Up traversal and optional parent [001, 002, 004]
        build(() -> {
            long pos = component("Position", "x", FieldType.F64, "y", FieldType.F64);
            w.set(e("parent"), pos, Map.of("x", 1, "y", 1));
            w.set(e("child"), pos, Map.of("x", 2, "y", 2));
            w.add(e("child"), w.pair(Builtin.CHILD_OF, e("parent")));
        });
        assertEquals(list("parent.child | - | Position Position@parent"), rows("Position, Position(up)"));
        QueryRow r = Query.parse(w, "Position, Position(up)").rows(-1).get(0);
        assertEquals(Map.of("x", 1.0, "y", 1.0), r.value(1));
        assertEquals(list("parent | - | Position -", "parent.child | - | Position Position@parent"),
            rows("Position, ?Position(up)"));
        for (QueryRow o : Query.parse(w, "Position, ?Position(up)").rows(-1)) {
            if (o.fieldSet(1)) {
                assertEquals(Map.of("x", 1.0, "y", 1.0), o.value(1));
            }
        }
        assertEquals(list("parent.child"), these("Position(up)"));
        assertEquals(list("parent", "parent.child"), these("Position(self|up)"));
    }

    @Test
    void a19TraversalThroughInheritedComponent() {
        // A-19 Traversal through an inherited component; Traversable required [001, 004]
        build(() -> {
            long mass = component("Mass", "value", FieldType.F64);
            w.add(mass, w.pair(Builtin.ON_INSTANTIATE, Builtin.INHERIT));
            with("base", "Prefab");
            setValue("base", "Mass", 100);
            isA("parent", "base");
            w.add(e("child"), w.pair(Builtin.CHILD_OF, e("parent")));
            e("Position");
            e("LocatedIn");
        });
        Query up = Query.parse(w, "Mass(up)");
        assertEquals(list("parent.child"), these(up));
        QueryRow r = up.rows(-1).get(0);
        assertEquals(100.0, r.get(0, Double.class));
        assertEquals(w.resolve("base"), w.owner(r.fieldSource(0), w.resolve("Mass")), "owner base");
        assertEquals(list("parent"), these("Mass"));
        assertThrows(QueryValidationException.class, () -> Query.parse(w, "Position(up LocatedIn)"));
    }

    /** The rows' $this paths in the order the query gives them. */
    private List<String> ordered(CachedQuery q) {
        List<String> out = new ArrayList<>();
        q.forEach(r -> out.add(w.name(r.thisEntity())));
        return out;
    }

    @Test
    void a20CascadeOrderAndDirectChildren() {
        // A-20 Cascade order and direct children [001, 002, 004]
        build(() -> {
            long t = component("Transform", "x", FieldType.F64);
            long root = e("root");
            long a = w.entity(), c = w.entity(), b = w.entity(); // ids ordered root < a < c < b
            w.rename(a, "a");
            w.rename(c, "c");
            w.rename(b, "b");
            w.add(a, w.pair(Builtin.CHILD_OF, root));
            w.add(c, w.pair(Builtin.CHILD_OF, root));
            w.add(b, w.pair(Builtin.CHILD_OF, a));
            for (long x : new long[] {root, a, c, b}) {
                w.set(x, t, Map.of("x", 1));
            }
        });
        assertTrue(w.resolve("root") < w.resolve("root.a") && w.resolve("root.a") < w.resolve("root.c")
            && w.resolve("root.c") < w.resolve("root.a.b"));
        try (CachedQuery asc = CachedQuery.parse(w, "Transform, ?Transform(cascade)");
             CachedQuery desc = CachedQuery.parse(w, "Transform, ?Transform(cascade|desc)")) {
            assertEquals(List.of("root", "a", "c", "b"), ordered(asc));
            assertEquals(List.of("b", "a", "c", "root"), ordered(desc));
        }
        assertEquals(list("root.a", "root.c"), these("(ChildOf, root)"));
    }

    // ------------------------------------------------------------------ operators and variables

    @Test
    void a21OrChain() {
        // A-21 Or chain [001, 002, 004]
        build(() -> {
            with("e1", "Position", "Velocity", "Mass");
            with("e2", "Position", "Speed", "Mass");
            with("e3", "Position", "Mass");
            with("e4", "Position", "Velocity", "Speed", "Mass");
        });
        Query q = Query.parse(w, "Position, Velocity || Speed, Mass");
        assertEquals(3, q.fieldCount());
        assertEquals(list("e1 | - | Position Velocity Mass", "e2 | - | Position Speed Mass", "e4 | - | Position Velocity Mass"),
            rows(q));
    }

    @Test
    void a22NotScopeVersusPlainNot() {
        // A-22 Not-scope vs plain Not [001, 004]
        build(() -> {
            for (String p : new String[] {"P1", "P2", "P3", "P4"}) {
                with(p, "Position");
            }
            with("P1.c1", "Position");
            e("P2.c2");
            with("P4.c3", "Position");
            e("P4.c4");
        });
        assertEquals(list("P2", "P3", "P1.c1", "P4.c3"), these("Position($this), !{ ChildOf($child, $this), Position($child) }"));
        assertEquals(list("P2 | $child=P2.c2", "P4 | $child=P4.c4"), answers("Position($this), ChildOf($child, $this), !Position($child)"));
    }

    @Test
    void a23OptionalWithDependentTerm() {
        // A-23 Optional with a dependent term [001, 004]
        build(() -> {
            with("Earth", "Planet");
            with("ship1", "SpaceShip", "(DockedTo, Earth)");
            with("ship2", "SpaceShip");
        });
        assertEquals(list("ship1 | $planet=Earth", "ship2 | $planet=*"), answers("SpaceShip, ?(DockedTo, $planet), Planet($planet)"));
        assertEquals(list("ship1 | $planet=Earth | SpaceShip (DockedTo,Earth) Planet@Earth", "ship2 | $planet=* | SpaceShip - -"),
            rows("SpaceShip, ?(DockedTo, $planet), Planet($planet)"));
        Query q = Query.parse(w, "SpaceShip($this), DockedTo($this, $Location), Planet($Location)");
        assertEquals(list("ship1"), these(q));
        assertEquals(list("ship1"), these(q.set("Location", w.resolve("Earth"))));
        assertEquals(List.of(), these(q.set("Location", w.resolve("ship2"))));
    }

    @Test
    void a24VariableJoins() {
        // A-24 Variable joins [002]
        build(() -> {
            with("Alice", "(Likes, Bob)", "(Likes, Carol)", "(Colleague, Bob)");
            with("Dave", "(Likes, Carol)");
        });
        assertEquals(list("Alice | $X=Bob"), answers("(Likes, $X), (Colleague, $X)"));
        assertEquals(list("Alice", "Alice"), these("(Likes, *), (Colleague, *)"));
        assertEquals(list("Alice | $R=Likes $X=Bob", "Alice | $R=Colleague $X=Bob", "Alice | $R=Likes $X=Carol",
            "Dave | $R=Likes $X=Carol"), answers("(Likes, $X), ($R, $X)"));
    }

    @Test
    void a25EqualityAndNameMatching() {
        // A-25 Equality and name matching [001, 004]
        build(() -> {
            with("Foo", "T");
            with("Food", "T");
            with("Bar", "T");
        });
        assertEquals(list("Foo"), these("T, $this == Foo"));
        assertEquals(list("Food", "Bar"), these("T, $this != Foo"));
        assertEquals(list("Foo", "Food"), these("T, $this ~= \"Fo\""));
        assertEquals(List.of(), these("T, $this == \"Baz\""));
        assertThrows(UnknownQueryNameException.class, () -> Query.parse(w, "T, $this == Baz"));
        // the builder spells the same predicates
        assertEquals(list("Foo", "Food"), these(new QueryBuilder().with("T").matchName("$this", "Fo").build(w)));
        assertEquals(list("Food", "Bar"), these(new QueryBuilder().with("T").neq("$this", "Foo").build(w)));
    }

    @Test
    void a26AndFromOrFromNotFrom() {
        // A-26 AndFrom / OrFrom / NotFrom [001, 004]
        build(() -> {
            with("type_list", "Prefab", "Position", "Velocity", "(ChildOf, Lists)");
            with("e1", "Tagged", "Position", "Velocity");
            with("e2", "Tagged", "Position");
            with("e3", "Tagged", "Velocity");
            with("e4", "Tagged");
        });
        assertEquals(list("e1"), these("Tagged, and | Lists.type_list"));
        assertEquals(list("e1", "e2", "e3"), these("Tagged, or | Lists.type_list"));
        assertEquals(list("e4"), these("Tagged, not | Lists.type_list"));
        assertEquals(list("e1"), these(new QueryBuilder().with("Tagged").andFrom("Lists.type_list").build(w)));
        assertThrows(QueryValidationException.class, () -> Query.parse(w, "Tagged, [in] and | Lists.type_list"));
    }

    @Test
    void a27MemberValueQueries() {
        // A-27 Member-value queries [004]
        build(() -> {
            long movement = component("Movement", "value", FieldType.ENTITY);
            w.set(e("e1"), movement, Map.of("value", e("Left")));
            w.set(e("e2"), movement, Map.of("value", e("Right")));
        });
        assertEquals(list("e1"), these("Movement.value($this, Left)"));
        assertEquals(list("e1", "e2"), these("Movement.value($this, *)"));
        assertEquals(list("e2 | $d=Right"), answers("Movement.value($this, $d), $d != Left"));
    }

    @Test
    void a28SingletonAndLookupVariable() {
        // A-28 Singleton and lookup variable [001, 002, 004]
        build(() -> {
            long input = component("Input", "keys", FieldType.I32);
            w.set(input, input, Map.of("keys", 3));
            with("p1", "Player", "Position");
            with("p2", "Player");
            with("ship_a", "SpaceShip");
            with("ship_b", "SpaceShip");
            with("ship_c", "SpaceShip");
            with("ship_a.cockpit", "Powered");
            e("ship_b.cockpit");
        });
        // Flecs v4.1 removed the `$` source (conformance NOTES K10) and Quiver follows it, refusing
        // `Input($)`; the example's query is written with its expansion `Input(Input)` (QL-06).
        assertEquals(list("p1 | - | Player Position Input@Input"), rows("Player, Position, Input(Input)"));
        w.remove(w.resolve("Input"), w.resolve("Input"));
        assertEquals(List.of(), rows("Player, Position, Input(Input)"));
        assertEquals(list("ship_b"), these("SpaceShip($this), !Powered($this.cockpit)"));
    }

    // ------------------------------------------------------------------ names and scopes

    @Test
    void a29PathsRelativeLookupScope() {
        // A-29 Paths, relative lookup, scope [000, 002, 004]
        long[] made = new long[3];
        build(() -> {
            long parent = e("Parent");
            long child = e("Child");
            w.add(child, w.pair(Builtin.CHILD_OF, parent));
            long prev = w.setScope(parent);
            made[0] = e("A");
            made[1] = w.entity();
            assertEquals(parent, w.setScope(prev), "setting a scope returns the previous one");
            made[2] = prev;
        });
        assertEquals(0, made[2]);
        assertEquals(0, w.scope());
        long parent = w.resolve("Parent");
        long child = w.resolve("Parent.Child");
        assertEquals(child, w.lookup("Parent.Child"));
        assertEquals(child, w.lookup("Parent::Child"));
        assertEquals(child, w.lookup(parent, "Child"), "relative to Parent");
        assertEquals(0, w.lookup("Child"), "not found from the root");
        assertEquals("Parent.Child", w.path(child));
        assertEquals("Parent.A", w.path(made[0]));
        assertTrue(w.has(made[1], pair("ChildOf", "Parent")));
        assertEquals(list("Parent.Child", "Parent.A", w.path(made[1])), these("(ChildOf, Parent)"));
    }

    // ------------------------------------------------------------------ cleanup

    @Test
    void a30DefaultRemove() {
        // A-30 Default Remove [000, 003]
        build(() -> {
            with("e", "Archer");
            with("Bob", "(Likes, Alice)");
            with("Carol", "(Likes, Bob)");
        });
        long e = w.resolve("e");
        w.delete(w.resolve("Archer"));
        assertTrue(w.isAlive(e));
        assertEquals(List.of(), ids("e"));
        w.delete(w.resolve("Alice"));
        assertTrue(w.isAlive(w.resolve("Bob")));
        assertEquals(list("Carol"), these("(Likes, *)"));
        w.delete(w.resolve("Likes"));
        assertTrue(w.isAlive(w.resolve("Carol")));
        assertEquals(List.of(), ids("Carol"));
        assertEquals(List.of(), these("(*, Bob)"));
    }

    @Test
    void a31OnDeleteDeleteAndPanic() {
        // A-31 (OnDelete, Delete) and Panic [000]
        build(() -> {
            with("Archer", "(OnDelete, Delete)");
            with("e", "Archer");
            with("Node", "(OnDelete, Panic)");
            with("n", "Node");
            long pos = component("Position", "x", FieldType.F64);
            w.set(e("p"), pos, Map.of("x", 1));
        });
        long e = w.resolve("e"), node = w.resolve("Node"), n = w.resolve("n"), pos = w.resolve("Position");
        w.delete(w.resolve("Archer"));
        assertFalse(w.isAlive(e));
        refused(CleanupPanicException.class, () -> w.delete(node));
        assertTrue(w.isAlive(node) && w.isAlive(n));
        assertTrue(w.has(n, node));
        refused(CleanupPanicException.class, () -> w.delete(pos));
        assertTrue(w.has(w.resolve("p"), pos));
    }

    /** The A-32 world. */
    private void hierarchyA32() {
        build(() -> {
            e("p.c.g");
            with("x", "(Likes, p.c.g)");
            e("q");
            e("p.o");
        });
    }

    @Test
    void a32ChildOfCascadeReparentOrphan() {
        // A-32 ChildOf cascade, reparent, orphan [000, 003]
        hierarchyA32();
        long p = w.resolve("p"), c = w.resolve("p.c"), g = w.resolve("p.c.g"), o = w.resolve("p.o"), q = w.resolve("q");
        long x = w.resolve("x");
        w.add(c, w.pair(Builtin.CHILD_OF, q));
        assertArrayEquals(new long[] {q}, w.targets(c, Builtin.CHILD_OF), "one ChildOf, target q");
        w.remove(o, w.pair(Builtin.CHILD_OF, p));
        assertEquals(0, w.parent(o), "o is a root");
        w.delete(p);
        assertFalse(w.isAlive(p));
        assertTrue(w.isAlive(c) && w.isAlive(g) && w.isAlive(o) && w.isAlive(q) && w.isAlive(x), "only p is deleted");
        w.delete(q);
        assertFalse(w.isAlive(q) || w.isAlive(c) || w.isAlive(g));
        assertTrue(w.isAlive(x));
        assertFalse(w.has(x, pair("Likes", "*")), "x has no Likes");
        // the same world without the reparent and the orphaning
        fresh();
        hierarchyA32();
        long p2 = w.resolve("p"), c2 = w.resolve("p.c"), g2 = w.resolve("p.c.g"), o2 = w.resolve("p.o");
        w.delete(p2);
        assertFalse(w.isAlive(p2) || w.isAlive(c2) || w.isAlive(g2) || w.isAlive(o2));
    }

    @Test
    void a33OnDeleteTargetDeleteSeveralTargets() {
        // A-33 LocatedIn (OnDeleteTarget, Delete), several targets [000, RG-1]
        for (String spelling : new String[] {"OnDeleteTarget", "OnDeleteObject"}) {
            if (spelling.equals("OnDeleteObject")) {
                fresh();
            }
            build(() -> {
                w.add(e("LocatedIn"), Builtin.TRANSITIVE);
                w.add(e("LocatedIn"), w.id("(" + spelling + ", Delete)"));
                with("NewYork", "(LocatedIn, USA)");
                with("Boston", "(LocatedIn, USA)");
                with("Manhattan", "(LocatedIn, NewYork)");
                with("Twin", "(LocatedIn, NewYork)", "(LocatedIn, Boston)");
                with("Alice", "(Likes, Manhattan)");
            });
            long ny = w.resolve("NewYork"), manhattan = w.resolve("Manhattan"), twin = w.resolve("Twin");
            long usa = w.resolve("USA"), boston = w.resolve("Boston"), alice = w.resolve("Alice");
            w.delete(ny);
            assertFalse(w.isAlive(ny) || w.isAlive(manhattan) || w.isAlive(twin), spelling);
            assertTrue(w.isAlive(usa) && w.isAlive(boston) && w.isAlive(alice), spelling);
            assertEquals(List.of(), ids("Alice"), "Alice has no Likes");
            assertEquals(list("Boston"), these("(LocatedIn, USA)"));
            assertEquals(list("Boston | - | (LocatedIn,USA)"), rows("(LocatedIn, *)"));
        }
    }

    // ------------------------------------------------------------------ relationship traits

    @Test
    void a34ExclusiveAndUnion() {
        // A-34 Exclusive and Union [000, 003]
        build(() -> {
            long child = e("child");
            w.add(child, pair("ChildOf", "parent_a"));
            w.add(child, pair("ChildOf", "parent_b"));
            with("Movement", "Union");
            with("e", "(Movement, Running)");
            with("e", "(Movement, Walking)");
        });
        long child = w.resolve("parent_b.child");
        assertEquals(list("- | - | (ChildOf,parent_b)@parent_b.child"), rows(Query.parse(w, "ChildOf(parent_b.child, *)")));
        assertArrayEquals(new long[] {w.resolve("parent_b")}, w.targets(child, Builtin.CHILD_OF));
        assertEquals(List.of(), these("(ChildOf, parent_a)"));
        assertEquals(List.of("(Movement,Walking)"), ids("e"));
        long e = w.resolve("e");
        w.remove(e, pair("Movement", "Running"));
        assertEquals(List.of("(Movement,Walking)"), ids("e"), "e keeps Walking");
        w.remove(e, w.id("(Movement, *)"));
        assertEquals(List.of(), ids("e"));
        assertFalse(w.has(e, w.id("(Movement, *)")));
    }

    @Test
    void a35Symmetric() {
        // A-35 Symmetric [000]
        build(() -> {
            with("MarriedTo", "Symmetric");
            with("Bob", "(MarriedTo, Alice)");
        });
        assertTrue(w.has(w.resolve("Alice"), pair("MarriedTo", "Bob")));
        assertEquals(2, rows("(MarriedTo, *)").size());
        w.remove(w.resolve("Alice"), pair("MarriedTo", "Bob"));
        assertFalse(w.has(w.resolve("Bob"), pair("MarriedTo", "Alice")));
        // variant: MarriedTo is also Exclusive
        fresh();
        build(() -> {
            with("MarriedTo", "Symmetric", "Exclusive");
            with("Bob", "(MarriedTo, Alice)");
        });
        with("Bob", "(MarriedTo, Carol)");
        assertEquals(List.of("(MarriedTo,Carol)"), ids("Bob"));
        assertEquals(List.of("(MarriedTo,Bob)"), ids("Carol"));
        assertFalse(w.has(w.resolve("Alice"), w.id("(MarriedTo, *)")), "Alice has no MarriedTo");
    }

    @Test
    void a36WithAndOneOf() {
        // A-36 With and OneOf [000]
        build(() -> {
            with("Power", "(With, Responsibility)");
            with("Loves", "(With, Likes)");
            with("Food", "OneOf");
            e("Food.Apples");
            e("Fork");
            e("Pears");
            with("Eats", "(OneOf, Food)");
        });
        long e = e("e"), e2 = e("e2");
        w.add(e, w.resolve("Power"));
        assertTrue(w.has(e, w.resolve("Responsibility")));
        w.add(e2, pair("Loves", "Pears"));
        assertTrue(w.has(e2, pair("Likes", "Pears")));
        long food = w.resolve("Food"), apples = w.resolve("Food.Apples"), fork = w.resolve("Fork"), eats = w.resolve("Eats");
        long f = e("f"), g = e("g");
        w.add(f, w.pair(food, apples));
        assertTrue(w.has(f, w.pair(food, apples)));
        refused(OneOfException.class, () -> w.add(f, w.pair(food, fork)));
        w.add(g, w.pair(eats, apples));
        assertTrue(w.has(g, w.pair(eats, apples)));
        refused(OneOfException.class, () -> w.add(g, w.pair(eats, fork)));
        assertEquals(List.of("(Food,Food.Apples)"), ids("f"));
        assertEquals(List.of("(Eats,Food.Apples)"), ids("g"));
    }

    // ------------------------------------------------------------------ Tecs

    @Test
    void a37DataBearingRelationship() {
        // A-37 Data-bearing relationship, upsert, remove one vs all [003]
        Schema fields = Schema.of("delay", FieldType.F64, "maxDistance", FieldType.F64)
            .withDefaults(Map.of("delay", 0.5, "maxDistance", 100));
        long follows = new RelationshipSpec("Follows", false, false, false, false, fields, null).define(w);
        long targets = new RelationshipSpec("Targets", true, false, false, false, null, null).define(w);
        long t = e("t"), u = e("u");
        long[] x = {e("x1"), e("x2"), e("x3"), e("x4")};
        build(() -> {
            w.add(x[0], w.pair(follows, t));                                             // Follows(t)
            w.set(x[1], w.pair(follows, t), new Object[] {0.2});                          // Follows(t, 0.2)
            w.set(x[2], w.pair(follows, t), new Object[] {0.2, 50});                      // Follows(t, 0.2, 50)
            w.set(x[3], w.pair(follows, t), Map.of("delay", 0.2, "maxDistance", 50));     // Follows.new({...})
        });
        assertEquals(Map.of("delay", 0.5, "maxDistance", 100.0), w.get(x[0], w.pair(follows, t)));
        assertArrayEquals(new long[] {t}, w.targets(x[0], follows), "the target is the pair's");
        assertEquals(Map.of("delay", 0.2, "maxDistance", 100.0), w.get(x[1], w.pair(follows, t)));
        assertEquals(Map.of("delay", 0.2, "maxDistance", 50.0), w.get(x[2], w.pair(follows, t)));
        assertEquals(w.get(x[2], w.pair(follows, t)), w.get(x[3], w.pair(follows, t)));
        long e = e("e");
        w.set(e, w.pair(follows, t), new Object[] {0.3});
        w.set(e, w.pair(follows, t), new Object[] {0.9});
        assertEquals(List.of("(Follows,t)"), ids("e"));
        assertEquals(Map.of("delay", 0.9, "maxDistance", 100.0), w.get(e, w.pair(follows, t)));
        w.add(e, w.pair(follows, u));
        assertEquals(2, w.targets(e, follows).length);
        w.remove(e, w.pair(follows, u));
        assertEquals(1, w.targets(e, follows).length);
        w.remove(e, w.pair(follows, Ids.WILDCARD));
        assertEquals(0, w.targets(e, follows).length);
        assertFalse(these("(Follows, *)").contains("e"));
        assertFalse(these("(Follows, _)").contains("e"));
        w.add(e, w.pair(targets, e("enemy1")));
        w.add(e, w.pair(targets, e("enemy2")));
        assertArrayEquals(new long[] {w.resolve("enemy2")}, w.targets(e, targets));
        // an init that asserts a required field
        Schema aim = Schema.of("reason", FieldType.STRING, "delay", FieldType.F64);
        long aims = new RelationshipSpec("Aims", false, false, false, false, aim, (ent, id, v) -> {
            if (((String) v.get("reason")).isEmpty()) {
                throw new ValidationException("Aims needs a reason");
            }
            return v;
        }).define(w);
        long shooter = e("shooter");
        w.set(shooter, w.pair(aims, t), Map.of("reason", "guard", "delay", 1.0));
        refused(ValidationException.class, () -> w.set(shooter, w.pair(aims, u), Map.of("delay", 2.0)));
        assertEquals(List.of("(Aims,t)"), ids("shooter"));
    }

    @Test
    void a38ChildOfWithCascadeDeleteAndReverseIndex() {
        // A-38 Sparse ChildOf with cascadeDelete and the reverse index [003]
        // Quiver's builtin ChildOf is Exclusive, has the reverse index and (OnDeleteTarget, Delete)
        // already (sparse storage is Quiver's choice: the answers are the same either way).
        long[] n = new long[4];
        build(() -> {
            n[0] = e("root");
            n[1] = w.entity();
            n[2] = w.entity();
            n[3] = w.entity();
            w.add(n[1], w.pair(Builtin.CHILD_OF, n[0]));
            w.add(n[2], w.pair(Builtin.CHILD_OF, n[0]));
            w.add(n[3], w.pair(Builtin.CHILD_OF, n[1]));
            w.rename(n[1], "a");
            w.rename(n[2], "b");
            w.rename(n[3], "a1");
        });
        long root = n[0], a = n[1], b = n[2], a1 = n[3];
        assertTrue(root < a && a < b && b < a1);
        assertTrue(w.has(Builtin.CHILD_OF, Builtin.EXCLUSIVE));
        assertTrue(w.has(Builtin.CHILD_OF, w.pair(Builtin.ON_DELETE_TARGET, Builtin.DELETE)));
        assertEquals(List.of("root.a", "root.b"), sources(root));
        List<String> walk = new ArrayList<>();
        RelationshipWalks.traverse(w, root, Builtin.CHILD_OF, (x, depth) -> walk.add("(" + depth + ", " + w.name(x) + ")"));
        assertEquals(List.of("(1, a)", "(2, a1)", "(1, b)"), walk, "traverse(root, ChildOf), in order");
        assertEquals(list("root.a", "root.b", "root.a.a1"), these("(ChildOf, _)"));
        assertEquals(list("root.a.a1"), these("(ChildOf, root.a)"));
        w.delete(a);
        assertFalse(w.isAlive(a) || w.isAlive(a1));
        assertEquals(List.of("root.b"), sources(root));
        w.remove(b, w.pair(Builtin.CHILD_OF, Ids.WILDCARD));
        w.delete(root);
        assertTrue(w.isAlive(b), "b survives");
        assertEquals(0, w.parent(b));
    }

    /** Tecs targets(T, ChildOf): the direct holders of (ChildOf, T), through the reverse index. */
    private List<String> sources(long target) {
        List<String> out = new ArrayList<>();
        w.forEachSource(Builtin.CHILD_OF, target, s -> out.add(w.path(s)));
        Collections.sort(out);
        return out;
    }

    @Test
    void a39WalkUpEarlyStopMaxDepth() {
        // A-39 walkUp, early stop, maxDepth [003]
        build(() -> {
            e("c.b.a");
            with("x", "(R, y)");
            with("y", "(R, x)");
        });
        long a = w.resolve("c.b.a");
        assertFalse(w.has(w.resolve("R"), Builtin.ACYCLIC));
        List<String> calls = new ArrayList<>();
        RelationshipWalks.walkUp(w, a, Builtin.CHILD_OF, (x, depth) -> calls.add("(" + w.name(x) + ", " + depth + ")"));
        assertEquals(List.of("(b, 1)", "(c, 2)"), calls);
        calls.clear();
        RelationshipWalks.walkUp(w, a, Builtin.CHILD_OF, (x, depth) -> calls.add("(" + w.name(x) + ", " + depth + ")")
            && !w.name(x).equals("b"));
        assertEquals(List.of("(b, 1)"), calls, "false at b stops");
        calls.clear();
        assertThrows(MaxDepthExceededException.class, () -> RelationshipWalks.walkUp(w, a, Builtin.CHILD_OF,
            (x, depth) -> calls.add("(" + w.name(x) + ", " + depth + ")"), 1));
        assertEquals(List.of("(b, 1)"), calls);
        int[] levels = {0};
        assertThrows(MaxDepthExceededException.class, () -> RelationshipWalks.walkUp(w, w.resolve("x"), w.resolve("R"),
            (x, depth) -> ++levels[0] > 0));
        assertEquals(100, levels[0], "100 levels, then the error");
    }
}
