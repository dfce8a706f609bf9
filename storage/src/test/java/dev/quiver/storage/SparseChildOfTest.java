package dev.quiver.storage;

import dev.quiver.index.Ids;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ChildOf stored sparse (issue 8 section 5: one table for every child, whatever its parent; the
 * parent in the sparse store): the automatic switch past the threshold, and the same hierarchy,
 * names, paths, renames, reparenting, cleanup cascades, prefab children and refusals with ChildOf
 * fragmenting ({@code never}) and sparse ({@code always}), before and after a reopen, and through
 * a refused transaction.
 */
class SparseChildOfTest {
    private static final long CHILD_OF = Builtin.CHILD_OF;

    @TempDir
    Path tmp;

    /** Runs {@code body} with {@code quiver.sparse} (and the threshold) set, as a World reads them at create and open. */
    static <T> T inMode(String mode, String threshold, Supplier<T> body) {
        String oldMode = System.getProperty("quiver.sparse"), oldThreshold = System.getProperty("quiver.sparse.threshold");
        System.setProperty("quiver.sparse", mode);
        System.setProperty("quiver.sparse.threshold", threshold);
        try {
            return body.get();
        } finally {
            restore("quiver.sparse", oldMode);
            restore("quiver.sparse.threshold", oldThreshold);
        }
    }

