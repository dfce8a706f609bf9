package dev.quiver.storage;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Changes the model refuses rather than answering wrongly later (issue 9, "wrong today"): builtins
 * are protected, structural traits cannot change on a relationship in use, and a data component in
 * use cannot be deleted by default (FEATURES CLN-07). Each refusal changes nothing.
 */
class ProtectedModelTest {
    @TempDir
    Path tmp;
    private World w;

    @AfterEach
    void close() {
        if (w != null) {
            w.close();
        }
    }

    record Position(double x, double y) {}

    @Test
    void builtinsCannotBeChanged() {
        w = World.create(tmp.resolve("w"));
        long marker = w.entity("Marker");
        long[] childOf = w.type(Builtin.CHILD_OF);
        assertThrows(ConstraintException.class, () -> w.remove(Builtin.CHILD_OF, Builtin.EXCLUSIVE));
        assertThrows(ConstraintException.class, () -> w.add(Builtin.IS_A, Builtin.EXCLUSIVE));
        assertThrows(ConstraintException.class, () -> w.add(Builtin.ANY, marker));
        assertThrows(ConstraintException.class, () -> w.add(Builtin.WILDCARD, marker));
        assertThrows(ConstraintException.class, () -> w.add(Builtin.CHILD_OF, new long[] {marker}));
        assertArrayEquals(childOf, w.type(Builtin.CHILD_OF));
        assertTrue(w.tableAccess().tables(marker).isEmpty(), "no builtin got Marker");
        assertEquals(List.of(), w.check());
    }

    @Test
    void unionAndDontFragmentAreBuiltinsNotUserTags() {
        w = World.create(tmp.resolve("w"));
        assertEquals(Builtin.UNION, w.lookup("Union"));
        assertEquals(Builtin.DONT_FRAGMENT, w.lookup("DontFragment"));
        long pos = w.component("Pos", Schema.of("x", FieldType.F64));
        assertThrows(SparseStorageException.class, () -> w.add(pos, Builtin.DONT_FRAGMENT));
        w.entity("a.Union"); // only the root names are builtins
        assertEquals(List.of(), w.check());
    }

    @Test
    void structuralTraitsCannotChangeOnARelationshipInUse() {
        w = World.create(tmp.resolve("w"));
        long r = w.entity("R");
        long x = w.entity("x");
        w.add(x, w.pair(r, w.entity("a")));
        w.add(x, w.pair(r, w.entity("b")));
        for (long trait : new long[] {Builtin.EXCLUSIVE, Builtin.SYMMETRIC, Builtin.PAIR_IS_TAG, Builtin.ACYCLIC}) {
            ConstraintException e = assertThrows(ConstraintException.class, () -> w.add(r, trait));
            assertTrue(e.getMessage().contains("in use"), e.getMessage());
        }
        assertEquals(2, w.targets(x, r).length, "x keeps both targets");
        // a relationship not in use yet takes them, and then cannot lose them while in use
        long s = w.entity("S");
        w.add(s, Builtin.EXCLUSIVE);
        w.add(x, w.pair(s, w.entity("a")));
        assertThrows(ConstraintException.class, () -> w.remove(s, Builtin.EXCLUSIVE));
        assertTrue(w.has(s, Builtin.EXCLUSIVE));
        // Final cannot be added to an IsA base
        long base = w.entity("Base");
        w.add(w.entity("derived"), w.pair(Builtin.IS_A, base));
        assertThrows(ConstraintException.class, () -> w.add(base, Builtin.FINAL));
        assertFalse(w.has(base, Builtin.FINAL));
        assertEquals(List.of(), w.check());
    }

    @Test
    void aDataComponentInUsePanicsOnDeleteByDefault() {
        w = World.create(tmp.resolve("w"));
        long pos = w.component(Position.class);
        long ship = w.entity("ship");
        w.set(ship, pos, new Position(1, 2));
        CleanupPanicException e = assertThrows(CleanupPanicException.class, () -> w.delete(pos));
        assertTrue(e.getMessage().contains("Position") && e.getMessage().contains("ship"), e.getMessage());
        assertEquals(new Position(1, 2), w.get(ship, Position.class));
        // an explicit policy overrides the default; a tag keeps the default Remove
        w.add(pos, w.pair(Builtin.ON_DELETE, Builtin.REMOVE));
        w.delete(pos);
        assertTrue(w.isAlive(ship));
        long tag = w.entity("Painted");
        w.add(ship, tag);
        w.delete(tag);
        assertTrue(w.isAlive(ship));
        assertEquals(List.of(), w.check());
    }

    /** Flecs v4 Singleton: the component lives on its own entity; adding or setting it elsewhere is refused. */
    @Test
    void aSingletonLivesOnItsOwnEntityOnly() {
        w = World.create(tmp.resolve("w"));
        long time = w.component("TimeOfDay", Schema.of("hour", FieldType.F64));
        w.add(time, Builtin.SINGLETON);
        w.set(time, time, new Object[] {6.0});
        long e = w.entity("e");
        long[] before = w.type(e);
        var ex = assertThrows(SingletonException.class, () -> w.add(e, time));
        assertTrue(ex.getMessage().contains("TimeOfDay") && ex.getMessage().contains("Singleton"), ex.getMessage());
        assertThrows(SingletonException.class, () -> w.set(e, time, new Object[] {7.0}));
        assertThrows(SingletonException.class, () -> w.add(e, new long[] {time}));
        assertArrayEquals(before, w.type(e), "nothing changed");
        assertEquals(6.0, ((Number) w.get(time, time).get("hour")).doubleValue());
        assertEquals(List.of(), w.check());
    }
}
