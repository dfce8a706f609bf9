package dev.quiver.query.cache;

import dev.quiver.storage.World;
import dev.quiver.storage.table.Table;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * The tables a cached query matched (Flecs v4 query cache, {@code src/query/cache/match.c}), kept
 * up to date as tables appear and disappear (FEATURES.md QK-05). The world's table epoch
 * ({@link World#tableEpoch()}) tells when the set of tables changed; then the tables gone are
 * dropped from the cache and only the tables not seen before are matched, appended in the order
 * they are found (the cache order). A table's type never changes, so a table once matched stays
 * matched while it exists. Empty tables stay in the cache; iteration skips them (QK-06).
 */
final class TableCache {
    private final World world;
    private final TableFilter filter;
    private long epoch = Long.MIN_VALUE;
    private final ArrayList<Table> matched = new ArrayList<>();
    private Set<Table> seen = identitySet();
    private long matches;

    TableCache(World world, TableFilter filter) {
        this.world = world;
        this.filter = filter;
    }

    /** The matched tables in cache order, brought up to date first. Do not hold across mutations. */
    List<Table> tables() {
        refresh();
        return Collections.unmodifiableList(matched);
    }

    /** Number of table matches done since creation (each table is matched once while it lives). */
    long matches() {
        return matches;
    }

    private void refresh() {
        long now = world.tableEpoch();
        if (now == epoch) {
            return;
        }
        List<Table> all = world.allTables();
        Set<Table> alive = identitySet();
        alive.addAll(all);
        matched.removeIf(t -> !alive.contains(t));
        Set<Table> nowSeen = identitySet();
        for (Table t : all) {
            nowSeen.add(t);
            if (!seen.contains(t)) {
                matches++;
                if (filter.matches(t)) {
                    matched.add(t);
                }
            }
        }
        seen = nowSeen;
        epoch = now;
    }

    private static Set<Table> identitySet() {
        return Collections.newSetFromMap(new IdentityHashMap<>());
    }
}
