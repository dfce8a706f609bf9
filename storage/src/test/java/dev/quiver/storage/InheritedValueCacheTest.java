package dev.quiver.storage;

import dev.quiver.error.BadInputException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An inherited {@code get} hands out one read-only snapshot of the base's value while the base's
 * column is unchanged (issue 9: no allocation on the inherited path), and a new one after every
 * change that can reach it: the base's value set, an override set on the instance, IsA removed
 * and added, the prefab changed after its instances exist, rows swapped in the base's table, a
 * refused transaction undone, a reopen.
 */
class InheritedValueCacheTest {
    @TempDir
    Path tmp;
    World w;

    @AfterEach
    void closeWorld() {
        if (w != null) {
            assertEquals(List.of(), w.check());
            w.close();
        }
    }

    private long inheritComponent(String name) {
        long c = w.component(name, Schema.of("value", FieldType.I64));
        w.add(c, w.pair(Builtin.ON_INSTANTIATE, Builtin.INHERIT));
        return c;
    }

    private long value(long e, long c) {
        Map<String, Object> v = w.get(e, c);
        return v == null ? -1 : ((Number) v.get("value")).longValue();
    }

    @Test
    void sameSnapshotUntilTheBaseChanges() {
        w = World.create(tmp.resolve("w"));
        long c = inheritComponent("C");
        long base = w.entity("base"), mid = w.entity("mid"), leaf = w.entity("leaf");
        w.set(base, c, Map.of("value", 1));
        w.add(mid, w.pair(Builtin.IS_A, base));
        w.add(leaf, w.pair(Builtin.IS_A, mid));
        Map<String, Object> first = w.get(leaf, c);
        assertEquals(Map.of("value", 1L), first);
        assertSame(first, w.get(leaf, c), "an unchanged inherited value is handed out once");
        long leaf2 = w.entity("leaf2");
        w.add(leaf2, w.pair(Builtin.IS_A, mid));
        assertSame(w.get(leaf, c), w.get(leaf2, c), "the instances of one table read the same snapshot");
        assertEquals(first, w.get(mid, c));
        assertThrows(UnsupportedOperationException.class, () -> first.put("value", 5L));

        w.set(base, c, Map.of("value", 2));
        Map<String, Object> second = w.get(leaf, c);
        assertNotSame(first, second);
        assertEquals(2, value(leaf, c));
        assertEquals(Map.of("value", 1L), first, "a handed-out snapshot keeps the value it was read with");

        w.set(mid, c, Map.of("value", 3)); // an override on the instance (mid)
        assertEquals(3, value(mid, c));
        assertEquals(3, value(leaf, c));
        w.remove(mid, c);
        assertEquals(2, value(leaf, c));

        w.set(leaf, c, Map.of("value", 4)); // an override on the leaf: owned, not the snapshot
        assertEquals(4, value(leaf, c));
        w.remove(leaf, c);
        assertEquals(2, value(leaf, c));

        w.remove(mid, w.pair(Builtin.IS_A, base));
        assertNull(w.get(leaf, c), "IsA removed: nothing to inherit");
        long other = w.entity("other");
        w.set(other, c, Map.of("value", 9));
        w.add(mid, w.pair(Builtin.IS_A, other));
        assertEquals(9, value(leaf, c));
        w.add(mid, w.pair(Builtin.IS_A, base));
        assertEquals(2, value(leaf, c), "bases in type order: base was created before other");
    }

    @Test
    void rowsSwappedInTheBaseTable() {
        w = World.create(tmp.resolve("w"));
        long c = inheritComponent("C");
        long a = w.entity("a"), b = w.entity("b");
        w.set(a, c, Map.of("value", 10));
        w.set(b, c, Map.of("value", 20)); // a and b share a table: a in row 0, b in row 1
        long ia = w.entity("ia"), ib = w.entity("ib");
        w.add(ia, w.pair(Builtin.IS_A, a));
        w.add(ib, w.pair(Builtin.IS_A, b));
        assertEquals(10, value(ia, c));
        assertEquals(20, value(ib, c));
        w.add(a, w.entity("Moved")); // a leaves the table: b is swapped into row 0
        assertEquals(20, value(ib, c));
        assertEquals(10, value(ia, c));
        long d = w.entity("d");
        w.set(d, c, Map.of("value", 30)); // d takes row 1, the row b's snapshot was read from
        long id = w.entity("id");
        w.add(id, w.pair(Builtin.IS_A, d));
        assertEquals(30, value(id, c));
        assertEquals(20, value(ib, c));
        w.set(b, c, Map.of("value", 21));
        assertEquals(21, value(ib, c));
        assertEquals(30, value(id, c));
        w.delete(b);
        assertNull(w.get(ib, c), "the base is gone");
        assertEquals(30, value(id, c));
        assertEquals(10, value(ia, c));
    }

