package dev.quiver.storage.entity;

import dev.quiver.index.Ids;
import dev.quiver.index.LazyBlocks;
import dev.quiver.index.PagedArrays;
import dev.quiver.storage.IdException;
import dev.quiver.storage.tx.Changes;
import it.unimi.dsi.fastutil.ints.IntArrayList;

import java.util.Arrays;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

/**
 * The entity index (Flecs v4 entity index): for each entity index, its state, generation, name,
 * table and row, in arrays indexed by entity index (entity indices are dense) and paged
 * ({@link PagedArrays}: growth copies no full page), so that a lookup is two array reads per field
 * (page, then entry) and the index costs no object per entity.
 *
 * <p>An index is {@link #FREE_NEVER} until first used, then {@link #ALIVE}, and {@link #DEAD}
 * after a delete, which bumps its generation; dead indices are recycled through a free list, so a
 * stale id (an older generation) never names the entity that reuses its index.
 *
 * <p>Accessors come in three strengths: {@link #get} (an alive id, or an exception),
 * {@link #tryGet} (an alive id, or -1) and {@link #getAny} (the live id of an index, or 0).
 *
 * <p><b>Blocks read when touched</b> (open in place, issue 8 section 2). After {@link #lazy}, the
 * entries are read in blocks of {@value #BLOCK} indices (one {@code entities} page each) the first
 * time an accessor touches an index of the block: until then the block's states hold the sentinel
 * {@link #UNREAD}, so that every accessor pays one well-predicted branch on the state bits. A
 * reader may bound the blocks kept decoded ({@link #budget}, first read first forgotten); a writer
 * forgets only between transactions, down to its budget ({@link LazyBlocks#writerBudget}: a
 * forgotten block loses its names and is read again when touched; the fixed-size fields stay in
 * the paged arrays). The range ({@link #nextIndex}), the
 * free list and the number of alive entities come from the meta page, so opening reads no block.
 * Names are kept as UTF-8 bytes, one arena per block ({@code BlockNames}), never as one String
 * per entity: a String is made each time {@link #name} asks, a lookup compares bytes
 * ({@link #nameIs}) and the name index hashes them ({@link #nameHash}). A block read from its
 * page keeps the page's names section undecoded ({@link #restorePackedNames}, format 11) and
 * decodes it into its arena on the first use of any name of the block (a name, a lookup's
 * comparison, a hash, a rename, the checker; writing the page back copies a still undecoded
 * section, {@link #packedNames}), so touching a block to learn
 * its entities' states, tables and rows (a query that prints no names) decodes no name
 * ({@link #nameBlocksDecoded}).
 * Every change of an entry's table or row is told to {@link Changes} (its entity page carries them).
 * Not thread-safe.
 */
public final class EntityIndex {
    public static final byte FREE_NEVER = 0, ALIVE = 1, DEAD = 2;
    /** In memory only: the entry's block is not read yet (never stored, never returned by {@link #state}). */
    private static final byte UNREAD = 3;
    /** Bits of an index that choose its block. */
    public static final int BLOCK_SHIFT = Changes.ENTITY_BLOCK_SHIFT;
    /** Indices per block (one {@code entities} page). */
    public static final int BLOCK = 1 << BLOCK_SHIFT;

