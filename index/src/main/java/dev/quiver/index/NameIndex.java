package dev.quiver.index;

import java.util.Arrays;

/**
 * The in-memory name index: (parent entity index, name) to entity id (Flecs v4 entity names and
 * paths: a name is unique among the children of one parent). An entity holds at most one entry
 * (it has one name and one parent): {@link #put} refuses to file an entity that already holds an
 * entry under another key.
 *
 * <p><b>Buckets.</b> A key's <em>bucket</em> is the top {@code bucketBits} bits of its
 * {@link #hash} (the unit a stored world keeps one page for, read lazily and forgotten whole).
 * Each bucket has its own open-addressing slot table of primitive ints (linear probing, at most
 * three quarters full, backward-shift deletion, so no tombstones) whose home slot is the hash's
 * low bits; a small directory holds each bucket's table and capacity. So a bucket read on its own
 * costs only its own slots, reading buckets in any order (a lazy reader, a full read in bucket
 * order) does work linear in the names read ({@link #probes} counts it), and dropping a bucket
 * ({@link #removeBucket}) or listing it ({@link #forEachInBucket}) touches no other table.
 * (Issue 8: one table for all buckets, ordered by the hash's top bits, made an in-order read of
 * the buckets quadratic, since they all filled the first part of a table sized for what was read
 * so far.)
 *
 * <p><b>Slots and entries.</b> A slot is {@value #SLOT} ints: the entity index (0: empty) and the
 * key's hash, so a probe compares hashes without leaving the slot's cache line and growing a table
 * re-files its entries from the old table alone. The rest of an entry (the parent's index and the
 * entity's generation) is kept by entity index, in records written in entity order
 * ({@value #RECORD} ints each: parent, generation; pages of {@value #RECORD_PAGE} records
 * made when first written, so a lazy reader pays only for the pages its entries fall in): a probe
 * reads the record only when the hash matches, and then compares the name through
 * {@link Keys#nameIs} (the entity index's bytes). Issue 8/9: four ints per slot made 32 MB of
 * slots for RG-1 depth 6, whose random reads (the failed lookup before each create) and zeroing
 * (a table's growth) dominated the load and a prefab batch; two ints per slot halve both. One int
 * per slot, the hash in the record, measured slower still: every occupied slot a probe passes then
 * costs a read of a random entity's record, where the hash in the slot costs none. Not
 * thread-safe.
 */
public final class NameIndex {
    /** How the index compares a key's name, which it does not store. */
    @FunctionalInterface
    public interface Keys {
        /** True when the entity at index {@code index} is named {@code name}. */
        boolean nameIs(int index, String name);
    }

    /** Ints per slot: entity index (0: empty), key's hash. */
    private static final int SLOT = 2;
    /** The table of a bucket without a table of its own: one empty slot, never written. */
    private static final int[] NONE = new int[SLOT];
    /** Ints per entity record: parent index, generation (with {@link #FILED}). */
    private static final int RECORD = 2;
    /** log2 of the records per record page. */
    private static final int RECORD_SHIFT = 6;
    /** Records per record page. */
    private static final int RECORD_PAGE = 1 << RECORD_SHIFT;
    private static final int RECORD_MASK = RECORD_PAGE - 1;
    /** Set in a record's generation int while the entity holds an entry. */
    private static final int FILED = 1 << 31;

    private final Keys keys;
    private final int bucketBits;
    /** Slots a bucket's first table gets (a power of two, at least 2). */
    private final int firstCapacity;
    /** Bucket b's slot table ({@link #NONE} while it has none). */
    private final int[][] tables;
    /** Bucket b's capacity minus 1 (0 with {@link #NONE}): a hash's home slot is {@code hash & masks[b]}. */
    private final int[] masks;
    private final int[] bucketSize;
    /**
     * Entity index i's record is {@code records[i >>> RECORD_SHIFT][RECORD * (i & RECORD_MASK)]};
     * a page is null until one of its entities is filed.
     */
    private int[][] records = new int[0][];
    private int size;
    /** Slots over every bucket's own table. */
    private long capacity;
    /** Slots examined or moved (see {@link #probes}). */
    private long probes;
    /** A sum of the slots {@link #prefetch} read, kept so that its loads are not optimized away. */
    private int prefetched;

