package dev.quiver.index;

/**
 * The in-memory name index: (parent entity index, name) to entity id (Flecs v4 entity names and
 * paths: a name is unique among the children of one parent).
 *
 * <p><b>Layout.</b> One open-addressing table of primitive ints (linear probing, at most three
 * quarters full, backward-shift deletion, so no tombstones), four ints per slot so that a probe
 * touches one cache line: the entity index (0: empty slot), the parent index, the key's
 * {@link #hash} and the entity's generation. The key's name is not stored: it is compared through
 * {@link Keys#nameIs} (the entity index's bytes) only when hash and parent already match, so a
 * probe rarely touches a name. 16 bytes per slot, no object per entry.
 *
 * <p><b>Buckets.</b> A key's home slot is the top bits of its hash, so the slot order follows the
 * hash: the keys of one <em>bucket</em> (the top {@code bucketBits} bits of the hash, the unit a
 * stored world keeps one page for) lie in one contiguous run of slots (from the home of the
 * bucket's first hash to the first empty slot past the home of its last), read by
 * {@link #forEachInBucket} and dropped by {@link #removeBucket} without touching the others. The
 * number of keys per bucket is kept ({@link #bucketSize}). Not thread-safe.
 */
public final class NameIndex {
    /** How the index compares a key's name, which it does not store. */
    @FunctionalInterface
    public interface Keys {
        /** True when the entity at index {@code index} is named {@code name}. */
        boolean nameIs(int index, String name);
    }

    /** Ints per slot: entity index (0: empty), parent index, hash, generation. */
    private static final int SLOT = 4;

    private final Keys keys;
    private final int bucketBits;
    private int[] slots;
    /** {@code 32 - log2(capacity)}: a hash's home slot is {@code hash >>> shift}. */
    private int shift;
    private int mask;
    private int size;
    private final int[] bucketSize;

    /**
     * @param keys       compares an entity's name with a key's (the name is never stored here)
     * @param bucketBits the top bits of the hash that make a bucket (0 to 16)
     * @param capacity   the slots to start with (rounded up to a power of two, at least 2); the
     *                   table doubles past three quarters full
     */
    public NameIndex(Keys keys, int bucketBits, int capacity) {
        if (bucketBits < 0 || bucketBits > 16) {
            throw new IllegalArgumentException("bucket bits " + bucketBits + " (0 to 16)");
        }
        this.keys = keys;
        this.bucketBits = bucketBits;
        this.bucketSize = new int[1 << bucketBits];
        int c = Integer.highestOneBit(Math.max(2, capacity - 1)) << 1;
        allocate(c);
    }

    /** A table of one bucket starting at 1024 slots. */
    public NameIndex(Keys keys) {
        this(keys, 0, 1024);
    }

    private void allocate(int capacity) {
        slots = new int[SLOT * capacity];
        shift = 32 - Integer.numberOfTrailingZeros(capacity);
        mask = capacity - 1;
    }

    /**
     * The key's hash: MurmurHash3's 32-bit finalizer over the name's hash ({@link String#hashCode},
     * specified by the JDK, so stable across processes) and the parent, so every bit mixes. Stored
     * worlds depend on it (name pages are bucketed by its top bits): it never changes.
     */
    public static int hash(int parent, String name) {
        return mix(name.hashCode(), parent);
    }

    /**
     * {@link #hash} given the name's {@link String#hashCode} (for a caller holding the name as
     * bytes, which computes that value itself).
     */
    public static int mix(int nameHashCode, int parent) {
        int h = nameHashCode * 31 + parent;
        h ^= h >>> 16;
        h *= 0x85EBCA6B;
        h ^= h >>> 13;
        h *= 0xC2B2AE35;
        return h ^ (h >>> 16);
    }

    /** The bucket of a hash: its top {@code bucketBits} bits. */
    public int bucketOf(int hash) {
        return bucketBits == 0 ? 0 : hash >>> (32 - bucketBits);
    }

