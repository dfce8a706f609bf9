package dev.quiver.storage.tx;

import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;

/**
 * What the open transaction changed, in the units that persistence needs to know: the only thing
 * mutation code talks to about durability. Mutation code says what it changed (an entity, a row of
 * a table, the entries pointing at a target); at commit the storage
 * format turns these into the pages to rewrite, so no mutation code knows the page layout.
 *
 * <p>Units are coarse enough that bulk work stays cheap: names by bucket of the name index, entities in blocks of
 * {@code 1 << ENTITY_BLOCK_SHIFT} indices, table rows in chunks of {@code 1 << ROW_CHUNK_SHIFT}
 * rows, reverse-index entries in blocks of {@code 1 << TARGET_BLOCK_SHIFT} targets. The format
 * aligns its pages with these units. Not thread-safe.
 */
public final class Changes {
    public static final int ENTITY_BLOCK_SHIFT = 10;
    public static final int ROW_CHUNK_SHIFT = 10;
    /**
     * Targets per reverse-index block: 1024 since page format 8 (64 before). Most targets have no
     * sources (RG-1's leaves), and a walk over a subtree touched one block per 64 targets, each a
     * page lookup even when absent; a commit logs a block's changes as deltas, so a larger block
     * does not make commits costlier.
     */
    public static final int TARGET_BLOCK_SHIFT = 10;

    private boolean meta;
    private long clears;
    private final IntOpenHashSet schemas = new IntOpenHashSet();
    private final IntOpenHashSet entityBlocks = new IntOpenHashSet();
    /** The name buckets touched, in the order first touched (each once: {@link #nameTouched} guards it). */
    private final IntArrayList nameBlocks = new IntArrayList();
    /** The name buckets touched, as a bit set (so that a touch costs no hash probe). */
    private long[] nameTouched = new long[64];
    /**
     * The name operations of the open transaction, in order: two longs each, the entry
     * ({@code index << 32 | parent}) and {@code (hash << 32) | (bucket << 1) | op} (op 1: removed;
     * hash: the key's name-index hash an added entry is filed with, 0 for a removal). One flat log
     * rather than a map per bucket: a bulk transaction touches every bucket with a few entries
     * each, and appending costs no cache miss; {@link #forEachNameDelta} nets it out at commit.
     */
    private final LongArrayList nameLog = new LongArrayList();
    private final IntOpenHashSet tables = new IntOpenHashSet();
    private final LongOpenHashSet rowChunks = new LongOpenHashSet();
    /** The chunk {@link #row} added last (-1: none since the last {@link #clear}). */
    private long lastRowChunk = -1;
    /** The block {@link #entity} added last (-1: none since {@link #clear}). */
    private int lastEntityBlock = -1;
    private final IntOpenHashSet targetBlocks = new IntOpenHashSet();
    /** Reverse-index blocks changed other than through {@link #reverseAdded}/{@link #reverseRemoved}: written whole. */
    private final IntOpenHashSet wholeTargetBlocks = new IntOpenHashSet();
    /** Per reverse-index block not written whole: its operations in order ({@link #reverseOps}). */
    private final Int2ObjectOpenHashMap<LongArrayList> reverseOps = new Int2ObjectOpenHashMap<>();
    /** The block {@link #reverseOp} last logged to, and its list in {@link #reverseOps} (-1: none). */
    private int lastOpsBlock = -1;
    private LongArrayList lastOps;
    /**
     * Operation lists of earlier transactions, emptied, kept for the next ones ({@link #clear}): a
     * batch instantiation logs tens of thousands of operations to a prefab's block, and growing a
     * new list to that size each commit allocated about three times its final size.
     */
    private final java.util.ArrayList<LongArrayList> spareOps = new java.util.ArrayList<>();
    /** Most lists, and most longs of capacity in all, {@link #spareOps} keeps (4 MiB). */
    private static final int SPARE_LISTS = 16, SPARE_LONGS = 1 << 19;
    /** The capacity of the lists in {@link #spareOps}, in longs. */
    private long spareLongs;
    private final IntOpenHashSet shrunk = new IntOpenHashSet();

