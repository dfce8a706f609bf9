package dev.quiver.storage;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link World#has} over runs of checks of one non-fragmenting relationship (RG-1 lookup: a
 * million checks of {@code (LocatedIn, parent)}), which answer a yes from the relationship's column
 * without asking whether the relationship is sparse: the answers follow every change, rollback,
 * deletion and reopen, and checks that alternate between relationships, or ask a fragmenting one,
 * are never answered from another relationship's column.
 */
class SparseHasRunTest {
    @TempDir
    Path tmp;
    private World w;

    @AfterEach
    void close() {
        if (w != null) {
            w.close();
        }
    }

    private long sparse(String name) {
        long r = w.entity(name);
        w.add(r, Builtin.DONT_FRAGMENT);
        return r;
    }

    /** The same check {@code times} times in a row: every answer must be {@code expected}. */
    private void checkRun(long e, long id, boolean expected, int times) {
        for (int i = 0; i < times; i++) {
            if (expected) {
                assertTrue(w.has(e, id), () -> w.idToString(id) + " on " + w.idToString(e));
            } else {
                assertFalse(w.has(e, id), () -> w.idToString(id) + " on " + w.idToString(e));
            }
        }
    }

    @Test
    void runsFollowAddRemoveAndRollback() {
        w = World.create(tmp.resolve("w"));
        long r = sparse("R");
        long a = w.entity("a"), b = w.entity("b"), c = w.entity("c"), d = w.entity("d");
        w.add(a, w.pair(r, b));
        checkRun(a, w.pair(r, b), true, 5);
        checkRun(a, w.pair(r, c), false, 5);
        w.remove(a, w.pair(r, b));
        checkRun(a, w.pair(r, b), false, 5);
        w.add(a, w.pair(r, c));
        checkRun(a, w.pair(r, c), true, 5);
        checkRun(a, w.pair(r, b), false, 5);
        assertThrows(IllegalStateException.class, () -> w.transaction(tx -> {
            tx.add(a, tx.pair(r, d));
            assertTrue(w.has(a, w.pair(r, d)), "inside the transaction");
            throw new IllegalStateException("roll back");
        }));
        checkRun(a, w.pair(r, d), false, 5);
        checkRun(a, w.pair(r, c), true, 5);
    }

    @Test
    void alternatingRelationshipsAnswerFromTheirOwnColumns() {
        w = World.create(tmp.resolve("w"));
        long r = sparse("R"), s = sparse("S");
        long q = w.entity("Q"); // fragmenting: its pairs live in table types
        long a = w.entity("a"), b = w.entity("b"), c = w.entity("c"), x = w.entity("x");
        w.add(a, w.pair(r, b));
        w.add(a, w.pair(s, c));
        w.add(x, w.pair(q, b));
        for (int i = 0; i < 20; i++) {
            checkRun(a, w.pair(r, b), true, 2);
            checkRun(a, w.pair(s, b), false, 2);
            checkRun(a, w.pair(s, c), true, 2);
            checkRun(a, w.pair(r, c), false, 2);
            // same source and target indices as sparse pairs asked just before, another relationship
            checkRun(a, w.pair(q, b), false, 2);
            checkRun(x, w.pair(q, b), true, 2);
            checkRun(x, w.pair(r, b), false, 2);
        }
        checkRun(a, w.pair(r, Builtin.WILDCARD), true, 3);
        checkRun(a, w.pair(Builtin.WILDCARD, c), true, 3);
        checkRun(x, w.pair(r, Builtin.WILDCARD), false, 3);
    }

    @Test
    void runsFollowDeletionsAndReopen() {
        Path dir = tmp.resolve("w");
        w = World.create(dir);
        long r = sparse("R");
        long a = w.entity("a"), b = w.entity("b"), c = w.entity("c");
        w.add(a, w.pair(r, b));
        w.add(c, w.pair(r, a));
        checkRun(a, w.pair(r, b), true, 5);
        long rb = w.pair(r, b);
        w.delete(b); // default cleanup: (R, b) is removed from a
        checkRun(a, rb, false, 5);
        checkRun(c, w.pair(r, a), true, 5);
        w.close();
        w = World.open(dir);
        checkRun(c, w.pair(r, a), true, 5);
        checkRun(a, rb, false, 5);
        long ra = w.pair(r, a);
        w.delete(r); // the relationship itself: its pairs go with it
        checkRun(c, ra, false, 5);
    }
}