    /** Slot of the key, or the empty slot where it would go. */
    private int find(int parent, String name, int h) {
        int[] s = slots;
        int m = mask;
        for (int i = h >>> shift; ; i = (i + 1) & m) {
            int k = SLOT * i;
            int idx = s[k];
            if (idx == 0 || (s[k + 2] == h && s[k + 1] == parent && keys.nameIs(idx, name))) {
                return i;
            }
        }
    }

    /** The entity id named {@code name} under {@code parent}, or 0. */
    public long get(int parent, String name) {
        return get(parent, name, hash(parent, name));
    }

    /** {@link #get(int, String)} given the key's {@link #hash} (a caller that also buckets by it). */
    public long get(int parent, String name, int hash) {
        int k = SLOT * find(parent, name, hash);
        int idx = slots[k];
        return idx == 0 ? 0 : Ids.entity(idx, slots[k + 3]);
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
        checkEntity(entity);
        growFor(size + 1);
        int k = SLOT * find(parent, name, h);
        int[] s = slots;
        int old = s[k];
        long before = old == 0 ? 0 : Ids.entity(old, s[k + 3]);
        s[k] = Ids.index(entity);
        s[k + 3] = Ids.generation(entity);
        if (old == 0) {
            s[k + 1] = parent;
            s[k + 2] = h;
            size++;
            bucketSize[bucketOf(h)]++;
        }
        return before;
    }

    private static void checkEntity(long entity) {
        if (Ids.index(entity) <= 0 || Ids.isPair(entity)) {
            throw new IllegalArgumentException("not an entity with an index above 0: " + Ids.toHex(entity));
        }
    }

    private void growFor(int n) {
        int capacity = mask + 1;
        if (n * 4L > capacity * 3L) {
            resize(2 * capacity);
        }
    }

    /**
     * Files an entry read from a stored page, whose key's hash ({@link #hash}) is given: no name is
     * read. The caller guarantees that the key is not filed yet (a page holds each key once).
     */
    public void restore(int parent, int hash, long entity) {
        checkEntity(entity);
        growFor(size + 1);
        insert(slots, mask, shift, Ids.index(entity), parent, hash, Ids.generation(entity));
        size++;
        bucketSize[bucketOf(hash)]++;
    }

    private static void insert(int[] s, int m, int shift, int idx, int parent, int hash, int gen) {
        int i = hash >>> shift;
        while (s[SLOT * i] != 0) {
            i = (i + 1) & m;
        }
        int k = SLOT * i;
        s[k] = idx;
        s[k + 1] = parent;
        s[k + 2] = hash;
        s[k + 3] = gen;
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
        int i = find(parent, name, hash);
        int k = SLOT * i;
        if (slots[k] == 0) {
            return 0;
        }
        long removed = Ids.entity(slots[k], slots[k + 3]);
        removeAt(i);
        return removed;
    }

    /**
     * Removes the entry of entity index {@code entity} under {@code parent}, given its key's
     * {@link #hash}: found by the entity, so no name is compared (a cleanup removing a subtree's
     * names never makes their Strings).
     *
     * @return the entity id it held, or 0 when that entity has no entry there
     */
    public long removeEntity(int parent, int entity, int hash) {
        int[] s = slots;
        int m = mask;
        for (int i = hash >>> shift; ; i = (i + 1) & m) {
            int k = SLOT * i;
            int idx = s[k];
            if (idx == 0) {
                return 0;
            }
            if (idx == entity && s[k + 2] == hash && s[k + 1] == parent) {
                long removed = Ids.entity(idx, s[k + 3]);
                removeAt(i);
                return removed;
            }
        }
    }