    private final Changes changes;
    /**
     * By entity index: the state in bits 16..23 and the generation in bits 0..15, in one int so
     * that an alive check ({@link #isAlive}: the hot read of every {@code has}, {@code get} and
     * variable binding) costs one memory access, not one per field.
     *
     * <p>This and the other fixed-size fields are paged ({@link PagedArrays}: entry i is
     * {@code live[i >>> SHIFT][i & MASK]}), so that growing the index never copies the entries it
     * holds (issue 8, load).
     */
    private int[][] live = new int[0][];
    /**
     * By entity index: where it lives, its table id in the high 32 bits and its row in the low 32
     * ({@link #placeOf}), in one long so that locating an entity (a join's {@code $y}: table, then
     * row) reads one cache line, not two.
     */
    private long[][] places = new long[0][];
    /** The entries the pages hold ({@link PagedArrays#capacity}). */
    private int capacity;
    private static final int SHIFT = PagedArrays.SHIFT, MASK = PagedArrays.MASK;
    /**
     * By block: its entities' names as UTF-8 bytes; null: no entity of the block is named, or
     * its names are still {@link #packed}.
     */
    private BlockNames[] names = new BlockNames[0];
    /**
     * By block: its page's names section, not decoded yet ({@link #restorePackedNames}), from
     * {@link #packedFrom}; null: nothing pending. Decoded by {@link #packedDecoder} on the first
     * use of a name of the block ({@link #blockNames}).
     */
    private byte[][] packed = new byte[0][];
    private int[] packedFrom = new int[0];
    private PackedNames packedDecoder;
    /** Blocks whose packed names were decoded (for tests: a query that reads no name decodes none). */
    private long nameBlocksDecoded;
    /** Strings made from names' bytes by {@link #name} (for tests: a query that prints no names makes none). */
    private long namesDecoded;
    private int nextIndex;
    private IntArrayList free = new IntArrayList();
    /** Decodes the committed free list when first needed ({@link #restore}); null once decoded. */
    private Supplier<IntArrayList> freeReader;
    private int alive;
    /** Which blocks are read; its loader is {@link #readBlock}. */
    private final LazyBlocks blocks = new LazyBlocks("EntityIndex", this::forgetBlock);
    private IntConsumer pageReader;

    /** @param changes told of every table or row change (null: an index nobody commits, e.g. in codec tests) */
    public EntityIndex(Changes changes) {
        this.changes = changes;
    }

    /** Forgets every entity (before a reload); the index is no longer lazy. */
    public void clear() {
        live = new int[0][];
        places = new long[0][];
        capacity = 0;
        names = new BlockNames[0];
        packed = new byte[0][];
        packedFrom = new int[0];
        nextIndex = 0;
        free = new IntArrayList();
        freeReader = null;
        alive = 0;
        blocks.clear();
        pageReader = null;
    }

    /** Reads the block of index {@code i} unless it is in memory: the one branch the accessors pay. */
    private void touch(int i) {
        if ((live[i >>> SHIFT][i & MASK] >>> STATE_SHIFT) == UNREAD) {
            blocks.touch(i >>> BLOCK_SHIFT);
        }
    }

    /** Bits of {@link #live} below the state: the generation's. */
    private static final int STATE_SHIFT = 16;
    /** {@link #live} of an alive entry of generation 0 (add the generation). */
    private static final int ALIVE_BITS = ALIVE << STATE_SHIFT;

    /** The low bits of a {@link #places} entry: the row. */
    private static final long ROW_BITS = 0xFFFF_FFFFL;

    /** A {@link #places} entry: the table id high, the row low. */
    private static long placeOf(int table, int row) {
        return ((long) table << 32) | (row & ROW_BITS);
    }

    private static int pack(byte st, int generation) {
        return (st << STATE_SHIFT) | (generation & Ids.MAX_GENERATION);
    }

    private static byte stateOf(int packed) {
        return (byte) (packed >>> STATE_SHIFT);
    }

    private static int generationOf(int packed) {
        return packed & Ids.MAX_GENERATION;
    }

    /** True when {@code e} names an alive entity of the current generation (never a pair). */
    public boolean isAlive(long e) {
        int i = Ids.index(e);
        if (Ids.isPair(e) || i <= 0 || i >= nextIndex) {
            return false;
        }
        int v = live[i >>> SHIFT][i & MASK];
        if ((v >>> STATE_SHIFT) == UNREAD) {
            v = readIn(i);
        }
        return v == (ALIVE_BITS | Ids.generation(e));
    }

    /**
     * Reads the block of index {@code i} and returns its {@link #live} entry: the rare path of the
     * accessors, kept out of them so that they stay small enough to inline.
     */
    private int readIn(int i) {
        blocks.touch(i >>> BLOCK_SHIFT);
        return live[i >>> SHIFT][i & MASK];
    }

    /** True when index {@code i} holds an alive entity. */
    public boolean isAliveIndex(int i) {
        if (i <= 0 || i >= nextIndex) {
            return false;
        }
        touch(i);
        return stateOf(live[i >>> SHIFT][i & MASK]) == ALIVE;
    }

