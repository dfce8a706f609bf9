package dev.quiver.storage;

import dev.quiver.index.Ids;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Non-fragmenting pair storage (FEATURES TRT-16, TRT-07, A-34; issue 8 section 5) through the
 * public API: DontFragment and Union, one table for every holder whatever the target, the logical
 * type, cleanup over sparse pairs, reopen, rollback, the structural-trait refusals.
 */
class SparsePairsTest {
    @TempDir
    Path tmp;
    private World w;

    @AfterEach
    void close() {
        if (w != null) {
            w.close();
        }
    }

    private long pair(long r, long t) {
        return w.pair(r, t);
    }

    @Test
    void dontFragmentHoldersShareOneTable() {
        w = World.create(tmp.resolve("w"));
        long r = w.entity("LocatedIn");
        w.add(r, Builtin.DONT_FRAGMENT);
        long[] places = new long[50];
        long[] things = new long[50];
        for (int i = 0; i < 50; i++) {
            places[i] = w.entity("p" + i);
            things[i] = w.entity("t" + i);
            w.add(things[i], pair(r, places[i]));
        }
        assertTrue(w.tableAccess().sparse().isSparse(Ids.index(r)));
        assertEquals(1, w.tableAccess().tables(pair(r, Builtin.WILDCARD)).size(), "one table for all holders");
        assertTrue(w.tableAccess().tables(pair(r, places[3])).isEmpty(), "no table per target");
        assertTrue(w.has(things[3], pair(r, places[3])));
        assertFalse(w.has(things[3], pair(r, places[4])));
        assertTrue(w.has(things[3], pair(r, Builtin.WILDCARD)));
        assertTrue(w.has(things[3], pair(Builtin.WILDCARD, places[3])));
        assertArrayEquals(new long[] {places[7]}, w.targets(things[7], r));
        long[] type = w.type(things[7]);
        assertEquals(1, type.length);
        assertEquals(pair(r, places[7]), type[0], "the logical pair, not the marker");
        var sources = new java.util.ArrayList<Long>();
        w.forEachSource(r, places[9], sources::add);
        assertEquals(List.of(things[9]), sources);
        w.add(things[7], pair(r, places[8]));
        assertArrayEquals(new long[] {places[7], places[8]}, w.targets(things[7], r));
        w.remove(things[7], pair(r, places[7]));
        assertArrayEquals(new long[] {places[8]}, w.targets(things[7], r));
        w.remove(things[7], pair(r, Builtin.WILDCARD));
        assertEquals(0, w.type(things[7]).length);
        assertEquals(List.of(), w.check());
        w.close();
        w = World.open(tmp.resolve("w"));
        assertTrue(w.has(things[3], pair(r, places[3])));
        assertEquals(0, w.type(things[7]).length);
        assertEquals(1, w.tableAccess().tables(pair(r, Builtin.WILDCARD)).size());
        assertEquals(List.of(), w.check());
    }

    @Test
    void unionIsExclusiveAndRemovingAnotherTargetDoesNothing() {
        // A-34
        w = World.create(tmp.resolve("w"));
        long movement = w.entity("Movement");
        w.add(movement, Builtin.UNION);
        assertTrue(w.has(movement, Builtin.EXCLUSIVE) && w.has(movement, Builtin.DONT_FRAGMENT));
        long running = w.entity("Running"), walking = w.entity("Walking");
        long e = w.entity("e");
        w.add(e, pair(movement, running));
        w.add(e, pair(movement, walking));
        assertArrayEquals(new long[] {pair(movement, walking)}, w.type(e));
        w.remove(e, pair(movement, running));
        assertArrayEquals(new long[] {pair(movement, walking)}, w.type(e));
        w.remove(e, pair(movement, Builtin.WILDCARD));
        assertEquals(0, w.type(e).length);
        assertEquals(List.of(), w.check());
    }

    @Test
    void structuralTraitsAreRefusedOnARelationshipInUse() {
        w = World.create(tmp.resolve("w"));
        long r = w.entity("R"), a = w.entity("a"), b = w.entity("b");
        w.add(a, pair(r, b));
        assertThrows(StructuralTraitException.class, () -> w.add(r, Builtin.DONT_FRAGMENT));
        assertThrows(StructuralTraitException.class, () -> w.add(r, Builtin.UNION));
        long s = w.entity("S");
        w.add(s, Builtin.DONT_FRAGMENT);
        w.add(a, pair(s, b));
        assertThrows(StructuralTraitException.class, () -> w.remove(s, Builtin.DONT_FRAGMENT));
        assertThrows(ConstraintException.class, () -> w.add(Builtin.IS_A, Builtin.DONT_FRAGMENT));
        assertThrows(ConstraintException.class, () -> w.add(Builtin.CHILD_OF, Builtin.UNION));
        long pos = w.component("Pos", Schema.of("x", FieldType.F64));
        SparseStorageException ex = assertThrows(SparseStorageException.class, () -> w.add(a, pair(s, pos)));
        assertTrue(ex.getMessage().contains("no data"), ex.getMessage());
        assertTrue(w.has(s, Builtin.DONT_FRAGMENT));
        assertEquals(List.of(), w.check());
    }