    /** The world's counters changed (next entity index, table count, free list). */
    public void meta() {
        meta = true;
    }

    /** The schema of component entity {@code index} was set or removed. */
    public void schema(int index) {
        schemas.add(index);
    }

    /** The state, generation or name of entity {@code index} changed. */
    public void entity(int index) {
        int block = index >>> ENTITY_BLOCK_SHIFT;
        if (block == lastEntityBlock) {
            return; // a cascade delete or a bulk load changes entity after entity of one block: one hash insert per block
        }
        entityBlocks.add(block);
        lastEntityBlock = block;
    }

    /**
     * Name-index bucket {@code bucket} (the name index's own unit: entries are bucketed by the hash
     * of their key) gained the entry of entity {@code index} under parent {@code parent}, filed
     * with the key's hash {@code hash} (the name index's: {@link #forEachNameDelta} hands it on, so
     * that a commit does not compute it again from the name).
     */
    public void nameAdded(int bucket, int index, int parent, int hash) {
        nameDelta(bucket, index, parent, ((long) hash << 32) | ((long) bucket << 1));
    }

    /** Name-index bucket {@code bucket} lost the entry of entity {@code index} under parent {@code parent}. */
    public void nameRemoved(int bucket, int index, int parent) {
        nameDelta(bucket, index, parent, ((long) bucket << 1) | 1);
    }