    /**
     * @param keys          compares an entity's name with a key's (the name is never stored here)
     * @param bucketBits    the top bits of the hash that make a bucket (0 to 16)
     * @param firstCapacity the slots a bucket's table starts with when it gets its first entry
     *                      (rounded up to a power of two, at least 2); a table doubles past three
     *                      quarters full
     */
    public NameIndex(Keys keys, int bucketBits, int firstCapacity) {
        if (bucketBits < 0 || bucketBits > 16) {
            throw new IllegalArgumentException("bucket bits " + bucketBits + " (0 to 16)");
        }
        this.keys = keys;
        this.bucketBits = bucketBits;
        this.firstCapacity = Integer.highestOneBit(Math.max(2, firstCapacity - 1)) << 1;
        int buckets = 1 << bucketBits;
        this.tables = new int[buckets][];
        Arrays.fill(tables, NONE);
        this.masks = new int[buckets];
        this.bucketSize = new int[buckets];
    }

    /** An index of one bucket whose table starts at 1024 slots. */
    public NameIndex(Keys keys) {
        this(keys, 0, 1024);
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

    /** Slot (in bucket {@code b}'s table) of the key, or of the empty slot where it would go. */
    private int find(int b, int parent, String name, int h) {
        int[] s = tables[b];
        int m = masks[b];
        int n = 1;
        for (int i = h & m; ; i = (i + 1) & m, n++) {
            int k = SLOT * i;
            int idx = s[k];
            if (idx == 0 || (s[k + 1] == h && parentOf(idx) == parent && keys.nameIs(idx, name))) {
                probes += n;
                return i;
            }
        }
    }

    private int parentOf(int idx) {
        return records[idx >>> RECORD_SHIFT][RECORD * (idx & RECORD_MASK)];
    }

    /** The generation int of entity index {@code idx}'s record ({@link #FILED} included); 0 without a record. */
    private int generationOf(int idx) {
        int p = idx >>> RECORD_SHIFT;
        int[] r = p < records.length ? records[p] : null;
        return r == null ? 0 : r[RECORD * (idx & RECORD_MASK) + 1];
    }

    /** The id of the entity filed in slot k of a table (its index is there, its generation in its record). */
    private long idAt(int[] s, int k) {
        int idx = s[k];
        return Ids.entity(idx, generationOf(idx));
    }

    /** Writes entity index {@code idx}'s record (making its page) and marks it filed. */
    private void record(int idx, int parent, int generation) {
        int p = idx >>> RECORD_SHIFT;
        if (p >= records.length) {
            records = Arrays.copyOf(records, Math.max(p + 1, records.length + (records.length >>> 1)));
        }
        int[] r = records[p];
        if (r == null) {
            r = records[p] = new int[RECORD * RECORD_PAGE];
        }
        int o = RECORD * (idx & RECORD_MASK);
        r[o] = parent;
        r[o + 1] = generation | FILED;
    }

    /** Marks entity index {@code idx} (which has a record) as holding no entry. */
    private void unfile(int idx) {
        records[idx >>> RECORD_SHIFT][RECORD * (idx & RECORD_MASK) + 1] &= ~FILED;
    }

    /**
     * Refuses to file entity index {@code idx} under a key when it holds an entry under another.
     *
     * @throws IllegalStateException when it does
     */
    private void checkUnfiled(int idx, int parent, int hash) {
        if ((generationOf(idx) & FILED) != 0) {
            throw new IllegalStateException("entity index " + idx + " is filed under parent " + parentOf(idx)
                    + "; remove that entry before filing it under parent " + parent + " (hash "
                    + Integer.toHexString(hash) + ")");
        }
    }

    /** True when entity index {@code index} holds an entry (under whatever key). */
    public boolean filed(int index) {
        return index > 0 && (generationOf(index) & FILED) != 0;
    }

    /** The entity id named {@code name} under {@code parent}, or 0. */
    public long get(int parent, String name) {
        return get(parent, name, hash(parent, name));
    }

    /** {@link #get(int, String)} given the key's {@link #hash} (a caller that also buckets by it). */
    public long get(int parent, String name, int hash) {
        int b = bucketOf(hash);
        int k = SLOT * find(b, parent, name, hash);
        int[] s = tables[b];
        return s[k] == 0 ? 0 : idAt(s, k);
    }

    /**
     * Maps (parent, name) to {@code entity}.
     *
     * @return the entity the key mapped to before (now replaced, and no longer filed), or 0
     * @throws IllegalStateException when {@code entity}'s index holds an entry under another key
     *                               (nothing changes)
     */
    public long put(int parent, String name, long entity) {
        return put(parent, name, hash(parent, name), entity);
    }

    /** {@link #put(int, String, long)} given the key's {@link #hash}. */
    public long put(int parent, String name, int h, long entity) {
        checkEntity(entity);
        int b = bucketOf(h);
        int idx = Ids.index(entity);
        int k = SLOT * find(b, parent, name, h);
        int[] s = tables[b];
        int old = s[k];
        if (old != idx) {
            checkUnfiled(idx, parent, h);
        }
        if (old != 0) {
            long before = idAt(s, k);
            if (old != idx) {
                unfile(old);
                s[k] = idx;
            }
            record(idx, parent, Ids.generation(entity));
            return before;
        }
        if (growFor(b, bucketSize[b] + 1)) {
            insert(b, idx, h);
        } else {
            s[k] = idx;
            s[k + 1] = h;
        }
        record(idx, parent, Ids.generation(entity));
        size++;
        bucketSize[b]++;
        return 0;
    }

    /**
     * Reads the home slot of each of the keys whose {@link #hash}es are {@code hashes[from, to)}
     * and changes nothing: a caller about to {@link #put} many keys of scattered buckets calls it
     * for a few keys at a time before putting them, so that their slots' cache misses overlap
     * (the loads are independent) instead of each put waiting for its own. A slot that a put then
     * moves (its table grows) is just read again.
     */
    public void prefetch(int[] hashes, int from, int to) {
        int sum = 0;
        for (int j = from; j < to; j++) {
            int h = hashes[j];
            int b = bucketOf(h);
            sum += tables[b][SLOT * (h & masks[b])];
        }
        prefetched += sum;
    }

    private static void checkEntity(long entity) {
        if (Ids.index(entity) <= 0 || Ids.isPair(entity)) {
            throw new IllegalArgumentException("not an entity with an index above 0: " + Ids.toHex(entity));
        }
    }

    /**
     * Gives bucket {@code b} a table that holds {@code n} entries at most three quarters full.
     *
     * @return true when the table was replaced (its slots moved)
     */
    private boolean growFor(int b, int n) {
        int cap = tables[b] == NONE ? 0 : masks[b] + 1;
        if (n * 4L > cap * 3L) {
            int c = Math.max(firstCapacity, cap);
            while (n * 4L > c * 3L) {
                c <<= 1;
            }
            resize(b, c);
            return true;
        }
        return false;
    }

    /**
     * Makes room in bucket {@code b} for {@code n} more entries at once (a caller about to
     * {@link #restore} a stored bucket of known size), so its table grows at most once.
     */
    public void reserve(int b, int n) {
        if (n > 0) {
            growFor(b, bucketSize[b] + n);
        }
    }

    /**
     * Files an entry read from a stored page, whose key's hash ({@link #hash}) is given: no name is
     * read. The caller guarantees that the key is not filed yet (a page holds each key once).
     *
     * @throws IllegalStateException when {@code entity}'s index holds an entry already (nothing changes)
     */
    public void restore(int parent, int hash, long entity) {
        checkEntity(entity);
        int idx = Ids.index(entity);
        checkUnfiled(idx, parent, hash);
        int b = bucketOf(hash);
        growFor(b, bucketSize[b] + 1);
        insert(b, idx, hash);
        record(idx, parent, Ids.generation(entity));
        size++;
        bucketSize[b]++;
    }

    /** Puts (idx, hash) in the first empty slot of its probe chain in bucket b's table. */
    private void insert(int b, int idx, int hash) {
        place(tables[b], masks[b], idx, hash);
    }

    private void place(int[] s, int m, int idx, int hash) {
        int i = hash & m;
        int n = 1;
        while (s[SLOT * i] != 0) {
            i = (i + 1) & m;
            n++;
        }
        probes += n;
        int k = SLOT * i;
        s[k] = idx;
        s[k + 1] = hash;
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
        int b = bucketOf(hash);
        int i = find(b, parent, name, hash);
        int[] s = tables[b];
        int k = SLOT * i;
        if (s[k] == 0) {
            return 0;
        }
        long removed = idAt(s, k);
        removeAt(b, i);
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
        int b = bucketOf(hash);
        int[] s = tables[b];
        int m = masks[b];
        for (int i = hash & m; ; i = (i + 1) & m) {
            probes++;
            int k = SLOT * i;
            int idx = s[k];
            if (idx == 0) {
                return 0;
            }
            if (idx == entity && s[k + 1] == hash && parentOf(idx) == parent) {
                long removed = idAt(s, k);
                removeAt(b, i);
                return removed;
            }
        }
    }

    /** Empties slot {@code gap} of bucket b, shifting later entries of its run back so every probe chain stays whole. */
    private void removeAt(int b, int gap) {
        int[] s = tables[b];
        int m = masks[b];
        unfile(s[SLOT * gap]);
        for (int j = (gap + 1) & m; s[SLOT * j] != 0; j = (j + 1) & m) {
            probes++;
            int home = s[SLOT * j + 1] & m;
            if (((j - home) & m) >= ((j - gap) & m)) {
                s[SLOT * gap] = s[SLOT * j];
                s[SLOT * gap + 1] = s[SLOT * j + 1];
                gap = j;
            }
        }
        s[SLOT * gap] = 0;
        s[SLOT * gap + 1] = 0;
        size--;
        bucketSize[b]--;
    }

    /** Moves bucket b's entries into a new table of {@code cap} slots (a power of two). */
    private void resize(int b, int cap) {
        int[] old = tables[b];
        int[] s = new int[SLOT * cap];
        int m = cap - 1;
        if (old != NONE) {
            capacity -= masks[b] + 1;
            for (int k = 0; k < old.length; k += SLOT) {
                if (old[k] != 0) {
                    place(s, m, old[k], old[k + 1]);
                }
            }
        }
        tables[b] = s;
        masks[b] = m;
        capacity += cap;
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

    /** Slots over all buckets' tables (each a power of two), for tests and statistics. */
    public long capacity() {
        return capacity;
    }

    /** Slots in bucket {@code b}'s table (0 while it has none), for tests and statistics. */
    public int bucketCapacity(int b) {
        return tables[b] == NONE ? 0 : masks[b] + 1;
    }

    /**
     * Slots examined or moved since the index was made: by each lookup, insertion and removal
     * (including the slots that growing a table re-inserts), for tests that prove the work linear
     * in the names filed (at most three quarters full, a probe averages about 2.5 slots).
     */
    public long probes() {
        return probes;
    }

    /** Every entry: (parent index, entity id, hash), bucket by bucket. */
    public void forEach(EntryVisitor visitor) {
        for (int b = 0; b < tables.length; b++) {
            forEachInBucket(b, visitor);
        }
    }

    /**
     * Every entry of bucket {@code b}: (parent index, entity id, hash), reading only the bucket's
     * table and its entities' records. The visitor must not change the index.
     */
    public void forEachInBucket(int b, EntryVisitor visitor) {
        if (bucketSize[b] == 0) {
            return;
        }
        int[] s = tables[b];
        for (int k = 0; k < s.length; k += SLOT) {
            int idx = s[k];
            if (idx != 0) {
                visitor.visit(parentOf(idx), idAt(s, k), s[k + 1]);
            }
        }
    }

    /**
     * Removes every entry of bucket {@code b} (a bucket forgotten or read again) by dropping its
     * table; no other bucket's table is touched.
     *
     * @return the entries removed
     */
    public int removeBucket(int b) {
        int removed = bucketSize[b];
        if (tables[b] != NONE) {
            int[] s = tables[b];
            for (int k = 0; k < s.length; k += SLOT) {
                if (s[k] != 0) {
                    unfile(s[k]);
                }
            }
            capacity -= masks[b] + 1;
            tables[b] = NONE;
            masks[b] = 0;
        }
        bucketSize[b] = 0;
        size -= removed;
        return removed;
    }

    /** Forgets every entry and drops every bucket's table and every record. */
    public void clear() {
        Arrays.fill(tables, NONE);
        Arrays.fill(masks, 0);
        Arrays.fill(bucketSize, 0);
        records = new int[0][];
        size = 0;
        capacity = 0;
    }

    @FunctionalInterface
    public interface EntryVisitor {
        /** One entry: the parent's index, the entity's id and the key's {@link #hash}. */
        void visit(int parent, long entity, int hash);
    }
}
