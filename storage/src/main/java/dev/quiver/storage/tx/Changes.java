package dev.quiver.storage.tx;

import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
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
    private final IntOpenHashSet nameBlocks = new IntOpenHashSet();
    /**
     * Per name bucket: entry ({@code index << 32 | parent}) to +1 (added), 2 (removed then filed
     * again: present, maybe under another name) or -1 (removed), net.
     */
    private final Int2ObjectOpenHashMap<Long2IntOpenHashMap> nameDeltas = new Int2ObjectOpenHashMap<>();
    private final IntOpenHashSet tables = new IntOpenHashSet();
    private final LongOpenHashSet rowChunks = new LongOpenHashSet();
    private final IntOpenHashSet targetBlocks = new IntOpenHashSet();
    /** Reverse-index blocks changed other than through {@link #reverseAdded}/{@link #reverseRemoved}: written whole. */
    private final IntOpenHashSet wholeTargetBlocks = new IntOpenHashSet();
    /** Per reverse-index block not written whole: its operations in order ({@link #reverseOps}). */
    private final Int2ObjectOpenHashMap<LongArrayList> reverseOps = new Int2ObjectOpenHashMap<>();
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
        entityBlocks.add(index >>> ENTITY_BLOCK_SHIFT);
    }

    /**
     * Name-index bucket {@code bucket} (the name index's own unit: entries are bucketed by the hash
     * of their key) gained the entry of entity {@code index} under parent {@code parent}.
     */
    public void nameAdded(int bucket, int index, int parent) {
        nameDelta(bucket, index, parent, 1);
    }

    /** Name-index bucket {@code bucket} lost the entry of entity {@code index} under parent {@code parent}. */
    public void nameRemoved(int bucket, int index, int parent) {
        nameDelta(bucket, index, parent, -1);
    }

    private void nameDelta(int bucket, int index, int parent, int op) {
        nameBlocks.add(bucket);
        Long2IntOpenHashMap d = nameDeltas.get(bucket);
        if (d == null) {
            d = new Long2IntOpenHashMap(4);
            nameDeltas.put(bucket, d);
        }
        long entry = ((long) index << 32) | (parent & 0xFFFF_FFFFL);
        int before = d.get(entry);
        if (before == 1 && op == -1) { // an entry added then removed in one transaction: no change
            d.remove(entry);
        } else if (before == -1 && op == 1) { // removed then filed again: logged again (its name may differ)
            d.put(entry, 2);
        } else if (before == 2 && op == -1) {
            d.put(entry, -1);
        } else {
            d.put(entry, op);
        }
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
        tables.add(id);
        rowChunks.add(((long) id << 20) | (row >>> ROW_CHUNK_SHIFT));
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
        targetBlocks.add(b);
        wholeTargetBlocks.add(b);
        reverseOps.remove(b);
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
        targetBlocks.add(b);
        if (wholeTargetBlocks.contains(b)) {
            return;
        }
        LongArrayList ops = reverseOps.get(b);
        if (ops == null) {
            ops = new LongArrayList(4);
            reverseOps.put(b, ops);
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

    public IntOpenHashSet nameBlocks() {
        return nameBlocks;
    }

    /**
     * The net change of each touched name bucket: entry {@code (entity index << 32) | parent index}
     * to 1 (the committed bucket lacks it, the new state has it), 2 (both have it: it was removed
     * and filed again, so its name may have changed) or -1 (the committed bucket has it, the new
     * state does not). A bucket
     * touched without a net change maps to an empty map.
     */
    public Int2ObjectOpenHashMap<Long2IntOpenHashMap> nameDeltas() {
        return nameDeltas;
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
        nameBlocks.clear();
        nameDeltas.clear();
        tables.clear();
        rowChunks.clear();
        targetBlocks.clear();
        wholeTargetBlocks.clear();
        reverseOps.clear();
        shrunk.clear();
    }
}