    /**
     * Makes room in the name log for {@code n} more operations at once: a cascade delete removes
     * the names of all its doomed entities, and growing the log by half again from a small
     * transaction's size allocated about three times its final size (RG-1's delete, 111,111 names:
     * 5.7 MB for a 1.8 MB log).
     *
     * @throws IllegalArgumentException when {@code n} is negative
     */
    public void expectNameOps(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("name operations " + n);
        }
        nameLog.ensureCapacity((int) Math.min(Integer.MAX_VALUE - 8, nameLog.size() + 2L * n));
    }

    /** Logs one name operation; {@code code} is the log's second long (see {@link #nameLog}). */
    private void nameDelta(int bucket, int index, int parent, long code) {
        if (bucket < 0 || bucket >= 1 << 30) {
            throw new IllegalArgumentException("name bucket " + bucket);
        }
        int w = bucket >>> 6;
        if (w >= nameTouched.length) {
            nameTouched = java.util.Arrays.copyOf(nameTouched, Math.max(w + 1, 2 * nameTouched.length));
        }
        long bit = 1L << bucket;
        if ((nameTouched[w] & bit) == 0) {
            nameTouched[w] |= bit;
            nameBlocks.add(bucket);
        }
        nameLog.add(((long) index << 32) | (parent & 0xFFFF_FFFFL));
        nameLog.add(code);
    }

    /** The bucket of a {@link #nameLog} code. */
    private static int bucketOf(long code) {
        return (int) code >>> 1;
    }

    /** Table {@code id} was created or dropped. */
    public void table(int id) {
        tables.add(id);
    }

    /** Row {@code row} of table {@code id} changed (an entity or a value); negative rows are ignored. */
    public void row(int id, int row) {
        if (row < 0) {
            return;
        }
        long chunk = ((long) id << 20) | (row >>> ROW_CHUNK_SHIFT);
        if (chunk == lastRowChunk) {
            return; // a bulk load sets row after row of one chunk: one hash insert per chunk
        }
        tables.add(id);
        rowChunks.add(chunk);
        lastRowChunk = chunk;
    }

    /** Table {@code id} lost rows: it is dropped at commit if empty. */
    public void shrunk(int id) {
        shrunk.add(id);
    }

    /**
     * The reverse-index entries of target {@code index} changed in some way the transaction does
     * not describe entry by entry: its block is written whole at commit.
     */
    public void target(int index) {
        int b = index >>> TARGET_BLOCK_SHIFT;
        lastOpsBlock = -1;
        targetBlocks.add(b);
        wholeTargetBlocks.add(b);
        LongArrayList dropped = reverseOps.remove(b);
        if (dropped != null) {
            spare(dropped);
        }
    }

    /** Keeps an operation list for a later block (emptied), unless the spares are full or it is too large. */
    private void spare(LongArrayList ops) {
        int capacity = ops.elements().length;
        if (spareOps.size() < SPARE_LISTS && spareLongs + capacity <= SPARE_LONGS) {
            ops.clear();
            spareOps.add(ops);
            spareLongs += capacity;
        }
    }

    /**
     * Entry {@code entry} was appended to the reverse-index list of target {@code index}
     * ({@code ReverseIndex.add}): the commit logs the operation rather than the block (a prefab's
     * block lists every instance).
     */
    public void reverseAdded(int index, long entry) {
        reverseOp(index, entry, 0);
    }

    /** Entry {@code entry} was removed from the list of target {@code index} ({@code ReverseIndex.remove}, swapping the last entry in). */
    public void reverseRemoved(int index, long entry) {
        reverseOp(index, entry, 1);
    }

    private void reverseOp(int index, long entry, int op) {
        int b = index >>> TARGET_BLOCK_SHIFT;
        LongArrayList ops;
        if (b == lastOpsBlock) { // a run of changes to one block (a batch instantiation): no set or map lookup
            ops = lastOps;
        } else {
            targetBlocks.add(b);
            if (wholeTargetBlocks.contains(b)) {
                return;
            }
            ops = reverseOps.get(b);
            if (ops == null) {
                if (spareOps.isEmpty()) {
                    ops = new LongArrayList(4);
                } else {
                    int largest = 0; // the first block of a transaction is usually its busiest (a prefab's)
                    for (int i = 1; i < spareOps.size(); i++) {
                        if (spareOps.get(i).elements().length > spareOps.get(largest).elements().length) {
                            largest = i;
                        }
                    }
                    ops = spareOps.remove(largest);
                    spareLongs -= ops.elements().length;
                }
                reverseOps.put(b, ops);
            }
            lastOpsBlock = b;
            lastOps = ops;
        }
        ops.add(((long) (index & ((1 << TARGET_BLOCK_SHIFT) - 1)) << 1) | op);
        ops.add(entry);
    }

    public boolean metaChanged() {
        return meta;
    }

    public IntOpenHashSet schemas() {
        return schemas;
    }

    public IntOpenHashSet entityBlocks() {
        return entityBlocks;
    }

    /** The name buckets the open transaction touched, each once, in no particular order. Do not modify. */
    public IntArrayList nameBlocks() {
        return nameBlocks;
    }

    /** Name operations logged in the open transaction (each {@link #nameAdded} or {@link #nameRemoved}). */
    public int nameOps() {
        return nameLog.size() >>> 1;
    }

    /**
     * Calls {@code visitor} once per touched name bucket with a net change, in ascending bucket,
     * with the bucket's entries ({@code (entity index << 32) | parent index}) in ascending order:
     * {@code added} the entries present at the transaction's end whose last operation filed them
     * (the committed bucket lacks them, or holds them under a name that may have changed), each
     * with the hash its last operation filed it with ({@code addedHashes}), and {@code removed}
     * those the committed bucket holds and the end state does not. An entry added then removed in
     * the transaction is in neither. The arrays are reused between calls: valid during the call
     * only.
     */
    public void forEachNameDelta(NameDeltaVisitor visitor) {
        int n = nameLog.size() >>> 1;
        if (n == 0) {
            return;
        }
        int maxBucket = 0;
        for (int k = 0, m = nameBlocks.size(); k < m; k++) { // the buckets touched, not the log
            maxBucket = Math.max(maxBucket, nameBlocks.getInt(k));
        }
        int[] end = sortByBucket(n, maxBucket);
        for (int b = 0; b <= maxBucket; b++) {
            int from = b == 0 ? 0 : end[b - 1], to = end[b];
            if (from < to) {
                sortByEntry(sortEntry, sortCode, from, to);
                netChange(b, from, to, visitor);
            }
        }
    }

    // forEachNameDelta's steps are three methods, not one: as one method, each C2 compilation of
    // it took 52-60 MB of compiler memory (JDK 25's Compiler.memory, RG-1 depth 6), at the moment
    // a bulk load's commit holds the most heap, which set the benchmark's peak resident set.

    /**
     * Counting sort of the name log by bucket into {@link #sortEntry} and {@link #sortCode}
     * (stable: each bucket's operations stay in order), into arrays kept from one commit to the
     * next (a batch's commit files tens of thousands of names). Returns, by bucket, where its part
     * ends.
     */
    private int[] sortByBucket(int n, int maxBucket) {
        long[] log = nameLog.elements();
        if (sortStart.length < maxBucket + 1) {
            sortStart = new int[Math.max(maxBucket + 1, 2 * sortStart.length)];
        }
        int[] end = sortStart; // by bucket: its count, then where its part begins, then where it ends
        java.util.Arrays.fill(end, 0, maxBucket + 1, 0);
        for (int i = 0; i < n; i++) {
            end[bucketOf(log[2 * i + 1])]++;
        }
        for (int b = 0, at = 0; b <= maxBucket; b++) {
            int c = end[b];
            end[b] = at;
            at += c;
        }
        if (sortEntry.length < n) {
            sortEntry = new long[Math.max(n, sortEntry.length + (sortEntry.length >>> 1))];
            sortCode = new long[sortEntry.length];
        }
        long[] entry = sortEntry;
        long[] code = sortCode; // the log's second long: hash, bucket, op
        for (int i = 0; i < n; i++) {
            long c = log[2 * i + 1];
            int at = end[bucketOf(c)]++;
            entry[at] = log[2 * i];
            code[at] = c;
        }
        return end;
    }

    /** Stable sort of {@code entry[from, to)} (with {@code code} alongside): each key's operations stay in order. */
    private static void sortByEntry(long[] entry, long[] code, int from, int to) {
        if (to - from > 32) {
            it.unimi.dsi.fastutil.Arrays.mergeSort(from, to, (x, y) -> Long.compare(entry[x], entry[y]), (x, y) -> {
                long t = entry[x];
                entry[x] = entry[y];
                entry[y] = t;
                long u = code[x];
                code[x] = code[y];
                code[y] = u;
            });
            return;
        }
        for (int i = from + 1; i < to; i++) { // insertion sort: a bucket holds few operations per transaction
            long e = entry[i];
            long o = code[i];
            int j = i - 1;
            while (j >= from && entry[j] > e) {
                entry[j + 1] = entry[j];
                code[j + 1] = code[j];
                j--;
            }
            entry[j + 1] = e;
            code[j + 1] = o;
        }
    }

    /** Bucket {@code b}'s net change from its sorted operations {@code [from, to)}, handed to {@code visitor} when there is one. */
    private void netChange(int b, int from, int to, NameDeltaVisitor visitor) {
        long[] entry = sortEntry, code = sortCode;
        long[] added = deltaAdded, removed = deltaRemoved;
        int[] addedHashes = deltaHashes;
        int na = 0, nr = 0;
        for (int i = from; i < to; ) {
            int j = i;
            while (j + 1 < to && entry[j + 1] == entry[i]) {
                j++;
            }
            // net: filed last -> present at the end; removed last -> removed when the
            // first operation was a removal (the committed bucket held it), else no change
            if ((code[j] & 1) == 0) {
                if (na == added.length) {
                    added = java.util.Arrays.copyOf(added, 2 * na);
                    addedHashes = java.util.Arrays.copyOf(addedHashes, 2 * na);
                }
                addedHashes[na] = (int) (code[j] >>> 32);
                added[na++] = entry[i];
            } else if ((code[i] & 1) == 1) {
                if (nr == removed.length) {
                    removed = java.util.Arrays.copyOf(removed, 2 * nr);
                }
                removed[nr++] = entry[i];
            }
            i = j + 1;
        }
        deltaAdded = added;
        deltaHashes = addedHashes;
        deltaRemoved = removed;
        if (na > 0 || nr > 0) {
            visitor.visit(b, added, addedHashes, na, removed, nr);
        }
    }

    /**
     * The scratch arrays of {@link #forEachNameDelta}, kept between commits (up to
     * {@link #SCRATCH_KEPT} operations' worth, {@link #clear}): the log sorted by bucket (entry,
     * code), each bucket's end in it, and one bucket's net change.
     */
    private long[] sortEntry = new long[0], sortCode = new long[0];
    private int[] sortStart = new int[0];
    private long[] deltaAdded = new long[16], deltaRemoved = new long[16];
    private int[] deltaHashes = new int[16];
    /** Longs of sort scratch kept for the next commit; a bulk load's is dropped. */
    private static final int SCRATCH_KEPT = 1 << 16;

    /** One bucket's net name change ({@link #forEachNameDelta}). */
    @FunctionalInterface
    public interface NameDeltaVisitor {
        /**
         * {@code added[0..addedCount)} and {@code removed[0..removedCount)}, each ascending;
         * {@code addedHashes[i]} is the hash {@code added[i]} is filed with.
         */
        void visit(int bucket, long[] added, int[] addedHashes, int addedCount, long[] removed, int removedCount);
    }

    public IntOpenHashSet tables() {
        return tables;
    }

    /** Changed row chunks as {@code (table id << 20) | chunk}. */
    public LongOpenHashSet rowChunks() {
        return rowChunks;
    }

    /** Every reverse-index block the transaction touched (written whole or as a delta). */
    public IntOpenHashSet targetBlocks() {
        return targetBlocks;
    }

    /** The reverse-index blocks to write whole ({@link #target}). */
    public IntOpenHashSet wholeTargetBlocks() {
        return wholeTargetBlocks;
    }

    /**
     * Per reverse-index block not written whole, its operations in the order they ran: pairs of
     * longs {@code (target offset in the block << 1) | op} (op 0: add, 1: remove) and the entry.
     */
    public Int2ObjectOpenHashMap<LongArrayList> reverseOps() {
        return reverseOps;
    }

    public IntOpenHashSet shrunk() {
        return shrunk;
    }

    /** Times {@link #clear} ran: a commit or a rollback happened (read caches key on it, {@code TableMoves#epoch}). */
    public long clears() {
        return clears;
    }

    /** Forgets everything (after a commit or a rollback). */
    public void clear() {
        clears++;
        meta = false;
        schemas.clear();
        entityBlocks.clear();
        for (int k = 0, n = nameBlocks.size(); k < n; k++) {
            nameTouched[nameBlocks.getInt(k) >>> 6] = 0;
        }
        nameBlocks.clear();
        if (sortEntry.length > SCRATCH_KEPT) {
            sortEntry = new long[0];
            sortCode = new long[0];
        }
        if (deltaAdded.length > SCRATCH_KEPT || deltaRemoved.length > SCRATCH_KEPT) {
            deltaAdded = new long[16];
            deltaHashes = new int[16];
            deltaRemoved = new long[16];
        }
        if (nameLog.size() > 1 << 16) {
            nameLog.clear();
            nameLog.trim(1 << 10); // a bulk load's log is not kept for the small transactions after it
        } else {
            nameLog.clear();
        }
        tables.clear();
        rowChunks.clear();
        lastRowChunk = -1;
        lastEntityBlock = -1;
        targetBlocks.clear();
        wholeTargetBlocks.clear();
        for (LongArrayList ops : reverseOps.values()) {
            spare(ops);
        }
        reverseOps.clear();
        lastOpsBlock = -1;
        lastOps = null;
        shrunk.clear();
    }
}
