package dev.quiver.snapshots.script;

import dev.quiver.storage.Builtin;
import dev.quiver.storage.ConstraintException;
import dev.quiver.storage.World;
import dev.quiver.storage.WorldPages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FlecsScriptLoaderTest {
    @TempDir
    Path tmp;

    private World w;

    @BeforeEach
    void open() {
        w = World.create(tmp.resolve("w"));
    }

    @AfterEach
    void close() {
        assertEquals(List.of(), w.check());
        w.close();
    }

    private FlecsScriptLoader.Result load(String script) {
        return new FlecsScriptLoader(w).load(Path.of("t.flecs"), script);
    }

    private long e(String path) {
        return w.resolve(path);
    }

    private boolean has(String entity, String id) {
        return w.has(e(entity), w.id(id));
    }

    /** Every persistent page: equal fingerprints mean equal committed states. */
    private Map<String, String> fingerprint() {
        Map<String, String> pages = new TreeMap<>();
        WorldPages.forEach(w, (map, key, blob) -> pages.put(map + "/" + key, Arrays.hashCode(blob) + ":" + blob.length));
        return pages;
    }

    @Test
    void loadsEveryConstructOfTheSubset() {
        FlecsScriptLoader.Result r = load(String.join("\n",
                "// a comment",
                "using flecs.meta",
                "/* a block",
                "   comment */",
                "struct Position {",
                "  x = f32",
                "  y = f32",
                "}",
                "struct Stats {",
                "  hp = i32",
                "  xp = i64",
                "  speed = f64",
                "  alive = bool",
                "  label = string",
                "}",
                "Likes {}",
                "Npc {}",
                "Rel { Transitive; (OnDeleteTarget, Delete) }",
                "hero {",
                "  Npc",
                "  Position: {x: 1.5, y: -2}",
                "  Stats: {100, 5000000000, 0.5, true, \"Hero \\\"one\\\"\"}",
                "}",
                "Npc villager",
                "Npc troll { Position: {3} }",
                "hero { (Likes, villager) }",
                "house { kitchen { lamp { Npc } } }",
                "a.b.c {}",
                "prefab Base { Position: {y: 7} }",
                "inst : Base {}",
                "Npc guard : Base",
                "x { (Rel, hero) }; y { (Rel, x) }",
                "ghost { Position }",
                ""));
        assertTrue(r.statements() > 20, "statements " + r.statements());
        assertTrue(has("hero", "Npc") && has("villager", "Npc") && has("troll", "Npc"));
        assertEquals(Map.of("x", 1.5f, "y", -2.0f), w.get(e("hero"), e("Position")));
        Map<String, Object> stats = w.get(e("hero"), e("Stats"));
        assertEquals(100, stats.get("hp"));
        assertEquals(5000000000L, stats.get("xp"));
        assertEquals(0.5, stats.get("speed"));
        assertEquals(true, stats.get("alive"));
        assertEquals("Hero \"one\"", stats.get("label"));
        assertEquals(Map.of("x", 3.0f, "y", 0.0f), w.get(e("troll"), e("Position")));
        assertEquals(Map.of("x", 0.0f, "y", 0.0f), w.get(e("ghost"), e("Position")));
        assertTrue(has("hero", "(Likes, villager)"));
        assertEquals(e("house.kitchen"), w.parent(e("house.kitchen.lamp")));
        assertTrue(has("house.kitchen.lamp", "Npc"));
        assertEquals(e("a.b"), w.parent(e("a.b.c")));
        assertTrue(w.has(e("Base"), Builtin.PREFAB));
        assertTrue(w.has(e("inst"), w.pair(Builtin.IS_A, e("Base"))));
        assertTrue(w.has(e("guard"), w.pair(Builtin.IS_A, e("Base"))) && has("guard", "Npc"));
        assertTrue(w.has(e("Rel"), Builtin.TRANSITIVE) && has("Rel", "(OnDeleteTarget, Delete)"));
        assertTrue(has("y", "(Rel, x)") && has("x", "(Rel, hero)"));
    }

    @Test
    void namesResolveFromTheInnermostScopeOutward() {
        load(String.join("\n",
                "Likes {}",
                "b {}",
                "a { b {} }",
                "a { c { (Likes, b) } }",
                "d { (Likes, b) }",
                "a { T {} }",
                "a { e { T } }"));
        assertTrue(has("a.c", "(Likes, a.b)"));
        assertFalse(has("a.c", "(Likes, b)"));
        assertTrue(has("d", "(Likes, b)"));
        assertTrue(has("a.e", "a.T"));
    }

    @Test
    void traitsPairValuesSingletonsAndOneOf() {
        load(String.join("\n",
                "using flecs.meta",
                "struct Position {",
                "  x = f32",
                "  y = f32",
                "}",
                "struct Amount {",
                "  value = i32",
                "}",
                "struct TimeOfDay {",
                "  hour = f32",
                "}",
                "TimeOfDay { Singleton }",
                "Start {}",
                "Gold {}",
                "TradesWith { Symmetric }",
                "Ruler { Exclusive }",
                "Mode { Exclusive; OneOf }",
                "Mode.On {}",
                "Mode.Off {}",
                "Loves {}",
                "Likes { (With, Loves) }",
                "route { (Start, Position): {1, 2} }",
                "ann { (Amount, Gold): {30} }",
                "$ { TimeOfDay: {hour: 6.5} }",
                "rome {}",
                "carthage { (TradesWith, rome) }",
                "egypt {}",
                "p1 {}",
                "p2 {}",
                "egypt { (Ruler, p1) }",
                "egypt { (Ruler, p2) }",
                "lamp { (Mode, On) }",
                "pippin { (Likes, rome) }"));
        assertEquals(Map.of("x", 1.0f, "y", 2.0f), w.get(e("route"), w.id("(Start, Position)")));
        assertEquals(Map.of("value", 30), w.get(e("ann"), w.id("(Amount, Gold)")));
        assertEquals(Map.of("hour", 6.5f), w.get(e("TimeOfDay"), e("TimeOfDay")));
        assertTrue(has("rome", "(TradesWith, carthage)"));
        assertArrayEquals(new long[] {e("p2")}, w.targets(e("egypt"), e("Ruler")));
        assertTrue(has("lamp", "(Mode, Mode.On)"));
        assertTrue(has("pippin", "(Loves, rome)"));
    }

    @Test
    void loadsAFileAndCountsEntities() throws IOException {
        Path f = Files.writeString(tmp.resolve("w.flecs"), "a {}\r\nb { c {} }\r\n");
        FlecsScriptLoader.Result r = new FlecsScriptLoader(w).load(f);
        assertEquals(3, r.entities());
        assertEquals(f, r.file());
        assertEquals(e("b"), w.parent(e("b.c")));
    }

    @Test
    void aMissingFileIsBadInput() {
        Path f = tmp.resolve("none.flecs");
        var ex = assertThrows(dev.quiver.snapshots.SnapshotException.class, () -> new FlecsScriptLoader(w).load(f));
        assertTrue(ex.getMessage().contains("does not exist"), ex.getMessage());
    }

    /** Each bad script fails at file:line:column with the message fragment, and the world is unchanged. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "T {}\\na { U }                                | 2 | 5  | unresolved identifier 'U'",
        "a { (Likes, b) }                             | 1 | 6  | unresolved identifier 'Likes'",
        "foo                                          | 1 | 1  | needs a scope",
        "T {}\\nT foo bar                             | 2 | 7  | expected the end of the statement",
        "struct P {\\n  x = f32\\n}                   | 1 | 1  | 'struct' needs 'using flecs.meta'",
        "using flecs.meta\\nstruct P { x = f32 }      | 2 | 12 | own line",
        "using flecs.meta\\nstruct P {\\n  x = u8\\n} | 3 | 7  | unknown member type 'u8'",
        "using flecs.meta\\nstruct P {\\n  x = f32\\n}\\na { P: {y: 1} }  | 5 | 9  | has no member 'y'",
        "using flecs.meta\\nstruct P {\\n  x = f32\\n}\\na { P: {1, 2} }   | 5 | 12 | too many values",
        "using flecs.meta\\nstruct P {\\n  x = f32\\n}\\na { P: {\"s\"} }  | 5 | 8  | is a number",
        "using flecs.meta\\nstruct P {\\n  x = f32\\n}\\na { P: {x: y} }  | 5 | 12 | expected a value",
        "T {}\\na { T: {1} }                          | 2 | 5  | is a tag and carries no value",
        "using mymodule                               | 1 | 7  | only 'using flecs.meta'",
        "a { \"x\" }                                  | 1 | 5  | expected a statement",
        "a { b {}                                     | 1 | 9  | missing '}'",
        "a { # }                                      | 1 | 5  | unexpected character '#'",
        "a { /* open                                  | 1 | 5  | unterminated comment",
        "using flecs.meta\\nstruct P {\\n  s = string\\n}\\na { P: {\"abc} }  | 5 | 9  | unterminated string",
        "R { OneOf }\\nR.x {}\\na { (R, R.x) }        | 3 | 9  | not found in 'R'",
        "R { OneOf }\\nR.x {}\\nb {}\\na { (R, b) }   | 4 | 9  | not found in 'R'",
        "F { Final }\\nb : F {}                       | 2 | 5  | Final",
        "using flecs.meta\\nstruct S {\\n  v = f32\\n}\\nS { Singleton }\\na { S }  | 6 | 5  | Singleton",
        "using flecs.meta\\nstruct P {\\n  x = f32\\n}\\nP e {}  | 5 | 1  | a kind must be a tag",
        "Prefab {}                                    | 1 | 1  | names a builtin",
        "R {}\\na { (R, a) }\\nR { Exclusive }        | 3 | 5  | in use",
    })
    void badScriptsFailAtTheirPositionAndChangeNothing(String script, int line, int column, String fragment) {
        load("Base {}\nkeep { Base }\n");
        Map<String, String> before = fingerprint();
        String text = script.strip().replace("\\n", "\n");
        FlecsScriptException ex = assertThrows(FlecsScriptException.class, () -> load(text));
        assertTrue(ex.getMessage().contains(fragment), () -> "'" + fragment + "' not in: " + ex.getMessage());
        assertEquals(line, ex.line(), ex::getMessage);
        assertEquals(column, ex.column(), ex::getMessage);
        assertTrue(ex.getMessage().startsWith("t.flecs:" + line + ":" + column + ": "), ex.getMessage());
        assertEquals(before, fingerprint(), "the world changed");
        assertEquals(0, w.lookup("a"));
        assertNotEquals(0, w.lookup("keep"));
    }

    @Test
    void aWorldRefusalKeepsItsCause() {
        FlecsScriptException ex = assertThrows(FlecsScriptException.class,
                () -> load("R {}\na { (R, a) }\nR { Exclusive }"));
        assertInstanceOf(ConstraintException.class, ex.getCause());
    }
}