    /** The index of an alive entity, or -1 when {@code e} is not alive (or stale). */
    public int tryGet(long e) {
        return isAlive(e) ? Ids.index(e) : -1;
    }

    /**
     * The index of an alive entity.
     *
     * @param describe how to name {@code e} in the error (its path, or {@code #index})
     * @throws dev.quiver.storage.DeadEntityException when {@code e} is not alive
     */
    public int get(long e, java.util.function.LongFunction<String> describe) {
        if (!isAlive(e)) {
            throw notAlive(e, describe);
        }
        return Ids.index(e);
    }

    private static dev.quiver.storage.DeadEntityException notAlive(long e, java.util.function.LongFunction<String> describe) {
        return new dev.quiver.storage.DeadEntityException("entity " + describe.apply(e) + " is not alive");
    }

    /** The live id of an index (as found in a pair), or 0 when that index is not alive. */
    public long getAny(int index) {
        if (index <= 0 || index >= nextIndex) {
            return 0;
        }
        touch(index);
        int v = live[index >>> SHIFT][index & MASK];
        return stateOf(v) != ALIVE ? 0 : Ids.entity(index, generationOf(v));
    }

    /**
     * {@link #getAny}, {@link #table} and {@link #row} of many indices in one pass, each entry's
     * block touched once: for {@code i} in {@code [0, n)}, {@code ids[i]} is the live id of
     * {@code indices[from + i]} (0 when it is not alive or out of range), and when it is alive
     * {@code tables[i]} its table id and {@code rows[i]} its row (left as they are otherwise).
     * A join's targets, located by the thousand (RG-1: 10,000 a run). Spells out
     * {@link #getAny}'s checks rather than calling it: the JIT's first tier does not inline a method
     * that size, and the call made RG-1's join 5-10% slower there (3 JVM pairs, C1 only).
     */
    public void locate(int[] indices, int from, int n, long[] ids, int[] tables, int[] rows) {
        for (int k = 0; k < n; k++) {
            int index = indices[from + k];
            if (index <= 0 || index >= nextIndex) {
                ids[k] = 0;
                continue;
            }
            touch(index);
            int v = live[index >>> SHIFT][index & MASK];
            if (stateOf(v) != ALIVE) {
                ids[k] = 0;
                continue;
            }
            ids[k] = Ids.entity(index, generationOf(v));
            long p = places[index >>> SHIFT][index & MASK];
            tables[k] = (int) (p >>> 32);
            rows[k] = (int) p;
        }
    }

    /** The id of index {@code i} at its current generation (alive or not). */
    public long idOf(int i) {
        touch(i);
        return Ids.entity(i, generationOf(live[i >>> SHIFT][i & MASK]));
    }

    /** One past the highest index ever used. */
    public int nextIndex() {
        return nextIndex;
    }

    public byte state(int i) {
        touch(i);
        return stateOf(live[i >>> SHIFT][i & MASK]);
    }

    public int generation(int i) {
        touch(i);
        return generationOf(live[i >>> SHIFT][i & MASK]);
    }

    /** The entity's own name (a new String each call), or null for an anonymous entity. */
    public String name(int i) {
        touch(i);
        BlockNames nb = blockNames(i >>> BLOCK_SHIFT);
        if (nb == null || !nb.named(i & (BLOCK - 1))) {
            return null;
        }
        namesDecoded++;
        return nb.get(i & (BLOCK - 1));
    }

    /** True when entity index {@code i} is named {@code name} (its bytes compared, no String made). */
    public boolean nameIs(int i, String name) {
        touch(i);
        BlockNames nb = blockNames(i >>> BLOCK_SHIFT);
        return nb != null && nb.is(i & (BLOCK - 1), name);
    }

    /** True when entity index {@code i} has a name. */
    public boolean named(int i) {
        touch(i);
        BlockNames nb = blockNames(i >>> BLOCK_SHIFT);
        return nb != null && nb.named(i & (BLOCK - 1));
    }

