package dev.quiver.index;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The name index against a HashMap model, driven as a world drives it: entities filed by name under
 * a parent (a key held by a stale entry is taken over), removed by name or by entity, renamed,
 * reparented, killed and filed again at a new generation, and a transaction's changed buckets
 * rolled back (dropped, then the committed entries restored), through many resizes (tables start
 * at 2 slots) whose backward-shift removals must keep every probe chain whole across a table's
 * wrap-around; also with hashes forced to collide. An entity holds at most one entry: filing it
 * under a second key is refused and changes nothing. Seed: {@code -Dquiver.seed=N} (printed).
 */
class NameIndexTest {
    record Key(int parent, String name) {}

    private static long seed() {
        long seed = Long.getLong("quiver.seed", System.nanoTime());
        System.out.println("NameIndexTest seed " + seed + " (-Dquiver.seed=" + seed + ")");
        return seed;
    }

    @Test
    void randomOperationsAgreeWithAHashMap() {
        new Model(seed(), false).run();
    }

    @Test
    void collidingHashesAgreeWithAHashMap() {
        new Model(seed(), true).run();
    }

    /** A world's entities (name, parent, generation by index) and the entries it expects. */
    private static final class Model {
        final long seed;
        final boolean collide;
        final Random rnd;
        final int entities;
        final int distinct;
        final int parents = 6;
        /** Hashes drawn from 48 values, a third of them in the last bucket (wrapping runs), when colliding ({@link #hashOf}). */
        final int[] fixed = new int[48];
        final int bucketBits;
        String[] name;
        int[] parent;
        int[] gen;
        /** The key entity i is filed under, or null. */
        Key[] filedAs;
        Map<Key, Long> model = new HashMap<>();
        final NameIndex index;
        /** The committed state a rollback returns to, and the buckets changed since. */
        String[] committedName;
        int[] committedParent;
        int[] committedGen;
        Map<Key, Long> committed = new HashMap<>();
        final java.util.Set<Integer> changed = new java.util.HashSet<>();
        int step;

        Model(long seed, boolean collide) {
            this.seed = seed;
            this.collide = collide;
            this.rnd = new Random(seed);
            this.entities = collide ? 4_000 : 60_000;
            this.distinct = collide ? 300 : 5_000;
            for (int k = 0; k < fixed.length; k++) {
                fixed[k] = k % 3 == 0 ? (0xFFF << 20) | rnd.nextInt(1 << 20) : rnd.nextInt();
            }
            this.bucketBits = 1 + rnd.nextInt(12);
            name = new String[entities];
            parent = new int[entities];
            gen = new int[entities];
            filedAs = new Key[entities];
            index = new NameIndex((i, n) -> n.equals(name[i]), bucketBits, 2);
            commit();
        }

        int hashOf(Key k) {
            // colliding: parents 2j and 2j + 1 give a name the same hash, so only the parent tells their keys apart
            return collide ? fixed[Math.floorMod(k.name().hashCode() * 7 + (k.parent() >> 1), fixed.length)]
                    : NameIndex.hash(k.parent(), k.name());
        }

        String at() {
            return "seed " + seed + " step " + step;
        }

        long id(int i) {
            return Ids.entity(i, gen[i]);
        }

        /** Files entity i under k as a world's put does; returns what the index returned. */
        long put(int i, Key k) {
            int h = hashOf(k);
            changed.add(index.bucketOf(h));
            Long before = model.put(k, id(i));
            if (before != null && Ids.index(before) != i) {
                filedAs[Ids.index(before)] = null;
            }
            filedAs[i] = k;
            long got = index.put(k.parent(), k.name(), h, id(i));
            assertEquals(before == null ? 0L : before, got, at() + " put " + k);
            return got;
        }

        void remove(Key k) {
            int h = hashOf(k);
            changed.add(index.bucketOf(h));
            Long before = model.remove(k);
            if (before != null) {
                filedAs[Ids.index(before)] = null;
            }
            assertEquals(before == null ? 0L : before, index.remove(k.parent(), k.name(), h), at() + " remove " + k);
        }

