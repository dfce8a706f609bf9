package dev.quiver.storage.entity;

import dev.quiver.index.Ids;
import dev.quiver.storage.IdException;
import it.unimi.dsi.fastutil.ints.IntArrayList;

import java.util.Arrays;

/**
 * The entity index (Flecs v4 entity index): for each entity index, its state, generation, name,
 * table and row, in flat arrays indexed by entity index (entity indices are dense), so that a
 * lookup is one array read per field and the index costs no object per entity.
 *
 * <p>An index is {@link #FREE_NEVER} until first used, then {@link #ALIVE}, and {@link #DEAD}
 * after a delete, which bumps its generation; dead indices are recycled through a free list, so a
 * stale id (an older generation) never names the entity that reuses its index.
 *
 * <p>Accessors come in three strengths: {@link #get} (an alive id, or an exception),
 * {@link #tryGet} (an alive id, or -1) and {@link #getAny} (the live id of an index, or 0). Not
 * thread-safe.
 */
public final class EntityIndex {
    public static final byte FREE_NEVER = 0, ALIVE = 1, DEAD = 2;

    private int[] gens = new int[0];
    private byte[] state = new byte[0];
    private int[] tableOf = new int[0];
    private int[] rowOf = new int[0];
    private String[] names = new String[0];
    private int nextIndex;
    private IntArrayList free = new IntArrayList();

    /** Forgets every entity (before a reload). */
    public void clear() {
        gens = new int[0];
        state = new byte[0];
        tableOf = new int[0];
        rowOf = new int[0];
        names = new String[0];
        nextIndex = 0;
        free = new IntArrayList();
    }

    /** True when {@code e} names an alive entity of the current generation (never a pair). */
    public boolean isAlive(long e) {
        if (Ids.isPair(e)) {
            return false;
        }
        int i = Ids.index(e);
        return i > 0 && i < nextIndex && state[i] == ALIVE && gens[i] == Ids.generation(e);
    }

    /** True when index {@code i} holds an alive entity. */
    public boolean isAliveIndex(int i) {
        return i > 0 && i < nextIndex && state[i] == ALIVE;
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
            throw new dev.quiver.storage.DeadEntityException("entity " + describe.apply(e) + " is not alive");
        }
        return Ids.index(e);
    }

    /** The live id of an index (as found in a pair), or 0 when that index is not alive. */
    public long getAny(int index) {
        if (index <= 0 || index >= nextIndex || state[index] != ALIVE) {
            return 0;
        }
        return Ids.entity(index, gens[index]);
    }

    /** The id of index {@code i} at its current generation (alive or not). */
    public long idOf(int i) {
        return Ids.entity(i, gens[i]);
    }

    /** One past the highest index ever used. */
    public int nextIndex() {
        return nextIndex;
    }

    public byte state(int i) {
        return state[i];
    }

    public int generation(int i) {
        return gens[i];
    }

    /** The entity's own name, or null for an anonymous entity. */
    public String name(int i) {
        return names[i];
    }

    public void setName(int i, String name) {
        names[i] = name;
    }

    /** The id of the table holding entity index {@code i}. */
    public int table(int i) {
        return tableOf[i];
    }

    /** The entity's row in its table. */
    public int row(int i) {
        return rowOf[i];
    }

    public void setRow(int i, int row) {
        rowOf[i] = row;
    }

    /** Records where entity index {@code i} lives. */
    public void place(int i, int table, int row) {
        tableOf[i] = table;
        rowOf[i] = row;
    }

    /** The dead indices waiting for reuse, most recent last. Do not modify. */
    public IntArrayList freeList() {
        return free;
    }

    /**
     * Takes an index for a new entity: a recycled one if any, else the next unused one. The caller
     * makes it alive with {@link #revive}.
     *
     * @throws IdException when the index space is exhausted
     */
    public int allocate() {
        if (!free.isEmpty()) {
            return free.popInt();
        }
        if (nextIndex == Integer.MAX_VALUE) {
            throw new IdException("entity index space exhausted");
        }
        int idx = nextIndex++;
        ensureCapacity(nextIndex);
        return idx;
    }

    /** Marks index {@code i} alive with a name (null: anonymous) and returns its id. */
    public long revive(int i, String name) {
        state[i] = ALIVE;
        names[i] = name;
        return Ids.entity(i, gens[i]);
    }

    /** Marks index {@code i} dead, bumps its generation and puts it on the free list. */
    public void kill(int i) {
        state[i] = DEAD;
        gens[i] = (gens[i] + 1) & Ids.MAX_GENERATION;
        names[i] = null;
        tableOf[i] = 0;
        rowOf[i] = -1;
        free.add(i);
    }

    /** Number of alive entities at index {@code from} and above. */
    public int countAlive(int from) {
        int n = 0;
        for (int i = from; i < nextIndex; i++) {
            if (state[i] == ALIVE) {
                n++;
            }
        }
        return n;
    }

    // ------------------------------------------------------------------ loading

    /** Sets the index range and free list read from a committed state. */
    public void restore(int nextIndex, IntArrayList free) {
        this.nextIndex = nextIndex;
        this.free = free;
        ensureCapacity(nextIndex);
    }

    /** Sets one index's persisted state (loading); its table and row come later. */
    public void restoreEntry(int i, byte st, int generation, String name) {
        state[i] = st;
        gens[i] = generation;
        names[i] = name;
    }

    /**
     * Rolls indices {@code [from, to)} back to never used (a failed transaction's new entities,
     * before the committed entries are read again). Indices past the array are ignored.
     */
    public void resetRange(int from, int to) {
        for (int i = from; i < Math.min(to, gens.length); i++) {
            state[i] = FREE_NEVER;
            gens[i] = 0;
            names[i] = null;
            tableOf[i] = 0;
            rowOf[i] = 0;
        }
    }

    /** Reserves the builtin index range of a new world. */
    public void reserve(int nextIndex) {
        ensureCapacity(nextIndex);
        this.nextIndex = nextIndex;
    }

    private void ensureCapacity(int n) {
        if (n <= gens.length) {
            return;
        }
        int cap = Math.max(n, Math.max(1024, gens.length * 2));
        gens = Arrays.copyOf(gens, cap);
        state = Arrays.copyOf(state, cap);
        tableOf = Arrays.copyOf(tableOf, cap);
        rowOf = Arrays.copyOf(rowOf, cap);
        names = Arrays.copyOf(names, cap);
    }
}
