package dev.quiver.index;


import java.util.function.IntFunction;

/**
 * The in-memory name index: (parent entity index, name) to entity id (Flecs v4 entity names and
 * paths: a name is unique among the children of one parent).
 *
 * <p>One open-addressing table (linear probing, at most half full, backward-shift deletion). A slot
 * is two adjacent longs, so that a probe touches one cache line: the entity id, and the parent
 * index with the key's hash. The key's name is not stored but read from the entity (the
 * {@code names} lookup given to the constructor) only when hash and parent already match, so a
 * probe rarely touches a string; the index costs 16 bytes per slot and no objects. The world
 * persists it in pages by hash bucket (storage format, name pages), each entry with its hash, so
 * that reading a page reads no name ({@link #restore}). Not thread-safe.
 */
public final class NameIndex {
    private final IntFunction<String> names;
    /** Slot i is {@code slots[2i]} (entity id, 0 when empty) and {@code slots[2i+1]} (parent << 32 | hash). */
    private long[] slots;
    private int size;

    /** @param names the name of an entity index (the key's name, never stored here) */
    public NameIndex(IntFunction<String> names) {
        this(names, 1024);
    }

    /**
     * @param names    the name of an entity index (the key's name, never stored here)
     * @param capacity the slots to start with (rounded up to a power of two, at least 2); the
     *                 table doubles when half full
     */
    public NameIndex(IntFunction<String> names, int capacity) {
        this.names = names;
        int c = Integer.highestOneBit(Math.max(2, capacity - 1)) << 1;
        this.slots = new long[2 * c];
    }

    /**
     * The key's hash: MurmurHash3's 32-bit finalizer over the name's hash ({@link String#hashCode},
     * specified by the JDK, so stable across processes) and the parent, so every bit mixes. Stored
     * worlds depend on it (name pages are bucketed by its top bits): it never changes.
     */
    public static int hash(int parent, String name) {
        int h = name.hashCode() * 31 + parent;
        h ^= h >>> 16;
        h *= 0x85EBCA6B;
        h ^= h >>> 13;
        h *= 0xC2B2AE35;
        return h ^ (h >>> 16);
    }

    private static long meta(int parent, int h) {
        return ((long) parent << 32) | (h & 0xFFFF_FFFFL);
    }

    /** Index (into {@link #slots}) of the key's slot, or of the empty slot where it would go. */
    private int find(int parent, String name, int h) {
        long[] s = slots;
        int mask = (s.length >>> 1) - 1;
        long meta = meta(parent, h);
        for (int i = h & mask; ; i = (i + 1) & mask) {
            long e = s[2 * i];
            if (e == 0 || (s[2 * i + 1] == meta && name.equals(names.apply(Ids.index(e))))) {
                return 2 * i;
            }
        }
    }

    /** The entity id named {@code name} under {@code parent}, or 0. */
    public long get(int parent, String name) {
        return get(parent, name, hash(parent, name));
    }

    /** {@link #get(int, String)} given the key's {@link #hash} (a caller that also buckets by it). */
    public long get(int parent, String name, int hash) {
        return slots[find(parent, name, hash)];
    }

    /**
     * Maps (parent, name) to {@code entity}.
     *
     * @return the entity the key mapped to before (now replaced), or 0
     */
    public long put(int parent, String name, long entity) {
        return put(parent, name, hash(parent, name), entity);
    }

    /** {@link #put(int, String, long)} given the key's {@link #hash}. */
    public long put(int parent, String name, int h, long entity) {
        if ((size + 1) * 4L > slots.length) { // at most half the slots (2 longs each) in use
            resize(slots.length * 2);
        }
        int k = find(parent, name, h);
        long old = slots[k];
        slots[k] = entity;
        if (old == 0) {
            slots[k + 1] = meta(parent, h);
            size++;
        }
        return old;
    }

    /**
     * Files an entry read from a stored page, whose key's hash ({@link #hash}) is given: no name is
     * read. The caller guarantees that the key is not filed yet (a page holds each key once).
     */
    public void restore(int parent, int hash, long entity) {
        if ((size + 1) * 4L > slots.length) {
            resize(slots.length * 2);
        }
        long[] s = slots;
        int mask = (s.length >>> 1) - 1;
        int i = hash & mask;
        while (s[2 * i] != 0) {
            i = (i + 1) & mask;
        }
        s[2 * i] = entity;
        s[2 * i + 1] = meta(parent, hash);
        size++;
    }

    /**
     * Removes the key.
     *
     * @return the entity it mapped to, or 0 when it was absent
     */
    public long remove(int parent, String name) {
        return remove(parent, name, hash(parent, name));
    }

    /** {@link #remove(int, String)} given the key's {@link #hash}. */
    public long remove(int parent, String name, int hash) {
        long[] s = slots;
        int k = find(parent, name, hash);
        long removed = s[k];
        if (removed == 0) {
            return 0;
        }
        // backward-shift deletion keeps every probe chain unbroken without tombstones
        int mask = (s.length >>> 1) - 1;
        int gap = k >>> 1;
        for (int j = (gap + 1) & mask; s[2 * j] != 0; j = (j + 1) & mask) {
            int home = (int) s[2 * j + 1] & mask;
            if (((j - home) & mask) >= ((j - gap) & mask)) {
                s[2 * gap] = s[2 * j];
                s[2 * gap + 1] = s[2 * j + 1];
                gap = j;
            }
        }
        s[2 * gap] = 0;
        s[2 * gap + 1] = 0;
        size--;
        return removed;
    }

    private void resize(int length) {
        long[] old = slots;
        long[] s = new long[length];
        int mask = (length >>> 1) - 1;
        for (int k = 0; k < old.length; k += 2) {
            if (old[k] != 0) {
                int i = (int) old[k + 1] & mask;
                while (s[2 * i] != 0) {
                    i = (i + 1) & mask;
                }
                s[2 * i] = old[k];
                s[2 * i + 1] = old[k + 1];
            }
        }
        slots = s;
    }

    /** Number of names. */
    public int size() {
        return size;
    }

    /** Every entry: (parent index, entity id), in no particular order. */
    public void forEach(EntryVisitor visitor) {
        long[] s = slots;
        for (int k = 0; k < s.length; k += 2) {
            if (s[k] != 0) {
                visitor.visit((int) (s[k + 1] >>> 32), s[k]);
            }
        }
    }

    @FunctionalInterface
    public interface EntryVisitor {
        void visit(int parent, long entity);
    }
}