        void run() {
            int steps = collide ? 60_000 : 200_000;
            for (step = 0; step < steps; step++) {
                int i = 1 + rnd.nextInt(entities - 1);
                int op = rnd.nextInt(1000);
                if (op < 300) { // file an entity (a create), or be refused when it is filed already
                    Key k = new Key(rnd.nextInt(parents), "n" + rnd.nextInt(distinct));
                    if (filedAs[i] == null) {
                        name[i] = k.name();
                        parent[i] = k.parent();
                        put(i, k);
                    } else if (!k.equals(filedAs[i])) {
                        int size = index.size();
                        Key was = filedAs[i];
                        assertThrows(IllegalStateException.class, () -> index.put(k.parent(), k.name(), hashOf(k), id(i)), at());
                        assertEquals(size, index.size(), at());
                        assertEquals(id(i), index.get(was.parent(), was.name(), hashOf(was)), at() + " kept " + was);
                        Long other = model.get(k);
                        assertEquals(other == null ? 0L : other, index.get(k.parent(), k.name(), hashOf(k)), at());
                    }
                } else if (op < 420) { // remove by name (whoever holds the key)
                    if (name[i] != null) {
                        remove(new Key(parent[i], name[i]));
                    }
                } else if (op < 500) { // remove by entity: only its own entry goes
                    if (name[i] != null) {
                        int p = rnd.nextInt(4) == 0 ? rnd.nextInt(parents) : parent[i];
                        Key k = new Key(p, name[i]);
                        int h = hashOf(k);
                        changed.add(index.bucketOf(h));
                        boolean own = k.equals(filedAs[i]);
                        if (own) {
                            model.remove(k);
                            filedAs[i] = null;
                        }
                        assertEquals(own ? id(i) : 0L, index.removeEntity(p, i, h), at() + " removeEntity " + k);
                    }
                } else if (op < 650) { // rename or reparent a filed entity (refused when a sibling has the key)
                    Key was = filedAs[i];
                    if (was != null) {
                        Key k = rnd.nextBoolean() ? new Key(was.parent(), "n" + rnd.nextInt(distinct))
                                : new Key(rnd.nextInt(parents), was.name());
                        if (!model.containsKey(k)) {
                            remove(was);
                            name[i] = k.name();
                            parent[i] = k.parent();
                            assertEquals(0L, put(i, k), at());
                        }
                    }
                } else if (op < 750) { // kill: the entry goes first, the index comes back at the next generation
                    if (filedAs[i] != null) {
                        Key k = filedAs[i];
                        int h = hashOf(k);
                        changed.add(index.bucketOf(h));
                        model.remove(k);
                        filedAs[i] = null;
                        assertEquals(id(i), index.removeEntity(k.parent(), i, h), at() + " kill");
                    }
                    gen[i] = (gen[i] + 1) & Ids.MAX_GENERATION;
                    name[i] = null;
                } else if (op < 800) { // the same key filed again at a new generation
                    Key k = filedAs[i];
                    if (k != null) {
                        long before = id(i);
                        gen[i] = (gen[i] + 1) & Ids.MAX_GENERATION;
                        assertEquals(before, put(i, k), at());
                    }
                } else if (op < 998) {
                    if (rnd.nextInt(10) == 0) {
                        Key probe = new Key(rnd.nextInt(parents), "n" + rnd.nextInt(distinct));
                        assertEquals(model.getOrDefault(probe, 0L), index.get(probe.parent(), probe.name(), hashOf(probe)),
                                at() + " " + probe);
                    }
                } else if (op == 998) {
                    commit();
                } else {
                    rollback();
                    if (rnd.nextInt(4) == 0) {
                        checkAll();
                    }
                }
                if (step % 4999 == 0) {
                    checkAll();
                }
            }
            checkAll();
        }

        void commit() {
            committedName = name.clone();
            committedParent = parent.clone();
            committedGen = gen.clone();
            committed = new HashMap<>(model);
            changed.clear();
        }

        /** As a failed transaction: its changed buckets dropped, then refilled from the committed entries. */
        void rollback() {
            for (int b : changed) {
                index.removeBucket(b);
            }
            name = committedName.clone();
            parent = committedParent.clone();
            gen = committedGen.clone();
            Map<Integer, List<Map.Entry<Key, Long>>> byBucket = new HashMap<>();
            for (var en : committed.entrySet()) {
                byBucket.computeIfAbsent(index.bucketOf(hashOf(en.getKey())), b -> new ArrayList<>()).add(en);
            }
            for (int b : changed) {
                List<Map.Entry<Key, Long>> page = byBucket.getOrDefault(b, List.of());
                index.reserve(b, page.size());
                for (var en : page) {
                    index.restore(en.getKey().parent(), hashOf(en.getKey()), en.getValue());
                }
            }
            model = new HashMap<>(committed);
            filedAs = new Key[entities];
            for (var en : model.entrySet()) {
                filedAs[Ids.index(en.getValue())] = en.getKey();
            }
            changed.clear();
        }

