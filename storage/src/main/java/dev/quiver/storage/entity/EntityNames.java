package dev.quiver.storage.entity;

import dev.quiver.index.Ids;
import dev.quiver.index.LazyBlocks;
import dev.quiver.index.NameIndex;
import dev.quiver.storage.tx.Changes;

import java.util.function.IntConsumer;

/**
 * The name index of a world, kept in step with the entity index: {@code (parent index, name)} to
 * entity (Flecs v4: a name is unique among the children of one parent). Every change is reported
 * to the transaction's {@link Changes} as an entry added to or removed from its bucket (a commit
 * logs what changed, not the whole bucket). Not thread-safe.
 *
 * <p><b>Buckets.</b> The index is one {@link NameIndex} of {@link #BUCKETS} buckets (the top
 * {@value #BUCKET_BITS} bits of the key's hash, {@link NameIndex#hash}, stable across processes),
 * each with its own slot table, and a stored world keeps one name page per bucket. After
 * {@link #lazy}, a bucket is read (its loader calls {@link #reserve} and {@link #restore}) the
 * first time a lookup or change touches it, so opening a world reads no name, a lookup by path
 * reads one page per step (and the entity block of the one entry whose hash
 * matches, to compare its name's bytes). The entries take their names from the entity index;
 * whoever changes an entity's name or kills it first removes its entry (which reads its bucket
 * while the name is still the committed one). A reader may bound the buckets kept
 * ({@link #budget}): past it, the bucket read longest ago is forgotten (first in, first out).
 */
public final class EntityNames {
    /** Bits of the hash that choose the bucket. */
    public static final int BUCKET_BITS = 12;
    /** Number of buckets (and at most of name pages). */
    public static final int BUCKETS = 1 << BUCKET_BITS;
    /** Slots of a bucket's first table (it doubles past three quarters full). */
    private static final int FIRST_SLOTS = 16;

    private final EntityIndex entities;
    private final Changes changes;
    private NameIndex index;
    /** Which buckets are in memory when lazy; {@link #restore} fills a bucket its loader reads. */
    private final LazyBlocks blocks = new LazyBlocks("EntityNames", b -> index.removeBucket(b));

    public EntityNames(EntityIndex entities, Changes changes) {
        this.entities = entities;
        this.changes = changes;
        this.index = newIndex();
    }

    private NameIndex newIndex() {
        return new NameIndex(entities::nameIs, BUCKET_BITS, FIRST_SLOTS);
    }

    /** The bucket of a key. */
    public static int bucket(int parentIndex, String name) {
        return bucketOf(NameIndex.hash(parentIndex, name));
    }

    /** The bucket of a key's {@link NameIndex#hash}: its top {@value #BUCKET_BITS} bits. */
    private static int bucketOf(int hash) {
        return hash >>> (32 - BUCKET_BITS);
    }

    /** Forgets every name (before a reload); the index is no longer lazy. */
    public void clear() {
        index = newIndex();
        blocks.clear();
    }

    /**
     * Keeps at most {@code maxBuckets} buckets in memory while lazy (at least 1), forgetting the
     * bucket read longest ago when one more is read. Only for an index nobody changes (a reader's).
     */
    public void budget(int maxBuckets) {
        blocks.budget(maxBuckets);
    }

    /**
     * Makes the (cleared) index lazy: bucket {@code b} is read by {@code loader.accept(b)}, which
     * {@link #restore}s its entries, the first time it is touched. {@code readAll} reads every
     * bucket not yet read and ends laziness; the whole-index methods ({@link #size},
     * {@link #forEach}) call it.
     */
    public void lazy(IntConsumer loader, Runnable readAll) {
        blocks.lazy(loader, readAll);
    }

    /**
     * Drops bucket {@code b}'s entries. When the index is lazy the bucket is read again on its next
     * touch and this returns true; otherwise the caller refills it ({@link #restore}).
     */
    public boolean unload(int b) {
        if (!blocks.unload(b)) {
            index.removeBucket(b);
            return false;
        }
        return true;
    }

    /**
     * Which buckets are in memory, for a caller that reads the missing pages itself
     * ({@link LazyBlocks#isLoaded}, {@link LazyBlocks#markLoaded} then {@link #restore}, and
     * {@link LazyBlocks#eager} to end laziness).
     */
    public LazyBlocks blocks() {
        return blocks;
    }

    /** Buckets in memory that were read through the loader or marked (for tests and statistics). */
    public int bucketsLoaded() {
        return blocks.loadedCount();
    }

    /** Times a bucket was read through the loader since the index became lazy. */
    public long bucketsRead() {
        return blocks.reads();
    }

    /** The child of {@code parentIndex} (0: a root entity) named {@code name}, or 0. */
    public long child(int parentIndex, String name) {
        int h = NameIndex.hash(parentIndex, name);
        blocks.touch(bucketOf(h));
        return index.get(parentIndex, name, h);
    }