    /**
     * The {@link String#hashCode} of entity index {@code i}'s name, computed from its bytes (0 for
     * an anonymous entity), for the name index's {@code NameIndex.mix}.
     */
    public int nameHash(int i) {
        touch(i);
        BlockNames nb = blockNames(i >>> BLOCK_SHIFT);
        return nb == null ? 0 : nb.hashCode(i & (BLOCK - 1));
    }

    /**
     * Points {@code out} at entity index {@code i}'s name as UTF-8 bytes where the index keeps them
     * (no copy: page writing), valid until a name of its block changes; false, {@code out}
     * unchanged, for an anonymous entity.
     */
    public boolean nameBytes(int i, NameBytes out) {
        touch(i);
        BlockNames nb = blockNames(i >>> BLOCK_SHIFT);
        return nb != null && nb.bytes(i & (BLOCK - 1), out);
    }

    public void setName(int i, String name) {
        touch(i);
        setNameEntry(i, name);
    }

    /** Sets the name entry of index {@code i} (null: anonymous). */
    private void setNameEntry(int i, String name) {
        int b = i >>> BLOCK_SHIFT;
        BlockNames nb = blockNames(b);
        if (nb == null) {
            if (name == null) {
                return;
            }
            nb = names[b] = new BlockNames(BLOCK);
        }
        nb.set(i & (BLOCK - 1), name);
    }

    /**
     * Block {@code b}'s names, decoded from its packed names section first when it has one (the
     * first use of a name of the block); null when no entity of the block is named.
     *
     * @throws dev.quiver.error.CorruptionException naming the page when the section is malformed
     *                                              (it stays packed: the next use fails alike)
     */
    private BlockNames blockNames(int b) {
        BlockNames nb = names[b];
        if (nb == null && packed[b] != null) {
            packedDecoder.decode(this, b, packed[b], packedFrom[b]);
            packed[b] = null;
            nameBlocksDecoded++;
            nb = names[b];
        }
        return nb;
    }

    /** Blocks whose packed names section was decoded since the index was made (a block read again counts again). */
    public long nameBlocksDecoded() {
        return nameBlocksDecoded;
    }

    /** Strings made from names' bytes by {@link #name} since the index was made. */
    public long namesDecoded() {
        return namesDecoded;
    }

    /** Heap bytes the names hold (their arenas and offsets), for statistics. */
    public long namesFootprint() {
        long n = 4L * names.length + 8L * packed.length;
        for (BlockNames nb : names) {
            n += nb == null ? 0 : nb.footprint();
        }
        for (byte[] p : packed) {
            n += p == null ? 0 : p.length + 16;
        }
        return n;
    }

    /** The id of the table holding entity index {@code i}. */
    public int table(int i) {
        touch(i);
        return (int) (places[i >>> SHIFT][i & MASK] >>> 32);
    }

    /** The entity's row in its table. */
    public int row(int i) {
        touch(i);
        return (int) places[i >>> SHIFT][i & MASK];
    }

    /** Moves entity index {@code i} to row {@code row} of its table (its entity page changes). */
    public void setRow(int i, int row) {
        touch(i);
        long[] page = places[i >>> SHIFT];
        page[i & MASK] = (page[i & MASK] & ~ROW_BITS) | (row & ROW_BITS);
        changed(i);
    }

    /** Records where entity index {@code i} lives (its entity page changes). */
    public void place(int i, int table, int row) {
        touch(i);
        places[i >>> SHIFT][i & MASK] = placeOf(table, row);
        changed(i);
    }

    private void changed(int i) {
        if (changes != null) {
            changes.entity(i);
        }
    }

    /** The dead indices waiting for reuse, most recent last. Do not modify. */
    public IntArrayList freeList() {
        return free();
    }

    private IntArrayList free() {
        if (freeReader != null) {
            IntArrayList f = freeReader.get();
            freeReader = null;
            free = f;
        }
        return free;
    }

    /** The number of alive entities (builtins included), kept without reading any block. */
    public int aliveCount() {
        return alive;
    }

