package dev.quiver.index;

import it.unimi.dsi.fastutil.ints.IntArrayFIFOQueue;

import java.util.BitSet;
import java.util.function.IntConsumer;

/**
 * Which blocks of a lazily read index are in memory (open in place, issue 8 section 2): the
 * bookkeeping the reverse index and the name index share. A block is read through the loader the
 * first time its owner {@link #touch}es it; a bounded reader keeps at most {@link #budget} blocks,
 * forgetting the block read longest ago (first in, first out) through the owner's {@code forget}.
 * A writer's bound ({@link #writerBudget}) forgets nothing when a block is touched (a transaction's
 * changed blocks must stay until its commit) but only when told, by {@link #trim}, at a point
 * where every block in memory equals its committed page (after a commit or a rollback); a block
 * touched in a later transaction than the one that read it, since it was last passed over, gets a
 * second chance there (it goes to the back of the order instead, CLOCK), so a block every
 * transaction uses (a prefab's reverse lists, which grow by every instance) stays in memory
 * instead of being decoded again whole each time the blocks of new entities push it out.
 * Without a loader (not lazy, or after {@link #eager}) every block counts as in memory and every
 * method is a no-op. Not thread-safe.
 */
public final class LazyBlocks {
    private final String owner;
    private final IntConsumer forget;
    /** Null: every block is in memory. */
    private IntConsumer loader;
    private Runnable readAll;
    private BitSet loaded = new BitSet();
    private int count;
    private long reads;
    private int budget = Integer.MAX_VALUE;
    /** A writer's budget: blocks are forgotten by {@link #trim} only, never by a touch. */
    private boolean deferred;
    private IntArrayFIFOQueue order = new IntArrayFIFOQueue();
    /**
     * Under a writer's budget: the blocks touched since the {@link #trim} after the one that read
     * them, and since {@link #trim} last passed over them.
     */
    private BitSet used = new BitSet();
    /** Under a writer's budget: the blocks read since the last {@link #trim} (touches within the transaction that read a block do not count as use). */
    private BitSet fresh = new BitSet();
    /** The block last marked in {@link #used} (-1: none since the last trim): a run of touches of one block marks it once. */
    private int lastUsed = -1;

    /**
     * @param owner  the owning index's name, for messages
     * @param forget drops a block's data from the owner (eviction and {@link #unload})
     */
    public LazyBlocks(String owner, IntConsumer forget) {
        this.owner = owner;
        this.forget = forget;
    }

    /** Back to not lazy, nothing counted (before a reload). */
    public void clear() {
        loader = null;
        readAll = null;
        loaded = new BitSet();
        count = 0;
        reads = 0;
        budget = Integer.MAX_VALUE;
        deferred = false;
        order = new IntArrayFIFOQueue();
        used = new BitSet();
        fresh = new BitSet();
        lastUsed = -1;
    }

    /** Lazy from now: {@code loader.accept(b)} reads block b; {@code readAll} reads every block not read yet and ends laziness. */
    public void lazy(IntConsumer loader, Runnable readAll) {
        this.loader = loader;
        this.readAll = readAll;
    }

    /**
     * Lazy from now, over an index whose blocks are all in memory (one built in memory, or read
     * whole): the blocks {@code inMemory} lists count as read (in that order for forgetting), the
     * others as absent from the pages too; {@code loader} and {@code readAll} as in {@link #lazy}.
     * The budget stays; the read count goes on.
     */
    public void lazyInMemory(IntConsumer loader, Runnable readAll, int[] inMemory) {
        loaded = new BitSet();
        count = 0;
        order = new IntArrayFIFOQueue();
        used = new BitSet();
        fresh = new BitSet();
        lastUsed = -1;
        lazy(loader, readAll);
        for (int b : inMemory) {
            markLoaded(b);
        }
    }

    /** True while some block may not be in memory. */
    public boolean isLazy() {
        return loader != null;
    }