        /** Every entry found by its key and listed once, with its hash, in its bucket. */
        void checkAll() {
            assertEquals(model.size(), index.size(), at());
            for (var en : model.entrySet()) {
                Key k = en.getKey();
                assertEquals(en.getValue(), index.get(k.parent(), k.name(), hashOf(k)), at() + " " + k);
            }
            int[] expected = new int[index.buckets()];
            for (Key k : model.keySet()) {
                expected[index.bucketOf(hashOf(k))]++;
            }
            int[] visited = {0};
            for (int b = 0; b < index.buckets(); b++) {
                int bucket = b;
                int[] seen = {0};
                index.forEachInBucket(b, (p, e, hash) -> {
                    Key k = new Key(p, name[Ids.index(e)]);
                    assertEquals(model.get(k), e, at() + " listed " + k);
                    assertEquals(hashOf(k), hash, at());
                    assertEquals(bucket, index.bucketOf(hash), at());
                    seen[0]++;
                });
                assertEquals(expected[b], seen[0], at() + " bucket " + b);
                assertEquals(expected[b], index.bucketSize(b), at() + " bucket " + b);
                visited[0] += seen[0];
            }
            assertEquals(model.size(), visited[0], at());
        }
    }

    @Test
    void restoredEntriesAreFoundWithoutReadingNamesAndGrowTheTable() {
        String[] names = new String[5_000];
        int[] nameReads = {0};
        NameIndex index = new NameIndex((i, name) -> {
            nameReads[0]++;
            return name.equals(names[i]);
        }, 12, 2);
        for (int i = 1; i < names.length; i++) {
            names[i] = "e" + i;
            index.restore(7, NameIndex.hash(7, names[i]), Ids.entity(i, i % 5));
        }
        assertEquals(0, nameReads[0], "restoring reads no name");
        assertEquals(names.length - 1, index.size());
        assertTrue(index.capacity() >= 4 * (names.length - 1) / 3, "at most three quarters full: " + index.capacity());
        for (int i = 1; i < names.length; i++) {
            assertEquals(Ids.entity(i, i % 5), index.get(7, names[i]));
        }
        assertEquals(names.length - 1, nameReads[0], "a hit compares the one candidate's name");
        assertEquals(0, index.get(8, "e1"), "another parent");
        assertEquals(0, index.get(7, "e0"));
    }

    @Test
    void anEntityHoldsOneEntry() {
        String[] names = {null, "a", "b"};
        NameIndex index = new NameIndex((i, name) -> name.equals(names[i]), 4, 2);
        long e = Ids.entity(1, 3);
        index.put(0, "a", e);
        assertThrows(IllegalStateException.class, () -> index.put(5, "a", e), "under another parent");
        assertThrows(IllegalStateException.class, () -> index.restore(5, NameIndex.hash(5, "a"), e), "restored twice");
        assertThrows(IllegalStateException.class, () -> index.restore(0, NameIndex.hash(0, "a"), Ids.entity(1, 4)));
        assertEquals(1, index.size());
        assertEquals(e, index.get(0, "a"));
        assertEquals(0, index.get(5, "a"));
        assertEquals(e, index.remove(0, "a"));
        index.restore(5, NameIndex.hash(5, "a"), Ids.entity(1, 4)); // filed nowhere now
        assertEquals(Ids.entity(1, 4), index.get(5, "a"));
    }

    @Test
    void anEntityWithoutAnIndexIsRefused() {
        NameIndex index = new NameIndex((i, name) -> false);
        assertThrows(IllegalArgumentException.class, () -> index.put(0, "x", 0L));
        assertThrows(IllegalArgumentException.class, () -> index.put(0, "x", Ids.pair(Ids.entity(3, 0), Ids.entity(4, 0))));
        assertThrows(IllegalArgumentException.class, () -> new NameIndex((i, name) -> false, 17, 8));
        assertEquals(0, index.size());
    }
}
