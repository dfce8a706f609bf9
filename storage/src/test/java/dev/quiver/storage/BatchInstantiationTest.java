package dev.quiver.storage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.BiFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link World#instantiate}: N instances of a prefab in one transaction give the world that N
 * single instantiations give (ids, values, names, children, grandchildren, pairs, disabled
 * components), with ChildOf fragmenting and sparse, for prefabs the batch replicates and for
 * prefabs it leaves to the rules (a Symmetric pair); bad input changes nothing.
 */
class BatchInstantiationTest {
    @TempDir
    Path tmp;

    /** Every alive user entity: path, type, and the values of its data ids, by index. */
    static String describe(World w) {
        var out = new TreeMap<Integer, String>();
        for (int i = Builtin.FIRST_USER_INDEX; i < 100_000; i++) {
            long e = w.entityOfIndex(i);
            if (e == 0 || !w.isAlive(e)) {
                continue;
            }
            var ids = new ArrayList<String>();
            for (long id : w.type(e)) {
                ids.add(w.idToString(id) + (w.schema(id) != null && w.owns(e, id) ? "=" + w.get(e, id) : ""));
            }
            out.put(i, w.path(e) + " " + ids);
        }
        return out.toString();
    }

    /** A prefab world: components with values, named children with their own children, a disabled component, pairs to outside. */
    private static long setUp(World w, boolean symmetric) {
        return w.transactionResult(t -> {
            Schema v = Schema.of("v", FieldType.F64);
            long c0 = t.component("C0", v), c1 = t.component("C1", v), tog = t.component("Tog", v);
            t.add(tog, Builtin.CAN_TOGGLE);
            long likes = t.entity("Likes");
            t.add(likes, Builtin.EXCLUSIVE);
            long near = t.entity("Near");
            if (symmetric) {
                t.add(near, Builtin.SYMMETRIC);
            }
            long place = t.entity("place");
            long ship = t.entity("Ship");
            t.add(ship, Builtin.PREFAB);
            t.set(ship, c0, new Object[] {1.5});
            t.set(ship, tog, new Object[] {3.0});
            t.toggling().disable(ship, tog);
            t.add(ship, t.pair(likes, place));
            for (int i = 0; i < 3; i++) {
                long part = t.entity("Ship.part" + i);
                t.set(part, c1, new Object[] {(double) i});
                t.add(part, t.pair(near, place));
                t.entity("Ship.part" + i + ".bolt");
            }
            t.entity("Ship.part1.bolt.nut");
            return ship;
        });
    }

    private String build(String mode, boolean symmetric, BiFunction<World, Long, long[]> make) {
        Path dir = tmp.resolve(mode + symmetric + System.nanoTime());
        return SparseChildOfTest.inMode(mode, "32", () -> {
            try (World w = World.create(dir)) {
                long ship = setUp(w, symmetric);
                long[] made = make.apply(w, ship);
                assertEquals(7, made.length);
                for (long e : made) {
                    assertTrue(w.has(e, w.pair(Builtin.IS_A, ship)));
                }
                assertEquals(List.of(), w.check(), mode);
                String d = describe(w);
                w.close();
                try (World again = World.open(dir)) {
                    assertEquals(d, describe(again), mode + ": after reopen");
                    assertEquals(List.of(), again.check());
                }
                return d;
            }
        });
    }

    @Test
    void aBatchGivesTheWorldOfSingleInstantiations() {
        for (boolean symmetric : new boolean[] {false, true}) {
            for (String mode : new String[] {"never", "always", "auto"}) {
                String single = build(mode, symmetric, (w, ship) -> {
                    long[] out = new long[7];
                    w.transaction(t -> {
                        for (int i = 0; i < out.length; i++) {
                            out[i] = t.entity();
                            t.add(out[i], t.pair(Builtin.IS_A, ship));
                        }
                    });
                    return out;
                });
                String batch = build(mode, symmetric, (w, ship) -> w.instantiate(ship, 7));
                assertEquals(single, batch, mode + (symmetric ? ", symmetric" : ""));
                assertTrue(batch.contains("part1.bolt.nut"), batch);
            }
        }
    }