    /** Empties slot {@code gap}, shifting later entries of its run back so every probe chain stays whole. */
    private void removeAt(int gap) {
        int[] s = slots;
        int m = mask;
        bucketSize[bucketOf(s[SLOT * gap + 2])]--;
        for (int j = (gap + 1) & m; s[SLOT * j] != 0; j = (j + 1) & m) {
            int home = s[SLOT * j + 2] >>> shift;
            if (((j - home) & m) >= ((j - gap) & m)) {
                System.arraycopy(s, SLOT * j, s, SLOT * gap, SLOT);
                gap = j;
            }
        }
        int k = SLOT * gap;
        s[k] = 0;
        s[k + 1] = 0;
        s[k + 2] = 0;
        s[k + 3] = 0;
        size--;
    }

    private void resize(int capacity) {
        int[] old = slots;
        allocate(capacity);
        int[] s = slots;
        for (int k = 0; k < old.length; k += SLOT) {
            if (old[k] != 0) {
                insert(s, mask, shift, old[k], old[k + 1], old[k + 2], old[k + 3]);
            }
        }
    }

    /** Number of names. */
    public int size() {
        return size;
    }

    /** Number of names in bucket {@code b}. */
    public int bucketSize(int b) {
        return bucketSize[b];
    }

    /** Number of buckets ({@code 1 << bucketBits}). */
    public int buckets() {
        return bucketSize.length;
    }

    /** Slots in the table (a power of two), for tests and statistics. */
    public int capacity() {
        return mask + 1;
    }

    /** Every entry: (parent index, entity id, hash), in slot order (about ascending hash). */
    public void forEach(EntryVisitor visitor) {
        int[] s = slots;
        for (int k = 0; k < s.length; k += SLOT) {
            if (s[k] != 0) {
                visitor.visit(s[k + 1], Ids.entity(s[k], s[k + 3]), s[k + 2]);
            }
        }
    }

    /**
     * Every entry of bucket {@code b}: (parent index, entity id, hash), reading only the run of
     * slots the bucket's hashes map to. The visitor must not change the index.
     */
    public void forEachInBucket(int b, EntryVisitor visitor) {
        if (bucketSize[b] == 0) {
            return;
        }
        int[] s = slots;
        int m = mask;
        int first = firstSlot(b), span = lastSlot(b) - first + 1;
        int seen = 0, want = bucketSize[b];
        for (int n = 0; seen < want; n++) {
            int k = SLOT * ((first + n) & m);
            if (s[k] == 0) {
                if (n >= span) {
                    break;
                }
                continue;
            }
            if (bucketOf(s[k + 2]) == b) {
                seen++;
                visitor.visit(s[k + 1], Ids.entity(s[k], s[k + 3]), s[k + 2]);
            }
        }
    }

    private int firstSlot(int b) {
        return bucketBits == 0 ? 0 : (b << (32 - bucketBits)) >>> shift;
    }

    private int lastSlot(int b) {
        if (bucketBits == 0) {
            return mask;
        }
        int lastHash = (b << (32 - bucketBits)) | (int) ((1L << (32 - bucketBits)) - 1);
        return lastHash >>> shift;
    }

    /**
     * Removes every entry of bucket {@code b} (a bucket forgotten or read again), touching only
     * its run of slots.
     *
     * @return the entries removed
     */
    public int removeBucket(int b) {
        int removed = 0;
        int m = mask;
        int first = firstSlot(b), span = lastSlot(b) - first + 1;
        for (int n = 0; bucketSize[b] > 0; ) {
            int i = (first + n) & m;
            int k = SLOT * i;
            if (slots[k] == 0) {
                if (n >= span) {
                    break;
                }
                n++;
                continue;
            }
            if (bucketOf(slots[k + 2]) == b) {
                // a backward shift may move a later entry into this slot: look at it again
                removeAt(i);
                removed++;
            } else {
                n++;
            }
        }
        return removed;
    }

    /** Forgets every entry (the capacity stays). */
    public void clear() {
        java.util.Arrays.fill(slots, 0);
        java.util.Arrays.fill(bucketSize, 0);
        size = 0;
    }

    @FunctionalInterface
    public interface EntryVisitor {
        /** One entry: the parent's index, the entity's id and the key's {@link #hash}. */
        void visit(int parent, long entity, int hash);
    }
}
