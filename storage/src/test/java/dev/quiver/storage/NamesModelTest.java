package dev.quiver.storage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Names and paths through the public API against a plain model (id to name and parent): random
 * transactions create entities by path (names repeat under different parents), rename, reparent
 * (a clash refused), delete subtrees (their indices recycled at a new generation), and a third of
 * them are refused at their end: by a rule (the pages they touched, name buckets among them, are
 * read back) or by a failure (the committed state is reloaded); every few transactions the world
 * is closed and opened again (its names read lazily from their pages). After each transaction
 * every entity's path, name and parent answer as the model and a stale id is dead; after a reopen
 * and every fifth transaction the checker finds nothing. Just after a reopen, reading every
 * entity's state decodes no entity page's names (format 11: they are decoded on first use).
 * Seed: {@code -Dquiver.seed=N} (printed).
 */
class NamesModelTest {
    @TempDir
    Path tmp;

    record Node(String name, long parent) {}

    @Test
    void namesPathsAndRollbacksAgreeWithAModel() {
        long seed = Long.getLong("quiver.seed", System.nanoTime());
        System.out.println("NamesModelTest seed " + seed + " (-Dquiver.seed=" + seed + ")");
        Random rnd = new Random(seed);
        Path dir = tmp.resolve("w");
        Map<Long, Node> model = new HashMap<>();
        List<Long> dead = new ArrayList<>();
        World w = World.create(dir);
        try {
            for (int t = 0; t < 160; t++) {
                String at = "seed " + seed + " transaction " + t;
                Map<Long, Node> before = new HashMap<>(model);
                int deadBefore = dead.size();
                int refuse = rnd.nextInt(6); // 0: a rule refuses it (the pages it touched are read back), 1: a failure (all reloaded)
                try {
                    w.transaction(x -> {
                        int ops = 1 + rnd.nextInt(40);
                        for (int k = 0; k < ops; k++) {
                            step(x, rnd, model, dead, at);
                        }
                        if (refuse == 0) {
                            x.delete(Builtin.CHILD_OF);
                        } else if (refuse == 1) {
                            throw new IllegalStateException("refused");
                        }
                    });
                    assertTrue(refuse > 1, at);
                } catch (ConstraintException | IllegalStateException e) {
                    assertTrue(refuse == 0 ? e instanceof ConstraintException : "refused".equals(e.getMessage()), at + " " + e);
                    model.clear();
                    model.putAll(before);
                    dead.subList(deadBefore, dead.size()).clear();
                }
                boolean reopen = rnd.nextInt(8) == 0;
                if (reopen) {
                    w.close();
                    w = World.open(dir);
                    statesWithoutNames(w, model, dead, at + " writer reopened");
                }
                check(w, model, dead, reopen || t % 5 == 0, at);
            }
        } finally {
            w.close();
        }
        try (World r = World.openReadOnly(dir)) {
            statesWithoutNames(r, model, dead, "seed " + seed + " read-only");
            check(r, model, dead, true, "seed " + seed + " read-only");
        }
    }

    private static String path(Map<Long, Node> model, long e) {
        Node n = model.get(e);
        return n.parent() == 0 ? n.name() : path(model, n.parent()) + "." + n.name();
    }

    private static long sibling(Map<Long, Node> model, long parent, String name) {
        for (var en : model.entrySet()) {
            if (en.getValue().parent() == parent && en.getValue().name().equals(name)) {
                return en.getKey();
            }
        }
        return 0;
    }

    private static boolean within(Map<Long, Node> model, long e, long root) {
        for (long p = e; p != 0; p = model.get(p).parent()) {
            if (p == root) {
                return true;
            }
        }
        return false;
    }

    private static long any(Random rnd, Map<Long, Node> model) {
        if (model.isEmpty()) {
            return 0;
        }
        List<Long> ids = new ArrayList<>(model.keySet());
        ids.sort(null);
        return ids.get(rnd.nextInt(ids.size()));
    }

    private static void step(World x, Random rnd, Map<Long, Node> model, List<Long> dead, String at) {
        int op = rnd.nextInt(100);
        long e = any(rnd, model);
        if (op < 45 || e == 0) { // create by path under an entity or at the root
            long parent = rnd.nextInt(4) == 0 ? 0 : any(rnd, model);
            String name = "n" + rnd.nextInt(40);
            long held = sibling(model, parent, name);
            long got = x.entity(parent == 0 ? name : path(model, parent) + "." + name);
            if (held != 0) {
                assertEquals(held, got, at + " existing " + name);
            } else {
                model.put(got, new Node(name, parent));
            }
        } else if (op < 65) { // rename
            Node n = model.get(e);
            String name = "n" + rnd.nextInt(40);
            long held = sibling(model, n.parent(), name);
            if (held != 0 && held != e) {
                assertThrows(NameTakenException.class, () -> x.rename(e, name), at);
            } else {
                x.rename(e, name);
                model.put(e, new Node(name, n.parent()));
            }
        } else if (op < 80) { // reparent (to the root, or under an entity outside its subtree)
            Node n = model.get(e);
            long p = rnd.nextInt(4) == 0 ? 0 : any(rnd, model);
            if (p == n.parent() || (p != 0 && within(model, p, e))) {
                return;
            }
            long held = sibling(model, p, n.name());
            if (held != 0) {
                assertThrows(NameTakenException.class, () -> move(x, e, n.parent(), p), at);
            } else {
                move(x, e, n.parent(), p);
                model.put(e, new Node(n.name(), p));
            }
        } else if (op < 92) { // delete a subtree
            x.delete(e);
            List<Long> gone = new ArrayList<>();
            for (long id : model.keySet()) {
                if (within(model, id, e)) {
                    gone.add(id);
                }
            }
            for (long id : gone) {
                model.remove(id);
                dead.add(id);
            }
        } else { // look up
            assertEquals(e, x.lookup(path(model, e)), at);
        }
    }

    private static void move(World x, long e, long from, long to) {
        if (to == 0) {
            x.remove(e, x.pair(Builtin.CHILD_OF, from));
        } else {
            x.add(e, x.pair(Builtin.CHILD_OF, to));
        }
    }

    /**
     * Just after an open: every entity's state is read (its entity page decoded) without decoding
     * any page's names (format 11); the names are decoded by the check that follows.
     */
    private static void statesWithoutNames(World w, Map<Long, Node> model, List<Long> dead, String at) {
        for (long e : model.keySet()) {
            assertTrue(w.isAlive(e), at);
        }
        for (long d : dead) {
            assertFalse(w.isAlive(d), at + " stale " + d);
        }
        PageReads reads = w.pageReads();
        assertTrue(model.isEmpty() || reads.entityPages() > 0, at + " " + reads);
        assertEquals(0, reads.entityNameSections(), at + ": states decode no names " + reads);
    }

    private static void check(World w, Map<Long, Node> model, List<Long> dead, boolean checker, String at) {
        for (var en : model.entrySet()) {
            long e = en.getKey();
            String p = path(model, e);
            assertEquals(e, w.lookup(p), at + " " + p);
            assertEquals(en.getValue().name(), w.name(e), at);
            assertEquals(en.getValue().parent(), w.parent(e), at);
            assertEquals(p, w.path(e), at);
        }
        for (long d : dead) {
            assertFalse(w.isAlive(d), at + " stale " + d);
        }
        if (checker) {
            assertEquals(List.of(), w.check(), at);
        }
    }
}