    /**
     * A random prefab: components (some Inherit, some DontInherit, one maybe toggled off), pairs to
     * outside entities (of an Exclusive relationship, maybe a Symmetric one), a tree of named and
     * anonymous children with their own values and pairs, maybe a validator that refines each
     * copy by the entity it lands on, and an instance of another prefab among the children.
     */
    private static long randomPrefab(World w, Random rnd, boolean validator) {
        long ship = w.transactionResult(t -> {
            Schema v = Schema.of("v", FieldType.F64);
            int nc = 1 + rnd.nextInt(4);
            long[] cs = new long[nc];
            for (int i = 0; i < nc; i++) {
                cs[i] = t.component("C" + i, v);
                int policy = rnd.nextInt(5);
                if (policy == 0) {
                    t.add(cs[i], t.pair(Builtin.ON_INSTANTIATE, Builtin.INHERIT));
                } else if (policy == 1) {
                    t.add(cs[i], t.pair(Builtin.ON_INSTANTIATE, Builtin.DONT_INHERIT));
                } else if (policy == 2) {
                    t.add(cs[i], Builtin.CAN_TOGGLE);
                }
            }
            long likes = t.entity("Likes");
            t.add(likes, Builtin.EXCLUSIVE);
            long near = t.entity("Near");
            if (rnd.nextInt(4) == 0) {
                t.add(near, Builtin.SYMMETRIC);
            }
            long[] places = {t.entity("place0"), t.entity("place1")};
            long other = t.entity("Other");
            t.add(other, Builtin.PREFAB);
            t.set(other, cs[0], new Object[] {7.0});
            t.entity("Other.leaf");
            long s = t.entity("Ship");
            t.add(s, Builtin.PREFAB);
            var nodes = new ArrayList<Long>(List.of(s));
            var named = new ArrayList<String>(List.of("Ship"));
            int children = rnd.nextInt(7);
            for (int i = 0; i < children; i++) {
                int p = rnd.nextInt(nodes.size());
                long child;
                if (named.get(p) != null && rnd.nextInt(4) > 0) {
                    named.add(named.get(p) + ".p" + i);
                    child = t.entity(named.get(named.size() - 1));
                } else {
                    named.add(null);
                    child = t.entity();
                    t.add(child, t.pair(Builtin.CHILD_OF, nodes.get(p)));
                }
                nodes.add(child);
            }
            for (long n : nodes) {
                for (long c : cs) {
                    if (rnd.nextInt(2) == 0) {
                        t.set(n, c, new Object[] {rnd.nextInt(100) / 4.0});
                        if (rnd.nextInt(6) == 0 && t.has(c, Builtin.CAN_TOGGLE)) {
                            t.toggling().disable(n, c);
                        }
                    }
                }
                if (rnd.nextInt(3) == 0) {
                    t.add(n, t.pair(likes, places[rnd.nextInt(2)]));
                }
                if (rnd.nextInt(4) == 0) {
                    t.add(n, t.pair(near, places[rnd.nextInt(2)]));
                }
                if (n != s && rnd.nextInt(6) == 0) {
                    t.add(n, t.pair(Builtin.IS_A, other));
                }
            }
            return s;
        });
        if (validator) {
            long c0 = w.lookup("C0");
            w.validate(c0, (e, id, value) -> Map.of("v", ((Number) value.get("v")).doubleValue() + dev.quiver.index.Ids.index(e)));
        }
        return ship;
    }