    /** Keeps at most {@code maxBlocks} blocks (at least 1). Only for an index nobody changes (a reader's). */
    public void budget(int maxBlocks) {
        budget = Math.max(1, maxBlocks);
        deferred = false;
        evict(-1);
    }

    /**
     * A writer's bound: {@link #trim} forgets the blocks read longest ago until at most
     * {@code maxBlocks} (at least 1) remain; a touch never forgets. {@link Integer#MAX_VALUE}:
     * unbounded.
     */
    public void writerBudget(int maxBlocks) {
        budget = Math.max(1, maxBlocks);
        deferred = true;
    }

    /** The bound on blocks kept ({@link Integer#MAX_VALUE}: none). */
    public int budget() {
        return budget;
    }

    /**
     * Forgets the blocks read longest ago (through {@code forget}) until at most the budget remain;
     * a no-op when not lazy or unbounded. Only where every block in memory equals its committed
     * page: a forgotten block is read again from the pages when next touched.
     */
    public void trim() {
        if (loader != null && budget != Integer.MAX_VALUE) {
            evict(-1);
        }
        fresh.clear();
        lastUsed = -1;
    }

    /** Reads block {@code b} through the loader unless it is in memory; a failed read leaves it unread. */
    public void touch(int b) {
        if (loader == null) {
            return;
        }
        if (loaded.get(b)) {
            if (deferred && b != lastUsed) {
                lastUsed = b;
                if (!fresh.get(b)) {
                    used.set(b);
                }
            }
            return;
        }
        loaded.set(b);
        count++;
        reads++;
        if (deferred) {
            fresh.set(b);
        }
        try {
            loader.accept(b);
        } catch (RuntimeException | Error e) {
            unload(b);
            throw e;
        }
        if (budget != Integer.MAX_VALUE) {
            order.enqueue(b);
            if (!deferred) {
                evict(b);
            }
        }
    }

    private void evict(int keep) {
        while (count > budget && !order.isEmpty()) {
            int old = order.dequeueInt();
            if (old != keep && loaded.get(old) && used.get(old)) {
                used.clear(old); // touched again since read or last passed over: a second chance
                order.enqueue(old);
            } else if (old != keep && loaded.get(old)) {
                unload(old);
            } else if (old == keep) {
                order.enqueue(old);
                if (order.size() == 1) {
                    return;
                }
            }
        }
    }

    /** True when block {@code b} is in memory (always once not lazy). */
    public boolean isLoaded(int b) {
        return loader == null || loaded.get(b);
    }

    /** Counts block {@code b} as in memory without the loader (the caller fills it). */
    public void markLoaded(int b) {
        if (loader != null && !loaded.get(b)) {
            loaded.set(b);
            count++;
            if (budget != Integer.MAX_VALUE) {
                order.enqueue(b);
            }
        }
    }

    /** Ends laziness: every block is taken to be in memory (the caller read the missing ones). */
    public void eager() {
        loader = null;
    }

    /**
     * Forgets block {@code b} (through {@code forget}) so that the next touch reads it again;
     * false, doing nothing, when not lazy.
     */
    public boolean unload(int b) {
        if (loader == null) {
            return false;
        }
        forget.accept(b);
        used.clear(b);
        if (loaded.get(b)) {
            loaded.clear(b);
            count--;
        }
        return true;
    }

    /**
     * Reads every block not read yet ({@code readAll}), for a whole-index method.
     *
     * @throws IllegalStateException when the index stays lazy (no {@code readAll})
     */
    public void requireAll(String what) {
        if (loader != null && readAll != null) {
            readAll.run();
        }
        if (loader != null) {
            throw new IllegalStateException(owner + "." + what + " needs every block in memory");
        }
    }

    /** Blocks in memory that were read through the loader or marked. */
    public int loadedCount() {
        return count;
    }

    /** Times a block was read through the loader since the index became lazy. */
    public long reads() {
        return reads;
    }
}
