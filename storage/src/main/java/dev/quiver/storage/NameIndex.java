package dev.quiver.storage;

import dev.quiver.index.Ids;

import java.util.Arrays;
import java.util.function.IntFunction;

/**
 * The name index: (parent entity index, name) to entity id (Flecs v4 entity names and paths:
 * a name is unique among the children of one parent).
 *
 * <p>In memory it is {@value #BUCKETS} open-addressing tables, one per bucket, whose slots hold
 * the entity id and its parent index; the key's name is not stored but read from the entity
 * itself (the {@code names} lookup given to the constructor), so the index costs 12 bytes a
 * name and no objects. A key's bucket is the top {@value #BUCKET_BITS} bits of its hash and its
 * slot within the bucket comes from the low bits, so the two are independent.
 *
 * <p>Each bucket is one persistent page: {@code int32 n}, then {@code n} times
 * {@code (string name, int32 parent index, int64 entity)}, in entity order, so that a page's
 * bytes depend on its entries alone. Not thread-safe.
 */
final class NameIndex {
    static final int BUCKET_BITS = 12;
    static final int BUCKETS = 1 << BUCKET_BITS;

    private final IntFunction<String> names;
    /** Per bucket: entity ids, 0 for an empty slot; capacity a power of two, at most 3/4 full. */
    private final long[][] entities = new long[BUCKETS][];
    private final int[][] parents = new int[BUCKETS][];
    private final int[] sizes = new int[BUCKETS];
    private int total;

    /** @param names the name of an entity index (the key's name, never stored here) */
    NameIndex(IntFunction<String> names) {
        this.names = names;
    }

    static int hash(int parent, String name) {
        int h = (name.hashCode() * 31 + parent) * 0x9E3779B9;
        return h ^ (h >>> 15);
    }

    /** The bucket (and persistent page) of a key. */
    static int bucket(int parent, String name) {
        return (name.hashCode() * 31 + parent) * 0x9E3779B9 >>> (32 - BUCKET_BITS);
    }

    /** The entity id named {@code name} under {@code parent}, or 0. */
    long get(int parent, String name) {
        int b = bucket(parent, name);
        long[] es = entities[b];
        if (es == null) {
            return 0;
        }
        int mask = es.length - 1;
        for (int i = hash(parent, name) & mask; es[i] != 0; i = (i + 1) & mask) {
            if (parents[b][i] == parent && name.equals(names.apply(Ids.index(es[i])))) {
                return es[i];
            }
        }
        return 0;
    }

    /** Maps (parent, name) to {@code entity}, replacing an earlier entity of that key. Returns the bucket. */
    int put(int parent, String name, long entity) {
        int b = bucket(parent, name);
        if (entities[b] == null) {
            entities[b] = new long[8];
            parents[b] = new int[8];
        } else if ((sizes[b] + 1) * 4 > entities[b].length * 3) {
            grow(b);
        }
        long[] es = entities[b];
        int mask = es.length - 1;
        int i = hash(parent, name) & mask;
        for (; es[i] != 0; i = (i + 1) & mask) {
            if (parents[b][i] == parent && name.equals(names.apply(Ids.index(es[i])))) {
                es[i] = entity;
                return b;
            }
        }
        es[i] = entity;
        parents[b][i] = parent;
        sizes[b]++;
        total++;
        return b;
    }

    /** Removes the key if present. Returns the bucket. */
    int remove(int parent, String name) {
        int b = bucket(parent, name);
        long[] es = entities[b];
        if (es == null) {
            return b;
        }
        int[] ps = parents[b];
        int mask = es.length - 1;
        int i = hash(parent, name) & mask;
        for (; es[i] != 0; i = (i + 1) & mask) {
            if (ps[i] == parent && name.equals(names.apply(Ids.index(es[i])))) {
                break;
            }
        }
        if (es[i] == 0) {
            return b;
        }
        // backward-shift deletion keeps every probe chain unbroken without tombstones
        int gap = i;
        for (int j = (gap + 1) & mask; es[j] != 0; j = (j + 1) & mask) {
            int home = hash(ps[j], names.apply(Ids.index(es[j]))) & mask;
            if (((j - home) & mask) >= ((j - gap) & mask)) {
                es[gap] = es[j];
                ps[gap] = ps[j];
                gap = j;
            }
        }
        es[gap] = 0;
        ps[gap] = 0;
        sizes[b]--;
        total--;
        return b;
    }

    private void grow(int b) {
        long[] oldE = entities[b];
        int[] oldP = parents[b];
        long[] es = new long[oldE.length * 2];
        int[] ps = new int[es.length];
        int mask = es.length - 1;
        for (int k = 0; k < oldE.length; k++) {
            if (oldE[k] != 0) {
                int i = hash(oldP[k], names.apply(Ids.index(oldE[k]))) & mask;
                while (es[i] != 0) {
                    i = (i + 1) & mask;
                }
                es[i] = oldE[k];
                ps[i] = oldP[k];
            }
        }
        entities[b] = es;
        parents[b] = ps;
    }

    /** Number of names. */
    int size() {
        return total;
    }

    /** True when bucket {@code b} holds no name. */
    boolean isEmpty(int b) {
        return sizes[b] == 0;
    }

    /** Every entry: (parent index, entity id). */
    void forEach(EntryVisitor visitor) {
        for (int b = 0; b < BUCKETS; b++) {
            long[] es = entities[b];
            if (es == null) {
                continue;
            }
            for (int i = 0; i < es.length; i++) {
                if (es[i] != 0) {
                    visitor.visit(parents[b][i], es[i]);
                }
            }
        }
    }

    @FunctionalInterface
    interface EntryVisitor {
        void visit(int parent, long entity);
    }

    /** Writes bucket {@code b} as its page; null when it is empty. */
    byte[] serialize(int b, Bytes.Writer w) {
        int n = sizes[b];
        if (n == 0) {
            return null;
        }
        long[] es = entities[b];
        // entity ids sorted with their parents: pack (entity index, slot) to sort once
        long[] order = new long[n];
        int k = 0;
        for (int i = 0; i < es.length; i++) {
            if (es[i] != 0) {
                order[k++] = ((long) Ids.index(es[i]) << 32) | i;
            }
        }
        Arrays.sort(order);
        w.i32(n);
        for (long o : order) {
            int slot = (int) o;
            w.str(names.apply(Ids.index(es[slot])));
            w.i32(parents[b][slot]);
            w.i64(es[slot]);
        }
        return w.toBytes();
    }

    /**
     * Adds the entries of a page written by {@link #serialize}.
     *
     * @throws dev.quiver.index.StoreException when an entry's name differs from its entity's name
     */
    void load(byte[] page) {
        Bytes.Reader r = new Bytes.Reader(page);
        int n = r.i32();
        for (int i = 0; i < n; i++) {
            String name = r.str();
            int parent = r.i32();
            long e = r.i64();
            if (!name.equals(names.apply(Ids.index(e)))) {
                throw new dev.quiver.index.StoreException("name index maps '" + name + "' to entity #"
                        + Ids.index(e) + " named '" + names.apply(Ids.index(e)) + "'");
            }
            put(parent, name, e);
        }
    }
}