    /**
     * Takes an index for a new entity: a recycled one if any, else the next unused one. The caller
     * makes it alive with {@link #revive}.
     *
     * @throws IdException when the index space is exhausted
     */
    public int allocate() {
        IntArrayList free = free();
        if (!free.isEmpty()) {
            int i = free.popInt();
            touch(i);
            return i;
        }
        if (nextIndex == Integer.MAX_VALUE) {
            throw new IdException("entity index space exhausted");
        }
        // the block of the new index is read before the index joins the range: reading it later
        // would reset the new entry to the page's
        blocks.touch(nextIndex >>> BLOCK_SHIFT);
        int idx = nextIndex++;
        ensureCapacity(nextIndex);
        return idx;
    }

    /** Marks index {@code i} alive with a name (null: anonymous) and returns its id. */
    public long revive(int i, String name) {
        touch(i);
        int g = generationOf(live[i >>> SHIFT][i & MASK]);
        setNameEntry(i, name); // before the state changes: packed names are decoded against the states they were written with
        if (stateOf(live[i >>> SHIFT][i & MASK]) != ALIVE) {
            alive++;
        }
        live[i >>> SHIFT][i & MASK] = pack(ALIVE, g);
        return Ids.entity(i, g);
    }

    /** Marks index {@code i} dead, bumps its generation and puts it on the free list. */
    public void kill(int i) {
        touch(i);
        setNameEntry(i, null); // before the state changes (see revive)
        if (stateOf(live[i >>> SHIFT][i & MASK]) == ALIVE) {
            alive--;
        }
        live[i >>> SHIFT][i & MASK] = pack(DEAD, generationOf(live[i >>> SHIFT][i & MASK]) + 1);
        places[i >>> SHIFT][i & MASK] = placeOf(0, -1);
        free().add(i);
    }

    /** Number of alive entities at index {@code from} and above (reads the blocks below {@code from}, not the others). */
    public int countAlive(int from) {
        int below = 0;
        for (int i = 1; i < Math.min(from, nextIndex); i++) {
            touch(i);
            if (stateOf(live[i >>> SHIFT][i & MASK]) == ALIVE) {
                below++;
            }
        }
        return alive - below;
    }

    // ------------------------------------------------------------------ loading

    /**
     * Sets the index range, free list and alive count read from a committed state; the free list
     * is decoded by {@code free} when first needed (a reader never allocates).
     */
    public void restore(int nextIndex, Supplier<IntArrayList> free, int alive) {
        this.nextIndex = nextIndex;
        this.free = null;
        this.freeReader = free;
        this.alive = alive;
        ensureCapacity(nextIndex);
    }

    /** Sets one index's persisted state (loading a block). */
    public void restoreEntry(int i, byte st, int generation, String name, int table, int row) {
        setNameEntry(i, name); // before the state changes (see revive)
        live[i >>> SHIFT][i & MASK] = pack(st, generation);
        places[i >>> SHIFT][i & MASK] = placeOf(table, row);
    }

    /**
     * Sets a run of {@code length} consecutive indices from {@code from}, all within one block,
     * while the block is read from its page (the block read of {@link #lazy}, {@link #readAll},
     * which resets it to never used first, so no entry of the run has a name): each gets state
     * {@code st}, generation {@code generation} and table {@code table}; an {@link #ALIVE} run's
     * entries get the consecutive rows {@code firstRow, firstRow + 1, ...}, any other run's the row
     * {@code firstRow} each. One bulk operation per run (a fill of the states, a fill or a loop of
     * the places), not one call per entry: a block of entities created together is a few runs.
     *
     * @throws IllegalArgumentException when the run is empty or does not lie within one block
     */
    public void restoreRun(int from, int length, byte st, int generation, int table, int firstRow) {
        if (length < 1 || from < 0 || (from >>> BLOCK_SHIFT) != ((from + length - 1) >>> BLOCK_SHIFT)) {
            throw new IllegalArgumentException("run of " + length + " entries from #" + from + " is not within one block");
        }
        int p = from >>> SHIFT, f = from & MASK, t = f + length; // a block lies within one page
        Arrays.fill(live[p], f, t, pack(st, generation));
        long[] pl = places[p];
        if (st == ALIVE) {
            long tableBits = placeOf(table, 0);
            for (int j = f, r = firstRow; j < t; j++, r++) {
                pl[j] = tableBits | (r & ROW_BITS);
            }
        } else {
            Arrays.fill(pl, f, t, placeOf(table, firstRow));
        }
    }

