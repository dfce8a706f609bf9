package dev.quiver.storage;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tecs traverse and walkUp (FEATURES TEC-16, TEC-17, acceptance examples A-38 and A-39). */
class RelationshipWalksTest {
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

    private List<String> walkUp(String entity, String relationship, int maxDepth, String stopAt, List<String> seen) {
        RelationshipWalks.walkUp(w, w.resolve(entity), w.resolve(relationship), (e, depth) -> {
            seen.add(w.name(e) + " " + depth);
            return !w.name(e).equals(stopAt);
        }, maxDepth);
        return seen;
    }

    @Test
    void walkUpFollowsTheFirstTargetAndStopsWhenAsked() {
        w.entity("c.b.a");
        assertEquals(List.of("b 1", "c 2"), walkUp("c.b.a", "ChildOf", 100, null, new ArrayList<>()));
        assertEquals(List.of("b 1"), walkUp("c.b.a", "ChildOf", 100, "b", new ArrayList<>()));
        assertEquals(List.of(), walkUp("c", "ChildOf", 100, null, new ArrayList<>()));
        // exactly maxDepth levels is fine; one more raises after the visitor saw the allowed ones
        assertEquals(List.of("b 1", "c 2"), walkUp("c.b.a", "ChildOf", 2, null, new ArrayList<>()));
        List<String> seen = new ArrayList<>();
        assertThrows(MaxDepthExceededException.class, () -> walkUp("c.b.a", "ChildOf", 1, null, seen));
        assertEquals(List.of("b 1"), seen);
        // several targets: the first in type order
        long r = w.entity("R");
        long x = w.entity("x"), t1 = w.entity("t1"), t2 = w.entity("t2");
        w.add(x, w.pair(r, t2));
        w.add(x, w.pair(r, t1));
        assertEquals(List.of("t1 1"), walkUp("x", "R", 100, null, new ArrayList<>()));
    }

    @Test
    void walkUpRaisesOnACycleAfterMaxDepthLevels() {
        long r = w.entity("R"), x = w.entity("x"), y = w.entity("y");
        w.add(x, w.pair(r, y));
        w.add(y, w.pair(r, x));
        List<String> seen = new ArrayList<>();
        var ex = assertThrows(MaxDepthExceededException.class, () -> walkUp("x", "R", RelationshipWalks.DEFAULT_MAX_DEPTH, null, seen));
        assertEquals(100, seen.size());
        assertEquals("y 1", seen.get(0));
        assertEquals("x 100", seen.get(99));
        assertTrue(ex.getMessage().contains("maxDepth 100"), ex.getMessage());
    }

    @Test
    void traverseVisitsTheSubtreeDepthFirstInIdOrder() {
        long root = w.entity("root");
        long a = w.entity(), b = w.entity(), a1 = w.entity(); // ids root < a < b < a1
        w.add(a, w.pair(Builtin.CHILD_OF, root));
        w.add(b, w.pair(Builtin.CHILD_OF, root));
        w.add(a1, w.pair(Builtin.CHILD_OF, a));
        List<String> seen = new ArrayList<>();
        RelationshipWalks.traverse(w, root, Builtin.CHILD_OF, (e, depth) -> seen.add(depth + " " + e) || true);
        assertEquals(List.of("1 " + a, "2 " + a1, "1 " + b), seen);
        seen.clear();
        RelationshipWalks.traverse(w, root, Builtin.CHILD_OF, (e, depth) -> seen.add(depth + " " + e) && e != a1);
        assertEquals(List.of("1 " + a, "2 " + a1), seen, "false stops the whole walk");
        seen.clear();
        RelationshipWalks.traverse(w, a1, Builtin.CHILD_OF, (e, depth) -> seen.add(depth + " " + e));
        assertEquals(List.of(), seen);
        // a cycle in a user relationship surfaces
        long r = w.entity("R"), x = w.entity("x"), y = w.entity("y");
        w.add(x, w.pair(r, y));
        w.add(y, w.pair(r, x));
        assertThrows(MaxDepthExceededException.class, () -> RelationshipWalks.traverse(w, x, r, (e, d) -> true));
        w.delete(b);
        assertThrows(DeadEntityException.class, () -> RelationshipWalks.traverse(w, b, Builtin.CHILD_OF, (e, d) -> true));
        assertThrows(DeadEntityException.class, () -> RelationshipWalks.walkUp(w, b, Builtin.CHILD_OF, (e, d) -> true));
    }
}