    /** Files entity {@code e} under its parent by name (replacing a stale entry of that key). */
    public void put(int parentIndex, String name, long e) {
        int h = NameIndex.hash(parentIndex, name);
        blocks.touch(bucketOf(h));
        put(parentIndex, name, h, e);
    }

    /**
     * Files {@code n} entities by name, as {@link #put} does each: entity {@code es[j]} named
     * {@code names[j]} under {@code parents[j]}, in that order. For many keys of scattered buckets
     * (a batch of prefab instances): the keys' slots are read a few keys ahead
     * ({@link NameIndex#prefetch}), so that their cache misses overlap instead of each put waiting
     * for its own.
     */
    public void putAll(int[] parents, String[] names, long[] es, int n) {
        int[] h = new int[PREFETCH];
        for (int from = 0; from < n; from += PREFETCH) {
            int m = Math.min(PREFETCH, n - from);
            for (int j = 0; j < m; j++) {
                h[j] = NameIndex.hash(parents[from + j], names[from + j]);
                blocks.touch(bucketOf(h[j]));
            }
            index.prefetch(h, 0, m);
            for (int j = 0; j < m; j++) {
                put(parents[from + j], names[from + j], h[j], es[from + j]);
            }
        }
    }

    /** Keys whose slots {@link #putAll} reads ahead at a time. */
    private static final int PREFETCH = 16;

    /** {@link #put} of a key whose hash is {@code h} and whose bucket is touched already. */
    private void put(int parentIndex, String name, int h, long e) {
        long old = index.put(parentIndex, name, h, e);
        if (old != e) {
            int b = bucketOf(h);
            if (old != 0) {
                changes.nameRemoved(b, Ids.index(old), parentIndex);
            }
            changes.nameAdded(b, Ids.index(e), parentIndex, h);
        }
    }

    /** Removes the entry of {@code (parentIndex, name)}. */
    public void remove(int parentIndex, String name) {
        int h = NameIndex.hash(parentIndex, name);
        int b = bucketOf(h);
        blocks.touch(b);
        long removed = index.remove(parentIndex, name, h);
        if (removed != 0) {
            changes.nameRemoved(b, Ids.index(removed), parentIndex);
        }
    }

    /**
     * Removes the entry of named entity index {@code index} under {@code parentIndex}, found by its
     * stored name hash and its index (no String made); nothing when it has none.
     */
    public void removeEntity(int parentIndex, int index) {
        int h = NameIndex.mix(entities.nameHash(index), parentIndex);
        int b = bucketOf(h);
        blocks.touch(b);
        long removed = this.index.removeEntity(parentIndex, index, h);
        if (removed != 0) {
            changes.nameRemoved(b, Ids.index(removed), parentIndex);
        }
    }

    /** A named entity changed parent: its entry moves from the old parent to the new one. */
    public void reparent(int index, int oldParent, int newParent) {
        if (oldParent == newParent || !entities.named(index)) {
            return;
        }
        String name = entities.name(index);
        long e = entities.idOf(index);
        if (child(oldParent, name) == e) {
            remove(oldParent, name);
        }
        put(newParent, name, e);
    }

    /**
     * Files an entry read from a committed state, given its key's hash ({@link NameIndex#hash}):
     * no change recorded, its bucket is not read, and no name is read (a lookup compares the name
     * of the candidate whose hash matches).
     */
    public void restore(int parentIndex, int hash, long e) {
        index.restore(parentIndex, hash, e);
    }

    /**
     * True when entity index {@code index} holds an entry in a bucket in memory (a page read must
     * not file it again: an entity holds one entry).
     */
    public boolean filed(int index) {
        return this.index.filed(index);
    }

    /**
     * Makes room in bucket {@code b} for {@code n} entries about to be {@link #restore}d (a page
     * of known size), so that its table grows at most once.
     */
    public void reserve(int b, int n) {
        index.reserve(b, n);
    }

    /**
     * Slots the index examined or moved since it was made or {@link #clear}ed
     * ({@link NameIndex#probes}), for tests that prove reading buckets linear in the names read.
     */
    public long probes() {
        return index.probes();
    }

    /** Number of names (a lazy index reads every bucket first). */
    public int size() {
        blocks.requireAll("size");
        return index.size();
    }

    /** Calls {@code visitor} with every entry (a lazy index reads every bucket first). */
    public void forEach(NameIndex.EntryVisitor visitor) {
        blocks.requireAll("forEach");
        index.forEach(visitor);
    }

    /** Calls {@code visitor} with every entry of bucket {@code b} (read first when lazy). */
    public void forEachInBucket(int b, NameIndex.EntryVisitor visitor) {
        blocks.touch(b);
        index.forEachInBucket(b, visitor);
    }

    /** True when bucket {@code b} holds no entry (read first when lazy). */
    public boolean bucketEmpty(int b) {
        blocks.touch(b);
        return index.bucketSize(b) == 0;
    }

}
