package dev.quiver.query;

import dev.quiver.storage.Builtin;
import dev.quiver.storage.World;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The target of a OneOf relationship is looked up in the OneOf scope, as Flecs does in queries
 * (conformance NOTES K13): {@code (Mode, On)} means {@code (Mode, Mode.On)}, the full path works
 * too, and a target outside the scope is an error.
 */
class OneOfTargetTest {
    @TempDir
    Path tmp;
    private World w;

    @BeforeEach
    void open() {
        w = World.create(tmp.resolve("w"));
    }

    @AfterEach
    void close() {
        w.close();
    }

    @Test
    void shortNameIsLookedUpInTheOneOfScope() {
        long mode = w.entity("Mode");
        w.add(mode, Builtin.ONE_OF);
        long on = w.entity("Mode.On");
        w.entity("Mode.Off");
        w.entity("On"); // a root entity of the same name: the scope wins
        w.add(w.entity("lamp"), w.pair(mode, on));
        assertEquals(1, Query.parse(w, "(Mode, On)").count());
        assertEquals(1, Query.parse(w, "(Mode, Mode.On)").count());
        assertEquals(0, Query.parse(w, "(Mode, Off)").count());
        QuerySyntaxException e = assertThrows(QuerySyntaxException.class, () -> Query.parse(w, "(Mode, lamp)"));
        assertTrue(e.getMessage().contains("must be a child of 'Mode'"), e.getMessage());
        assertEquals(8, e.column());
        assertThrows(UnknownQueryNameException.class, () -> Query.parse(w, "(Mode, Dim)"));
    }

    @Test
    void oneOfPairNamesTheScope() {
        long food = w.entity("Food");
        long apples = w.entity("Food.Apples");
        long eats = w.entity("Eats");
        w.add(eats, w.pair(Builtin.ONE_OF, food));
        w.add(w.entity("bob"), w.pair(eats, apples));
        assertEquals(1, Query.parse(w, "(Eats, Apples)").count());
        assertEquals(1, Query.parse(w, "Eats($x, Apples)").count());
        // variables and wildcards are not names: unaffected
        assertEquals(1, Query.parse(w, "(Eats, $x)").count());
    }
}
