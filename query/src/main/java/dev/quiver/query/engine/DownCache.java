package dev.quiver.query.engine;

import dev.quiver.storage.World;
import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Backward transitive closures ({@link Closure#down}) kept across query evaluations of one world
 * object: the sources from which a target is reachable over one or more R edges, by (relationship
 * entity index, target entity index). The Debian query {@code (DependsOn, libc6)} walks 49,540
 * sources through cycles for every evaluation; the closure changes only when the world does. With
 * a closure, where its sources lie ({@link SourceRuns}: tables and rows, which move only when the
 * world is written too).
 *
 * <p>Invalidation: every entry belongs to one {@link World#readStamp()} (the write count, which
 * every change call bumps). A cache whose count differs from the world's is emptied before use.
 * While a transaction is open (no stamp) the cache is neither read nor filled. A reopened world is a new world object with its own (empty) cache. Worlds
 * are held weakly. Thread-safe (reads may run on several threads).
 */
final class DownCache {
    /** Entity indices kept at most, over every entry of one world (a closure larger than this is not kept). */
    static final long BUDGET = 8_000_000L;

    private static final Map<World, DownCache> BY_WORLD = Collections.synchronizedMap(new WeakHashMap<>());

    private final Long2ObjectOpenHashMap<int[]> closures = new Long2ObjectOpenHashMap<>();
    private final Long2ObjectOpenHashMap<SourceRuns> runs = new Long2ObjectOpenHashMap<>();
    private long writeCount = -1;
    private long size;

    private DownCache() {}

    /**
     * A view of the world's cache for one evaluation, or null while a transaction is open on it.
     * The view answers only while the world's write count is the one read here.
     */
    static View of(World world) {
        long stamp = world.readStamp();
        if (stamp < 0) {
            return null;
        }
        DownCache c = BY_WORLD.computeIfAbsent(world, w -> new DownCache());
        return new View(c, stamp);
    }

    private static long key(int relationship, int target) {
        return ((long) relationship << 32) | (target & 0xFFFFFFFFL);
    }

    private synchronized int[] get(long count, int relationship, int target) {
        if (count != writeCount) {
            return null;
        }
        return closures.get(key(relationship, target));
    }

    private synchronized void put(long count, int relationship, int target, int[] sources) {
        if (current(count) && size + sources.length + 4 <= BUDGET
            && closures.put(key(relationship, target), sources) == null) {
            size += sources.length + 4;
        }
    }

    private synchronized SourceRuns getRuns(long count, int relationship, int target) {
        return count != writeCount ? null : runs.get(key(relationship, target));
    }

    private synchronized void putRuns(long count, int relationship, int target, SourceRuns r) {
        if (current(count) && size + r.weight() <= BUDGET && runs.put(key(relationship, target), r) == null) {
            size += r.weight();
        }
    }

    /**
     * Makes the cache that of write count {@code count} when that is newer (emptied); false when
     * {@code count} is older: an answer computed before a change another evaluation has already seen.
     */
    private boolean current(long count) {
        if (count != writeCount) {
            if (count < writeCount) {
                return false;
            }
            closures.clear();
            runs.clear();
            size = 0;
            writeCount = count;
        }
        return true;
    }

    /** The cache as one evaluation sees it: entries of the write count it started at. */
    static final class View {
        private final DownCache cache;
        private final long count;

        private View(DownCache cache, long count) {
            this.cache = cache;
            this.count = count;
        }

        /** The kept closure of {@code target} over {@code relationship} (entity indices), or null. Do not modify it. */
        int[] get(int relationship, int target) {
            return cache.get(count, relationship, target);
        }

        /** Keeps a closure (never modified afterwards). */
        void put(int relationship, int target, int[] sources) {
            cache.put(count, relationship, target, sources);
        }

        /** Where the sources of the kept closure of {@code target} lie ({@link SourceRuns}), or null. */
        SourceRuns getRuns(int relationship, int target) {
            return cache.getRuns(count, relationship, target);
        }

        /** Keeps where the sources of {@code target}'s closure lie. */
        void putRuns(int relationship, int target, SourceRuns r) {
            cache.putRuns(count, relationship, target, r);
        }
    }
}
