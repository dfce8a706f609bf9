package dev.quiver.index;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The component index built when read: every read of a lazily built index (a key scanned alone,
 * or the whole index built after {@link IdRecords#LAZY_KEYS} keys or at the first change) equals
 * the index built eagerly, records in ascending table id.
 */
class IdRecordsTest {
    /** A table: an id and its sorted record keys. */
    record Tab(int id, long[] keys) {}

    private static IdRecords.TableSource<Tab> source(List<Tab> tables) {
        return new IdRecords.TableSource<>() {
            @Override
            public int size() {
                return tables.isEmpty() ? 0 : tables.get(tables.size() - 1).id() + 1;
            }

            @Override
            public Tab get(int id) {
                for (Tab t : tables) {
                    if (t.id() == id) {
                        return t;
                    }
                }
                return null;
            }

            @Override
            public boolean holds(Tab t, long key) {
                return Arrays.binarySearch(t.keys(), key) >= 0;
            }

            @Override
            public int keys(Tab t, long[][] out) {
                if (out[0].length < t.keys().length) {
                    out[0] = new long[t.keys().length];
                }
                System.arraycopy(t.keys(), 0, out[0], 0, t.keys().length);
                return t.keys().length;
            }
        };
    }

    @Test
    void lazyReadsEqualTheEagerIndex() {
        long seed = Long.getLong("quiver.seed", System.nanoTime());
        System.out.println("IdRecordsTest seed " + seed + " (-Dquiver.seed=" + seed + ")");
        Random rnd = new Random(seed);
        for (int round = 0; round < 50; round++) {
            var tables = new ArrayList<Tab>();
            for (int id = 0; id < 40; id++) {
                if (rnd.nextInt(4) == 0) {
                    continue; // free table ids
                }
                var keys = new TreeSet<Long>();
                for (int k = rnd.nextInt(5); k >= 0; k--) {
                    keys.add((long) rnd.nextInt(30));
                }
                tables.add(new Tab(id, keys.stream().mapToLong(Long::longValue).toArray()));
            }
            var eager = new IdRecords<Tab>(Tab::id);
            for (Tab t : tables) {
                for (long k : t.keys()) {
                    eager.add(k, t);
                }
            }
            var lazy = new IdRecords<Tab>(Tab::id);
            lazy.rebuildFrom(source(tables));
            for (int q = 0; q < 40; q++) {
                long key = rnd.nextInt(35);
                assertEquals(eager.get(key), lazy.get(key), "seed " + seed + " key " + key);
                assertEquals(eager.contains(key), lazy.contains(key), "seed " + seed + " key " + key);
            }
            assertEquals(eager.keys(), lazy.keys(), "seed " + seed);
            assertEquals(eager.size(), lazy.size(), "seed " + seed);
        }
    }

    @Test
    void aChangeBuildsTheWholeIndexFirst() {
        var tables = new ArrayList<>(List.of(new Tab(1, new long[] {5}), new Tab(3, new long[] {5, 7})));
        var r = new IdRecords<Tab>(Tab::id);
        r.rebuildFrom(source(tables));
        assertEquals(List.of(tables.get(1)), r.get(7)); // scanned alone
        Tab t2 = new Tab(2, new long[] {5});
        r.build(); // the owner builds before its table list changes
        tables.add(1, t2);
        r.add(5, t2);
        assertEquals(List.of(tables.get(0), t2, tables.get(2)), r.get(5), "ascending table id");
        assertTrue(r.remove(7, tables.get(2)));
        assertFalse(r.contains(7));
        assertThrows(IllegalStateException.class, () -> r.add(5, t2), "a table is in a record once");
    }
}