    /**
     * Decodes a block's packed names section ({@link #restorePackedNames}) into the index through
     * {@link #restoreNames}: the page codec's, so that the layout stays in the format package.
     */
    @FunctionalInterface
    public interface PackedNames {
        /**
         * @param block the block (its page's key)
         * @param bytes the section is {@code bytes[from..]}
         * @throws dev.quiver.error.CorruptionException naming the page when the section is malformed
         */
        void decode(EntityIndex index, int block, byte[] bytes, int from);
    }

    /**
     * Gives block {@code b} (just read through {@link #restoreRun}) its page's names section,
     * {@code bytes[from..]}, undecoded: {@code decoder} decodes it on the first use of a name of the
     * block (a lookup, a path, a rename, the checker; not writing the page, {@link #packedNames}). The array is kept, not
     * copied: nobody may write it afterwards. Not thread-safe, as the rest of the index: the first
     * use decodes in place.
     */
    public void restorePackedNames(int b, byte[] bytes, int from, PackedNames decoder) {
        packed[b] = bytes;
        packedFrom[b] = from;
        packedDecoder = decoder;
    }

    /**
     * Block {@code b}'s names section as its page gave it ({@link #restorePackedNames}), still
     * undecoded: the section is {@code packedNames(b)[packedNamesFrom(b)..]} to the array's end;
     * null when the block's names are decoded, it has none, or it is not read. Such a block's names
     * and its named entities' states have not changed since its page was read (every change of
     * either decodes the section first, {@link #setNameEntry}), so writing the block's page again
     * can copy the section as it is (issue 8, RG-1 delete: the blocks of surviving entities that
     * only lost a pair). The array must not be written.
     */
    public byte[] packedNames(int b) {
        return b < packed.length ? packed[b] : null;
    }

    /** Where block {@code b}'s {@link #packedNames} section begins in its array. */
    public int packedNamesFrom(int b) {
        return packedFrom[b];
    }

    /**
     * Gives the entries of block {@code b} their names as UTF-8 bytes (the packed names decoder's
     * result): the name of index {@code (b << BLOCK_SHIFT) + k} is
     * {@code bytes[ends[k - 1], ends[k])} ({@code ends[-1]} is 0; an empty range: anonymous), for k
     * below {@code ends.length}. The bytes are copied into the block's arena.
     */
    public void restoreNames(int b, byte[] bytes, int[] ends) {
        BlockNames nb = BlockNames.of(BLOCK, bytes, ends);
        names[b] = nb.isEmpty() ? null : nb;
    }

    /**
     * Makes the index lazy (after {@link #restore}): every entry below {@link #nextIndex} is unread;
     * the first touch of block b calls {@code reader.accept(b)}, which restores the entries of its
     * page ({@link #restoreRun}) (the block is reset to never used first: entries the page lacks are).
     * {@code readAll} reads every block not read yet and ends laziness ({@link #readAll}).
     */
    public void lazy(IntConsumer reader, Runnable readAll) {
        pageReader = reader;
        for (int from = 0; from < nextIndex; from += PagedArrays.PAGE) { // page by page: one tight loop each (open time)
            markUnread(live[from >>> SHIFT], 0, Math.min(PagedArrays.PAGE, nextIndex - from));
        }
        blocks.lazy(this::readBlock, readAll);
    }

    /**
     * Makes an index whose entries are all in memory (built in memory, or read whole) lazy without
     * reading anything: every block counts as read, and a block forgotten later (a writer's
     * {@link LazyBlocks#trim}, once its entries are committed) is read by {@code reader} when next
     * touched, as after {@link #lazy}.
     */
    public void lazyInMemory(IntConsumer reader, Runnable readAll) {
        pageReader = reader;
        int n = nextIndex == 0 ? 0 : ((nextIndex - 1) >>> BLOCK_SHIFT) + 1;
        int[] all = new int[n];
        for (int b = 0; b < n; b++) {
            all[b] = b;
        }
        blocks.lazyInMemory(this::readBlock, readAll, all);
    }

    private void readBlock(int b) {
        resetBlock(b);
        pageReader.accept(b);
    }