    /** N instances of random prefabs through the batch and through N single adds: the same world. */
    @Test
    void seededBatchesGiveTheWorldOfSingleInstantiations() {
        long seed = Long.getLong("quiver.seed", System.nanoTime());
        System.out.println("BatchInstantiationTest seed " + seed + " (-Dquiver.seed=" + seed + ")");
        var rnd = new Random(seed);
        for (int r = 0; r < 12; r++) {
            int round = r;
            long shape = rnd.nextLong();
            String mode = new String[] {"never", "always", "auto"}[rnd.nextInt(3)];
            boolean validator = rnd.nextInt(3) == 0;
            int n = 1 + rnd.nextInt(9);
            String where = "seed " + seed + ", round " + round + " (" + mode + (validator ? ", validator" : "") + ", " + n + ")";
            String single = SparseChildOfTest.inMode(mode, "4", () -> {
                try (World w = World.create(tmp.resolve("single" + round))) {
                    long ship = randomPrefab(w, new Random(shape), validator);
                    w.transaction(t -> {
                        for (int i = 0; i < n; i++) {
                            t.add(t.entity(), t.pair(Builtin.IS_A, ship));
                        }
                    });
                    assertEquals(List.of(), w.check(), where);
                    return describe(w);
                }
            });
            String batch = SparseChildOfTest.inMode(mode, "4", () -> {
                Path dir = tmp.resolve("batch" + round);
                String d;
                try (World w = World.create(dir)) {
                    long ship = randomPrefab(w, new Random(shape), validator);
                    assertEquals(n, w.instantiate(ship, n).length);
                    assertEquals(List.of(), w.check(), where);
                    d = describe(w);
                }
                try (World again = World.open(dir)) {
                    assertEquals(d, describe(again), where + ": after reopen");
                    assertEquals(List.of(), again.check(), where);
                }
                return d;
            });
            assertEquals(single, batch, where);
        }
    }

    /**
     * A batch whose k-th copy a validator refuses is refused whole: the world (and the files) as
     * before, for a prefab the batch would replicate and for one it leaves to the rules.
     */
    @Test
    void aRefusedBatchChangesNothing() {
        for (boolean symmetric : new boolean[] {false, true}) {
            Path dir = tmp.resolve("refused" + symmetric);
            String before;
            try (World w = World.create(dir)) {
                long ship = setUp(w, symmetric);
                w.instantiate(ship, 3);
                before = describe(w);
                int[] calls = {0};
                w.validate(w.lookup("C1"), (e, id, value) -> {
                    if (++calls[0] == 7) {
                        throw new ValidationException("the seventh copy is refused");
                    }
                    return value;
                });
                assertThrows(ValidationException.class, () -> w.instantiate(ship, 5));
                assertEquals(7, calls[0]);
                assertEquals(before, describe(w));
                assertEquals(List.of(), w.check());
                calls[0] = -100;
                assertEquals(5, w.instantiate(ship, 5).length); // the world still takes batches
                assertEquals(List.of(), w.check());
                before = describe(w);
            }
            try (World again = World.open(dir)) {
                assertEquals(before, describe(again));
                assertEquals(List.of(), again.check());
            }
        }
    }

    @Test
    void aBatchInsideATransactionRollsBackWithIt() {
        try (World w = World.create(tmp.resolve("w"))) {
            long ship = setUp(w, false);
            w.instantiate(ship, 2);
            String before = describe(w);
            assertThrows(IllegalStateException.class, () -> w.transaction(t -> {
                t.instantiate(ship, 5);
                throw new IllegalStateException("refused");
            }));
            assertEquals(before, describe(w));
            assertEquals(List.of(), w.check());
            assertEquals(0, w.instantiate(ship, 0).length);
        }
    }

    @Test
    void badInputChangesNothing() {
        try (World w = World.create(tmp.resolve("w"))) {
            long ship = setUp(w, false);
            String before = describe(w);
            assertThrows(BatchSizeException.class, () -> w.instantiate(ship, -1));
            assertEquals(before, describe(w));
            long gone = w.entity("gone");
            w.delete(gone);
            String afterDelete = describe(w);
            assertThrows(DeadEntityException.class, () -> w.instantiate(gone, 3));
            assertEquals(afterDelete, describe(w));
            long fin = w.entity("Fin");
            w.add(fin, Builtin.FINAL);
            String withFinal = describe(w);
            assertThrows(FinalException.class, () -> w.instantiate(fin, 3));
            assertEquals(withFinal, describe(w));
            assertEquals(List.of(), w.check());
        }
    }
}
