package dev.quiver.storage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
            t.disable(ship, tog);
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
