package dev.quiver.query.cache;

import dev.quiver.storage.World;
import dev.quiver.storage.table.Table;
import dev.quiver.storage.table.TableListener;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToLongFunction;

/**
 * The tables a cached query matched (Flecs v4 query cache, {@code src/query/cache/match.c}), kept
 * up to date as tables appear and disappear (FEATURES.md QK-05) through the world's table events
 * ({@link dev.quiver.storage.TableAccess#onTables}, Flecs' {@code EcsOnTableCreate} / {@code EcsOnTableDelete}): the table
 * list is scanned once, when the cache is made; afterwards a new table is matched once, when it
 * appears, and appended (the cache order), and a table that disappears is taken out. A table's
 * type never changes, so a table once matched stays matched while it exists. Empty tables stay in
 * the cache; iteration skips them (QK-06).
 *
 * <p>With a group key read from the type alone ({@code groupBy}'s relationship target), the
 * tables are also kept filed by group, groups ascending, so that the group order is kept up to
 * date table by table instead of sorted on every evaluation.
 *
 * <p>The listener is registered with the world until {@link #close()}, through a
 * {@link WeakListener}: a cached query that is dropped without being closed is not kept alive by
 * the world, and its registration goes at the next table event after it is collected.
 */
final class TableCache implements TableListener, AutoCloseable {
    private final TableFilter filter;
    private final ToLongFunction<Table> groupOfType;
    private final LinkedHashSet<Table> matched = new LinkedHashSet<>(); // Table has identity equality
    private final TreeMap<Long, LinkedHashSet<Table>> groups = new TreeMap<>();
    private final Map<Table, Long> groupOf = new IdentityHashMap<>();
    private List<Table> view;
    private long matches;
    private long rescans;
    private long events;
    private Runnable release;

    /**
     * Scans the world's tables once and registers for table events.
     *
     * @param groupOfType the group of a table, read from its type only; null when not grouped so
     */
    TableCache(World world, TableFilter filter, ToLongFunction<Table> groupOfType) {
        this.filter = filter;
        this.groupOfType = groupOfType;
        rescans++;
        for (Table t : world.tableAccess().allTables()) {
            created(t);
        }
        events = 0;
        WeakListener weak = new WeakListener(this);
        release = world.tableAccess().onTables(weak);
        weak.release = release;
    }

    /**
     * Forwards table events to a cache held weakly, and unregisters itself once the cache is
     * collected, so that the world's listener list never holds a dropped cached query's tables.
     */
    static final class WeakListener implements TableListener {
        private final java.lang.ref.WeakReference<TableCache> cache;
        private Runnable release;

        WeakListener(TableCache cache) {
            this.cache = new java.lang.ref.WeakReference<>(cache);
        }

        @Override
        public void created(Table t) {
            TableCache c = cache.get();
            if (c != null) {
                c.created(t);
            } else {
                gone();
            }
        }

        @Override
        public void deleted(Table t) {
            TableCache c = cache.get();
            if (c != null) {
                c.deleted(t);
            } else {
                gone();
            }
        }

        private void gone() {
            if (release != null) {
                release.run();
                release = null;
            }
        }
    }

    @Override
    public void created(Table t) {
        events++;
        matches++;
        if (filter.matches(t) && matched.add(t)) {
            view = null;
            if (groupOfType != null) {
                long g = groupOfType.applyAsLong(t);
                groupOf.put(t, g);
                groups.computeIfAbsent(g, k -> new LinkedHashSet<>()).add(t);
            }
        }
    }

    @Override
    public void deleted(Table t) {
        events++;
        if (matched.remove(t)) {
            view = null;
            Long g = groupOf.remove(t);
            if (g != null) {
                LinkedHashSet<Table> in = groups.get(g);
                in.remove(t);
                if (in.isEmpty()) {
                    groups.remove(g);
                }
            }
        }
    }

    /**
     * The matched tables in cache order, or group by group (ascending) when a group key was given.
     * Do not hold across mutations.
     */
    List<Table> tables() {
        if (release == null) {
            throw new IllegalStateException("the cached query was closed");
        }
        if (view == null) {
            List<Table> l = new ArrayList<>(matched.size());
            if (groupOfType != null) {
                for (LinkedHashSet<Table> in : groups.values()) {
                    l.addAll(in);
                }
            } else {
                l.addAll(matched);
            }
            view = Collections.unmodifiableList(l);
        }
        return view;
    }

    /** Number of table matches done since creation (each table is matched once while it lives). */
    long matches() {
        return matches;
    }

    /** Number of scans of the whole table list: one, at creation. */
    long rescans() {
        return rescans;
    }

    /** Number of table events seen since creation: unchanged means the same tables exist. */
    long events() {
        return events;
    }

    /** Unregisters from the world's table events; idempotent. */
    @Override
    public void close() {
        if (release != null) {
            release.run();
            release = null;
        }
    }
}
