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
 * Until IsA inheritance is evaluated (issue 9), a term whose answer depends on it is refused with
 * a specific error instead of a silently short answer; terms inheritance cannot change still run.
 */
class InheritanceGuardTest {
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
    void componentInheritanceIsRefusedNotAnsweredShort() {
        long unit = w.entity("Unit");
        long melee = w.entity("MeleeUnit");
        w.add(melee, w.pair(Builtin.IS_A, unit));
        w.add(w.entity("u1"), melee);
        UnsupportedQueryException e = assertThrows(UnsupportedQueryException.class, () -> Query.parse(w, "Unit").count());
        assertTrue(e.getMessage().contains("IsA inheritance") && e.getMessage().contains("MeleeUnit"), e.getMessage());
        assertEquals(1, e.column());
        // the IsA pairs themselves are answered (IsA is Transitive and Reflexive)
        assertEquals(2, Query.parse(w, "(IsA, Unit)").count());
        assertEquals(1, Query.parse(w, "MeleeUnit").count());
    }

    @Test
    void instanceInheritanceFromABaseIsRefused() {
        long armor = w.entity("Armor");
        long base = w.entity("Knight");
        w.add(base, armor);
        w.add(w.entity("k1"), w.pair(Builtin.IS_A, base));
        assertThrows(UnsupportedQueryException.class, () -> Query.parse(w, "Armor").count());
        assertThrows(UnsupportedQueryException.class, () -> Query.parse(w, "Armor, (IsA, Knight)").count());
        long likes = w.entity("Likes");
        w.add(base, w.pair(likes, w.entity("gold")));
        assertThrows(UnsupportedQueryException.class, () -> Query.parse(w, "(Likes, *)").count());
        // an id no base owns is unaffected
        w.add(w.entity("plain"), w.entity("Shield"));
        assertEquals(1, Query.parse(w, "Shield").count());
    }

    @Test
    void worldsWithoutIsAAreUnaffected() {
        w.add(w.entity("a"), w.entity("Marked"));
        assertEquals(1, Query.parse(w, "Marked").count());
    }
}