    @Test
    void cleanupReachesSparsePairs() {
        w = World.create(tmp.resolve("w"));
        long r = w.entity("R"), owns = w.entity("Owns");
        w.add(r, Builtin.DONT_FRAGMENT);
        w.add(owns, Builtin.DONT_FRAGMENT);
        w.add(owns, pair(Builtin.ON_DELETE_TARGET, Builtin.DELETE));
        long a = w.entity("a"), b = w.entity("b"), c = w.entity("c"), item = w.entity("item");
        w.add(a, pair(r, b));
        w.add(a, pair(r, c));
        w.add(item, pair(owns, c));
        w.delete(c); // (R, c) goes from a; item is deleted by (OnDeleteTarget, Delete)
        assertArrayEquals(new long[] {pair(r, b)}, w.type(a));
        assertFalse(w.isAlive(item));
        w.delete(a); // a source with sparse pairs
        var sources = new java.util.ArrayList<Long>();
        w.forEachSource(r, b, sources::add);
        assertEquals(List.of(), sources);
        long d = w.entity("d");
        w.add(d, pair(r, b));
        w.delete(r); // the relationship itself
        assertEquals(0, w.type(d).length);
        long p = w.entity("P");
        w.add(p, Builtin.DONT_FRAGMENT);
        w.add(p, pair(Builtin.ON_DELETE_TARGET, Builtin.PANIC));
        w.add(d, pair(p, b));
        assertThrows(CleanupPanicException.class, () -> w.delete(b));
        assertTrue(w.has(d, pair(p, b)));
        assertEquals(List.of(), w.check());
    }

    @Test
    void symmetricSparsePairsMirror() {
        w = World.create(tmp.resolve("w"));
        long married = w.entity("MarriedTo");
        w.add(married, Builtin.SYMMETRIC);
        w.add(married, Builtin.UNION);
        long bob = w.entity("Bob"), alice = w.entity("Alice"), carol = w.entity("Carol");
        w.add(bob, pair(married, alice));
        assertTrue(w.has(alice, pair(married, bob)));
        w.add(bob, pair(married, carol));
        assertTrue(w.has(carol, pair(married, bob)));
        assertFalse(w.has(alice, pair(married, Builtin.WILDCARD)));
        w.remove(carol, pair(married, bob));
        assertFalse(w.has(bob, pair(married, Builtin.WILDCARD)));
        assertEquals(List.of(), w.check());
    }

    @Test
    void aRefusedTransactionLeavesTheWorldUnchanged() {
        w = World.create(tmp.resolve("w"));
        long r = w.entity("R");
        w.add(r, Builtin.DONT_FRAGMENT);
        long a = w.entity("a"), b = w.entity("b"), c = w.entity("c");
        w.add(a, pair(r, b));
        long[] before = w.type(a);
        assertThrows(CycleException.class, () -> w.transaction(x -> {
            x.add(a, pair(r, c));
            x.remove(a, pair(r, b));
            x.add(b, pair(Builtin.CHILD_OF, a));
            x.add(a, pair(Builtin.CHILD_OF, b)); // refused: the whole transaction goes
        }));
        assertArrayEquals(before, w.type(a));
        assertFalse(w.has(a, pair(r, c)));
        assertEquals(List.of(), w.check());
    }

    @Test
    void alwaysModeAndTheAutomaticSwitch() {
        String old = System.getProperty("quiver.sparse.threshold");
        System.setProperty("quiver.sparse.threshold", "8");
        try {
            w = World.create(tmp.resolve("w"));
        } finally {
            if (old == null) {
                System.clearProperty("quiver.sparse.threshold");
            } else {
                System.setProperty("quiver.sparse.threshold", old);
            }
        }
        if (w.tableAccess().sparse().mode() == dev.quiver.storage.rules.SparsePairs.Mode.NEVER) {
            return;
        }
        long r = w.entity("R");
        if ("always".equals(System.getProperty("quiver.sparse"))) {
            assertEquals(dev.quiver.storage.rules.SparsePairs.Mode.ALWAYS, w.tableAccess().sparse().mode());
            long a = w.entity("a");
            w.add(a, pair(r, a));
            assertTrue(w.tableAccess().sparse().isSparse(Ids.index(r)), "always: sparse from the first pair");
            w.remove(a, pair(r, a));
        }
        long[] src = new long[20];
        for (int i = 0; i < 20; i++) {
            src[i] = w.entity("s" + i);
            w.add(src[i], pair(r, w.entity("t" + i)));
        }
        assertTrue(w.tableAccess().sparse().isSparse(Ids.index(r)), "switched after 8 tables");
        assertEquals(1, w.tableAccess().tables(pair(r, Builtin.WILDCARD)).size());
        assertFalse(w.has(r, Builtin.DONT_FRAGMENT), "the automatic switch adds no trait");
        assertEquals(List.of(), w.check());
        w.close();
        w = World.open(tmp.resolve("w"));
        assertTrue(w.tableAccess().sparse().isSparse(Ids.index(r)), "the switch survives reopen");
        assertTrue(w.has(src[11], pair(r, w.lookup("t11"))));
        assertEquals(List.of(), w.check());
        assertTrue(Arrays.equals(new long[] {pair(r, w.lookup("t4"))}, w.type(src[4])));
    }
}