    @Test
    void refusedTransactionUndoesTheSnapshotItRead() {
        w = World.create(tmp.resolve("w"));
        long c = inheritComponent("C");
        long base = w.entity("base"), leaf = w.entity("leaf");
        w.set(base, c, Map.of("value", 1));
        w.add(leaf, w.pair(Builtin.IS_A, base));
        assertEquals(1, value(leaf, c));
        assertThrows(BadInputException.class, () -> w.transaction(t -> {
            t.set(base, c, Map.of("value", 7));
            assertEquals(7, ((Number) t.get(leaf, c).get("value")).longValue()); // read (and kept) inside
            throw new BadInputException("refused on purpose");
        }));
        assertEquals(1, value(leaf, c), "the refused set is undone, and so is the snapshot read during it");
        assertThrows(BadInputException.class, () -> w.transaction(t -> {
            t.remove(base, c);
            assertNull(t.get(leaf, c));
            throw new BadInputException("refused on purpose");
        }));
        assertEquals(1, value(leaf, c));
        w.close();
        w = World.open(tmp.resolve("w"));
        assertEquals(1, value(w.resolve("leaf"), w.resolve("C")));
        w.set(w.resolve("base"), w.resolve("C"), Map.of("value", 5));
        assertEquals(5, value(w.resolve("leaf"), w.resolve("C")));
    }

    /** A prefab changed after its instances (made one by one and in a batch) exist: they all see the change. */
    @Test
    void prefabChangedAfterInstancesExist() {
        w = World.create(tmp.resolve("w"));
        long c = inheritComponent("C");
        long prefab = w.entity("Ship");
        w.add(prefab, Builtin.PREFAB);
        w.set(prefab, c, Map.of("value", 1));
        long part = w.entity("Ship.part");
        w.set(part, c, Map.of("value", 100));
        long[] made = w.instantiate(prefab, 50);
        long one = w.entity();
        w.add(one, w.pair(Builtin.IS_A, prefab));
        for (long m : made) {
            assertEquals(1, value(m, c));
            assertEquals(100, value(w.lookup(m, "part"), c));
        }
        w.set(prefab, c, Map.of("value", 2));
        w.set(part, c, Map.of("value", 200));
        for (long m : made) {
            assertEquals(2, value(m, c));
            assertEquals(200, value(w.lookup(m, "part"), c));
        }
        assertEquals(2, value(one, c));
        w.set(made[3], c, Map.of("value", 3));
        assertEquals(3, value(made[3], c));
        assertEquals(2, value(made[4], c));
        w.remove(prefab, c);
        assertNull(w.get(made[4], c));
        assertEquals(3, value(made[3], c));
        w.set(prefab, c, Map.of("value", 5));
        assertEquals(5, value(made[4], c));
        assertEquals(5, value(one, c));
    }

    /** Repeated inherited gets of an unchanged value allocate (next to) nothing. */
    @Test
    void inheritedGetAllocatesNothing() {
        var mx = ManagementFactory.getThreadMXBean();
        if (!(mx instanceof com.sun.management.ThreadMXBean)) {
            return; // no per-thread allocation counter on this JVM
        }
        var threads = (com.sun.management.ThreadMXBean) mx;
        w = World.create(tmp.resolve("w"));
        long c = inheritComponent("C");
        long b0 = w.entity("b0"), b1 = w.entity("b1"), b2 = w.entity("b2"), leaf = w.entity("leaf");
        w.set(b0, c, Map.of("value", 42));
        w.add(b1, w.pair(Builtin.IS_A, b0));
        w.add(b2, w.pair(Builtin.IS_A, b1));
        w.add(leaf, w.pair(Builtin.IS_A, b2));
        Object sink = null;
        for (int i = 0; i < 1000; i++) {
            sink = w.get(leaf, c);
        }
        long tid = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(tid);
        int n = 100_000;
        for (int i = 0; i < n; i++) {
            sink = w.get(leaf, c);
        }
        long bytes = threads.getThreadAllocatedBytes(tid) - before;
        assertTrue(bytes < n, n + " inherited gets allocated " + bytes + " bytes (a map per get would be about " + 64L * n + ")");
        assertEquals(Map.of("value", 42L), sink);
    }
}