    private void resetBlock(int b) {
        names[b] = null;
        packed[b] = null;
        int from = b << BLOCK_SHIFT, to = Math.min(nextIndex, from + BLOCK);
        if (from < to) { // as restoreEntry(i, FREE_NEVER, 0, null, 0, 0) for each, in bulk; a block lies within one page
            int p = from >>> SHIFT, f = from & MASK, t = f + (to - from);
            Arrays.fill(live[p], f, t, pack(FREE_NEVER, 0));
            Arrays.fill(places[p], f, t, placeOf(0, 0));
        }
    }

    private void forgetBlock(int b) {
        names[b] = null;
        packed[b] = null;
        int from = b << BLOCK_SHIFT, to = Math.min(nextIndex, from + BLOCK);
        if (from < to) { // a block lies within one page
            markUnread(live[from >>> SHIFT], from & MASK, (from & MASK) + (to - from));
        }
    }

    /** Marks entries {@code [from, to)} of one page of {@link #live} unread; the generations stay. */
    private static void markUnread(int[] page, int from, int to) {
        for (int j = from; j < to; j++) {
            page[j] = pack(UNREAD, page[j]);
        }
    }

    /**
     * Reads every block not read yet (for the checker and for streaming every page) and ends
     * laziness; a no-op when not lazy.
     */
    public void readAll() {
        free(); // decoded (and so checked) too
        if (!blocks.isLazy()) {
            return;
        }
        for (int b = 0; b <= (nextIndex - 1) >>> BLOCK_SHIFT && nextIndex > 0; b++) {
            if (!blocks.isLoaded(b)) {
                blocks.markLoaded(b);
                readBlock(b);
            }
        }
        blocks.eager();
    }

    /**
     * Rolls block {@code b} back to its committed page: forgotten, read on its next touch, when
     * lazy (returns true); otherwise reset to never used for the caller to read again (false).
     */
    public boolean unloadBlock(int b) {
        if (blocks.unload(b)) {
            return true;
        }
        resetBlock(b);
        return false;
    }

    /** The block bookkeeping (for tests and statistics: blocks in memory, blocks read). */
    public LazyBlocks blocks() {
        return blocks;
    }

    /** Keeps at most {@code maxBlocks} blocks decoded (at least 1). Only for an index nobody changes (a reader's). */
    public void budget(int maxBlocks) {
        blocks.budget(maxBlocks);
    }

    /**
     * Rolls indices {@code [from, to)} back to never used (a failed transaction's new entities,
     * before the committed entries are read again). Indices past the array are ignored.
     */
    public void resetRange(int from, int to) {
        for (int i = from; i < Math.min(to, capacity); i++) {
            restoreEntry(i, FREE_NEVER, 0, null, 0, 0);
        }
    }

    /** The entries the paged arrays hold now (at least {@link #nextIndex}); for tests and statistics. */
    public int capacity() {
        return capacity;
    }

    /** Reserves the builtin index range of a new world. */
    public void reserve(int nextIndex) {
        ensureCapacity(nextIndex);
        this.nextIndex = nextIndex;
    }

    private void ensureCapacity(int n) {
        if (n <= capacity) {
            return;
        }
        // paged (PagedArrays): growing copies no full page. Past the first page, the last page is
        // made whole at once (at most a page unused per array, a few hundred KiB) instead of
        // doubling from one slot: a prefab batch grows the index by thousands of entities at a
        // time, and the doubling copies were most of what PagedArrays.grow allocated (issue 9)
        long need = n <= PagedArrays.PAGE ? Math.max(n, 1024L) : ((n + PagedArrays.MASK) & ~(long) PagedArrays.MASK);
        live = PagedArrays.grow(live, need);
        places = PagedArrays.grow(places, need);
        capacity = PagedArrays.capacity(live);
        int blocks = (capacity >>> BLOCK_SHIFT) + 1;
        if (names.length < blocks) {
            names = Arrays.copyOf(names, Math.max(blocks, names.length + (names.length >>> 1))); // one reference per 1024 entries
            packed = Arrays.copyOf(packed, names.length);
            packedFrom = Arrays.copyOf(packedFrom, names.length);
        }
    }
}
