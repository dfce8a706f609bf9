package dev.quiver.storage.rules;

import dev.quiver.storage.table.Column;
import dev.quiver.storage.table.Table;

import java.util.Map;

/**
 * The one cache of inherited-id resolutions (issue 9: an inherited get in at most 50 ns,
 * allocating nothing; Flecs' {@code get} returns a pointer into the base's storage), shared by
 * {@link Inheritance#owner} and {@link Values#get}: {@link #SLOTS} slots direct-mapped by
 * (table, id). Slot {@code s} says that an entity of table {@code table[s]} that does not own
 * {@code id[s]} gets it from base {@code owner[s]} (0: from none), while the change epoch
 * ({@code TableMoves#epoch}: every move, row removal, pair change, commit and rollback) is
 * {@code epoch[s]}: the answer depends only on the table's IsA pairs and on the bases' tables, which
 * change only with the epoch. For a data id, {@link Values} adds where the value lies: row
 * {@code row[s]} of column {@code column[s]} (null: not recorded yet), and {@code map[s]}, the field
 * map of that row as of column version {@code version[s]} ({@code Column#version}), handed out until
 * the base's value changes (the map is read-only). A table's type never changes, and a data id is
 * never stored sparse, so every entity of the table inherits a data id alike. Not thread-safe.
 */
final class Resolutions {
    static final int SLOTS = 256;
    final Table[] table = new Table[SLOTS];
    final long[] id = new long[SLOTS];
    final long[] epoch = new long[SLOTS];
    final int[] owner = new int[SLOTS];
    final Column[] column = new Column[SLOTS];
    final int[] row = new int[SLOTS];
    final long[] version = new long[SLOTS];
    @SuppressWarnings("unchecked")
    final Map<String, Object>[] map = new Map[SLOTS];

    /** The slot of (table {@code t}, {@code id}). */
    static int slot(Table t, long id) {
        return (int) (((id ^ ((long) t.id() << 24)) * 0x9E3779B97F4A7C15L) >>> 56);
    }

    /** The slot holding (table {@code t}, {@code id}) under epoch {@code now}, or -1 when none is current. */
    int find(Table t, long id, long now) {
        int s = slot(t, id);
        return table[s] == t && this.id[s] == id && epoch[s] == now ? s : -1;
    }

    /** Records that table {@code t} gets {@code id} from base {@code owner} (0: none) under epoch {@code now}, with no column yet; the slot. */
    int put(Table t, long id, long now, int owner) {
        int s = slot(t, id);
        table[s] = t;
        this.id[s] = id;
        epoch[s] = now;
        this.owner[s] = owner;
        column[s] = null;
        row[s] = 0;
        version[s] = -1;
        map[s] = null;
        return s;
    }
}