    private static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }

    private static boolean childOfSparse(World w) {
        return w.tableAccess().sparse().isSparse(Ids.index(CHILD_OF));
    }

    @Test
    void childOfGoesSparsePastTheThreshold() {
        Path dir = tmp.resolve("w");
        try (World w = inMode("auto", "8", () -> World.create(dir))) {
            long[] kids = new long[12];
            for (int i = 0; i < 12; i++) {
                kids[i] = w.entity("p" + i + ".kid");
                assertEquals(i + 1 >= 8, childOfSparse(w), "after " + (i + 1) + " parents: the 8th table switches");
            }
            assertTrue(w.stats().sparseRelationships() >= 1, "stats: " + w.stats());
            assertEquals(12, w.stats().sparsePairs());
            assertEquals(1, w.tableAccess().tables(w.pair(CHILD_OF, Builtin.WILDCARD)).size(), "one table for every child");
            for (int i = 0; i < 12; i++) {
                assertEquals("p" + i + ".kid", w.path(kids[i]));
                assertEquals(w.lookup("p" + i), w.parent(kids[i]));
                assertEquals(kids[i], w.lookup("p" + i + ".kid"));
                assertTrue(w.has(kids[i], w.pair(CHILD_OF, w.lookup("p" + i))));
            }
            assertEquals(List.of(), w.check());
        }
        try (World w = inMode("auto", "8", () -> World.open(dir))) {
            assertTrue(childOfSparse(w));
            assertEquals(w.lookup("p3"), w.parent(w.lookup("p3.kid")));
            assertEquals("p11.kid", w.path(w.lookup("p11.kid")));
            assertEquals(List.of(), w.check());
        }
    }

    /** The hierarchy as text: every alive user entity's path, parent, type and lookup, by index. */
    private static String describe(World w) {
        var out = new TreeMap<Integer, String>();
        for (int i = Builtin.FIRST_USER_INDEX; i < 10_000; i++) {
            long e = w.entityOfIndex(i);
            if (e == 0 || !w.isAlive(e)) {
                continue;
            }
            var ids = new ArrayList<String>();
            for (long id : w.type(e)) {
                ids.add(w.idToString(id));
            }
            String path = w.path(e);
            long found = w.name(e) == null ? e : w.lookup(path);
            out.put(i, path + " parent=" + (w.parent(e) == 0 ? "-" : w.path(w.parent(e))) + " type=" + ids
                    + (found == e ? "" : " LOOKUP FINDS " + found));
        }
        return out.toString();
    }

    /** The same seeded steps in a world of the given mode; the description after each phase. */
    private List<String> script(String mode, long seed) {
        Path dir = tmp.resolve(mode);
        var states = new ArrayList<String>();
        var rnd = new Random(seed);
        try (World w = inMode(mode, "32", () -> World.create(dir))) {
            long tag = w.entity("Tag");
            long ship = w.entity("Ship");
            w.add(ship, Builtin.PREFAB);
            for (int i = 0; i < 4; i++) {
                long part = w.entity("Ship.part" + i);
                w.add(part, tag);
                w.entity("Ship.part" + i + ".bolt");
            }
            w.entity("Ship.anon"); // renamed away below: an anonymous child would need a name to build
            w.rename(w.lookup("Ship.anon"), "spare");
            var all = new ArrayList<Long>();
            for (int i = 0; i < 30; i++) {
                long parent = all.isEmpty() || rnd.nextInt(4) == 0 ? 0 : all.get(rnd.nextInt(all.size()));
                String name = "n" + i;
                long e = parent == 0 ? w.entity(name) : w.entity(w.path(parent) + "." + name);
                all.add(e);
            }
            for (int i = 0; i < 5; i++) {
                long inst = w.entity("inst" + i);
                w.add(inst, w.pair(Builtin.IS_A, ship));
            }
            assertEquals(List.of(), w.check(), mode);
            states.add(describe(w));
            for (int step = 0; step < 40; step++) {
                long e = all.get(rnd.nextInt(all.size()));
                if (!w.isAlive(e)) {
                    continue;
                }
                long other = all.get(rnd.nextInt(all.size()));
                int op = rnd.nextInt(5);
                try {
                    switch (op) {
                        case 0 -> w.rename(e, "r" + step);
                        case 1 -> {
                            if (w.isAlive(other) && other != e) {
                                w.add(e, w.pair(CHILD_OF, other));
                            }
                        }
                        case 2 -> {
                            long p = w.parent(e);
                            if (p != 0) {
                                w.remove(e, w.pair(CHILD_OF, p));
                            }
                        }
                        case 3 -> w.remove(e, w.pair(CHILD_OF, Builtin.WILDCARD));
                        default -> {
                            if (rnd.nextInt(3) == 0) {
                                w.delete(e);
                            } else {
                                w.add(e, tag);
                            }
                        }
                    }
                    states.add("step " + step + " ok");
                } catch (dev.quiver.error.BadInputException ex) {
                    states.add("step " + step + " " + ex.getClass().getSimpleName() + ": " + ex.getMessage());
                }
                assertEquals(List.of(), w.check(), mode + " step " + step);
            }
            states.add(describe(w));
            w.deleteWith(w.pair(Builtin.IS_A, ship));
            states.add(describe(w));
            assertEquals(List.of(), w.check(), mode);
        }
        try (World w = inMode(mode, "32", () -> World.open(dir))) {
            states.add(describe(w));
            assertEquals(List.of(), w.check(), mode + " reopened");
            assertEquals(mode.equals("always"), childOfSparse(w), mode);
        }
        return states;
    }

    @Test
    void hierarchiesAgreeBetweenModes() {
        long seed = Long.getLong("quiver.seed", System.nanoTime());
        System.out.println("SparseChildOfTest seed " + seed + " (-Dquiver.seed=" + seed + ")");
        List<String> dense = script("never", seed);
        List<String> sparse = script("always", seed);
        assertEquals(dense.size(), sparse.size(), "seed " + seed);
        for (int i = 0; i < dense.size(); i++) {
            assertEquals(dense.get(i), sparse.get(i), "seed " + seed + ", state " + i);
        }
    }

    @Test
    void nameClashesAndCyclesAreRefusedAlike() {
        for (String mode : new String[] {"never", "always"}) {
            try (World w = inMode(mode, "32", () -> World.create(tmp.resolve("clash-" + mode)))) {
                long a = w.entity("a");
                long b = w.entity("b");
                long ax = w.entity("a.x");
                w.entity("b.x");
                long rootX = w.entity("x");
                String before = describe(w);
                assertThrows(NameTakenException.class, () -> w.add(ax, w.pair(CHILD_OF, b)), mode);
                assertThrows(NameTakenException.class, () -> w.remove(ax, w.pair(CHILD_OF, a)), mode);
                assertThrows(CycleException.class, () -> w.add(a, w.pair(CHILD_OF, ax)), mode);
                assertEquals(before, describe(w), mode + ": a refused change changes nothing");
                w.delete(rootX);
                w.remove(ax, w.pair(CHILD_OF, a));
                assertEquals(0, w.parent(ax), mode);
                assertEquals(ax, w.lookup("x"), mode);
                assertEquals(List.of(), w.check(), mode);
            }
        }
    }

    @Test
    void aRefusedTransactionRestoresParentsAndNames() {
        try (World w = inMode("always", "32", () -> World.create(tmp.resolve("w")))) {
            long a = w.entity("a");
            long b = w.entity("b");
            long kid = w.entity("a.kid");
            w.entity("a.kid.leaf");
            assertTrue(childOfSparse(w));
            String before = describe(w);
            assertThrows(IllegalStateException.class, () -> w.transaction(t -> {
                t.add(kid, t.pair(CHILD_OF, b));
                t.rename(kid, "moved");
                t.entity("b.moved.newLeaf");
                t.delete(a);
                assertEquals("b.moved", t.path(kid));
                throw new IllegalStateException("refused");
            }));
            assertEquals(before, describe(w));
            assertEquals(a, w.parent(kid));
            assertEquals(kid, w.lookup("a.kid"));
            assertEquals(0, w.lookup("b.moved"));
            assertEquals(List.of(), w.check());
            w.delete(a);
            assertFalse(w.isAlive(kid), "the cascade of (OnDeleteTarget, Delete) reaches sparse children");
            assertEquals(0, w.lookup("a.kid.leaf"));
            assertEquals(List.of(), w.check());
        }
    }
}
