package dev.quiver.storage;

import dev.quiver.index.Ids;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Relative lookup and the current scope (FEATURES ENT-05, ENT-07; acceptance example A-29). */
class ScopeTest {
    @TempDir
    Path tmp;
    World w;

    @BeforeEach
    void open() {
        w = World.create(tmp.resolve("w"));
    }

    @AfterEach
    void close() {
        assertEquals(List.of(), w.check());
        w.close();
    }

    @Test
    void a29RelativeLookupAndScope() {
        long parent = w.entity("Parent");
        long child = w.entity("Child");
        w.add(child, w.pair(Builtin.CHILD_OF, parent));
        long prev = w.setScope(parent);
        assertEquals(0, prev);
        assertEquals(parent, w.scope());
        long a = w.entity("A");
        long b = w.entity();
        assertEquals(parent, w.setScope(prev));
        assertEquals(0, w.scope());

        assertEquals(child, w.lookup("Parent.Child"));
        assertEquals(child, w.lookup("Parent::Child"));
        assertEquals(child, w.lookup(parent, "Child"), "relative to Parent");
        assertEquals(0, w.lookup("Child"), "not from the root");
        assertEquals("Parent.Child", w.path(child));
        assertEquals("Parent.A", w.path(a));
        assertTrue(w.has(b, w.pair(Builtin.CHILD_OF, parent)));
        assertEquals(parent, w.parent(b));
        assertEquals(b, w.lookup(w.path(b)), "an anonymous entity is found by the path it prints as (#index)");
    }

    @Test
    void aLookupInAScopeSearchesTheScopeThenItsAncestorsThenTheRoot() {
        long rootX = w.entity("X");
        long tag = w.entity("Tag");
        long deep = w.entity("P.Q.R");
        long px = w.entity("P.X");
        w.inScope(deep, () -> {
            assertEquals(px, w.lookup("X"), "the nearest ancestor's X shadows the root's");
            assertEquals(tag, w.lookup("Tag"), "a root name stays visible");
            assertEquals(tag, w.ensureId("Tag"), "an id resolves as a lookup does: no Tag is made in the scope");
            long made = w.ensureId("Made");
            assertEquals("P.Q.R.Made", w.path(made), "a missing id is created in the scope");
            long pair = w.ensureId("(Likes, X)");
            assertEquals(Ids.index(px), Ids.second(pair), "(Likes, X): X found in an ancestor");
            assertEquals(w.lookup("P.Q.R.Likes"), w.entityOfIndex(Ids.first(pair)));
            assertEquals(w.resolve("ChildOf"), Builtin.CHILD_OF, "builtins resolve anywhere");
            assertEquals(Builtin.CHILD_OF, w.entity("ChildOf"), "entity() of a builtin's name is the builtin");
            long x = w.entity("X");
            assertNotEquals(px, x, "entity(path) reads the path below the scope only (Flecs ecs_entity)");
            assertEquals("P.Q.R.X", w.path(x));
        });
        assertEquals(rootX, w.lookup("X"));
        assertEquals(0, w.lookup(w.resolve("P"), "R"), "a relative lookup reads the parent's children only");
        assertEquals(deep, w.lookup(w.resolve("P"), "Q.R"));
        assertEquals(deep, w.lookup(0, "P.Q.R"), "parent 0 is the root");
    }

    @Test
    void inScopeRestoresThePreviousScopeWhenTheBodyThrows() {
        long p = w.entity("P");
        long q = w.entity("Q");
        w.setScope(p);
        assertThrows(IllegalStateException.class, () -> w.inScope(q, () -> {
            assertEquals(q, w.scope());
            throw new IllegalStateException("body failed");
        }));
        assertEquals(p, w.scope());
        w.setScope(0);
    }

    @Test
    void aDeadScopeIsRefusedAndCreatesNothing() {
        long p = w.entity("P");
        long gone = w.entity("Gone");
        w.delete(gone);
        assertThrows(DeadEntityException.class, () -> w.setScope(gone));
        assertEquals(0, w.scope(), "unchanged");
        w.setScope(p);
        w.delete(p);
        int before = w.entityCount();
        assertThrows(DeadEntityException.class, () -> w.entity());
        assertThrows(DeadEntityException.class, () -> w.entity("N"));
        assertEquals(before, w.entityCount(), "nothing created");
        assertEquals(0, w.lookup(p, "anything"), "a dead parent has no children");
        assertEquals(w.resolve("ChildOf"), Builtin.CHILD_OF);
        w.setScope(0);
        assertTrue(w.entity("N") != 0);
    }

    @Test
    void theScopeIsNotPersisted() {
        long p = w.entity("P");
        w.setScope(p);
        w.entity("A");
        w.close();
        w = World.open(tmp.resolve("w"));
        assertEquals(0, w.scope());
        assertEquals("P.A", w.path(w.resolve("P.A")));
        assertEquals(0, w.lookup("A"));
    }
}
