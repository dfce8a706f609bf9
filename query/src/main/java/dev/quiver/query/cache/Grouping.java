package dev.quiver.query.cache;

import dev.quiver.index.Ids;
import dev.quiver.storage.World;
import dev.quiver.storage.table.Table;
import it.unimi.dsi.fastutil.ints.IntArrayList;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * How a cached query groups its tables (Flecs v4 {@code group_by}, FEATURES.md QK-17, QK-19):
 * <ul>
 *   <li>{@link Kind#TARGET}: the group of a table is the target of its first {@code (R, *)} pair,
 *       0 when it has none (Flecs' default group_by callback); groups in ascending id order.</li>
 *   <li>{@link Kind#DEPTH} ({@code cascade}, {@code cascade|desc}, QS-44, HIE-08): the group is
 *       the depth of the table's entities along R (0 for an entity without an R target, else one
 *       more than the deepest of its targets), parents first, or deepest first for
 *       {@code desc}.</li>
 * </ul>
 * A table's type fixes its targets, but a target's own depth changes when it moves, so depths are
 * worked out afresh for each evaluation ({@link Keys}). When R is stored sparse (FEATURES TRT-16:
 * a sparse ChildOf, or any sparse relationship), a table holding its marker has rows of different
 * targets: their groups, targets and depths alike, are worked out row by row.
 *
 * @param kind what the group is
 * @param relationship R
 * @param descending larger groups first (only {@code cascade|desc})
 * @param text how the grouping was written, for messages and {@link CachedQuery#toString()}
 */
record Grouping(Kind kind, long relationship, boolean descending, String text) {

    /** What a group key is. */
    enum Kind { TARGET, DEPTH }

    /** Group keys for one evaluation, memoized per table. */
    Keys keys(World world) {
        return new Keys(world);
    }

    /** Compares two group keys in iteration order. */
    int compare(long a, long b) {
        return descending ? Long.compare(b, a) : Long.compare(a, b);
    }

    /** The group keys of tables during one evaluation. */
    final class Keys {
        private final World world;
        /** Group keys by table. */
        private final Map<Table, Long> tableMemo = new IdentityHashMap<>();
        /** Depths by node: a table (identity: Table keeps Object's equals) or an entity id of a sparse row. */
        private final Map<Object, Long> memo = new HashMap<>();

        private Keys(World world) {
            this.world = world;
        }

        /**
         * True when the group differs by row in {@code t}: R is stored sparse (FEATURES TRT-16) and
         * the table holds its marker; {@link #of(Table, int)} then gives each row's group.
         */
        boolean perRow(Table t) {
            return java.util.Arrays.binarySearch(t.type(), dev.quiver.storage.table.Types.marker(Ids.index(relationship))) >= 0;
        }

        /**
         * The group of the entity at {@code row} of {@code t}: the table's, or for a table holding
         * R's sparse marker the target of the entity's first (R, *) pair (group by target) or the
         * entity's own depth along R (cascade), worked out row by row.
         */
        long of(Table t, int row) {
            if (!perRow(t)) {
                return of(t);
            }
            if (kind == Kind.DEPTH) {
                return depth(t.entity(row));
            }
            long[] targets = world.targets(t.entity(row), relationship);
            return targets.length == 0 ? 0 : targets[0];
        }

        /** The group of a table (for a table holding R's sparse marker: its first row's, {@link #of(Table, int)}). */
        long of(Table t) {
            Long k = tableMemo.get(t);
            if (k != null) {
                return k;
            }
            if (perRow(t)) {
                return t.count() == 0 ? 0 : of(t, 0);
            }
            long key = kind == Kind.TARGET ? target(t) : depth(t);
            tableMemo.put(t, key);
            return key;
        }

        /** The group of a table under {@link Kind#TARGET}: read from its type alone. */
        long target(Table t) {
            int r = Ids.index(relationship);
            for (long id : t.type()) {
                if (!Ids.isPair(id)) {
                    break;
                }
                if (Ids.first(id) == r) {
                    return world.entityOfIndex(Ids.second(id));
                }
            }
            return 0;
        }

        /**
         * The node of the depth walk an entity stands for: its table when R's pairs are in the
         * table type (every row has the table's depth), else the entity itself (R stored sparse:
         * each row has its own targets).
         */
        private Object node(long e) {
            Table t = world.tableAccess().table(e);
            return perRow(t) ? (Object) e : t;
        }

        /** Depth along R of a node ({@link #node}), without recursion (hierarchies may be deep); a cycle adds nothing. */
        private long depth(Object start) {
            Long known = memo.get(start);
            if (known != null) {
                return known;
            }
            Deque<Object> stack = new ArrayDeque<>();
            Map<Object, Boolean> onStack = new HashMap<>();
            stack.push(start);
            onStack.put(start, Boolean.TRUE);
            while (!stack.isEmpty()) {
                Object top = stack.peek();
                if (memo.containsKey(top)) {
                    stack.pop();
                    onStack.remove(top);
                    continue;
                }
                boolean pending = false;
                long best = 0;
                IntArrayList up = targets(top);
                for (int ti = 0, n = up.size(); ti < n; ti++) {
                    long target = world.entityOfIndex(up.getInt(ti));
                    if (target == 0 || !world.isAlive(target)) {
                        continue;
                    }
                    Object pt = node(target);
                    Long pd = memo.get(pt);
                    if (pd != null) {
                        best = Math.max(best, pd + 1);
                    } else if (!onStack.containsKey(pt)) {
                        stack.push(pt);
                        onStack.put(pt, Boolean.TRUE);
                        pending = true;
                    } else {
                        best = Math.max(best, 1);
                    }
                }
                if (!pending) {
                    memo.put(top, best);
                    stack.pop();
                    onStack.remove(top);
                }
            }
            return memo.get(start);
        }

        /** The depth of entity {@code e} along R (its table's, or its own when its table holds R's sparse marker). */
        private long depth(long e) {
            return depth(node(e));
        }

        /** The target indices of R of a node: from a table's type, or an entity's sparse targets. */
        private IntArrayList targets(Object n) {
            IntArrayList out = new IntArrayList();
            int r = Ids.index(relationship);
            if (n instanceof Long e) {
                for (long tgt : world.targets(e, relationship)) {
                    out.add(Ids.index(tgt));
                }
                return out;
            }
            for (long id : ((Table) n).type()) {
                if (!Ids.isPair(id)) {
                    break;
                }
                if (Ids.first(id) == r && Ids.second(id) != Ids.WILDCARD_INDEX) {
                    out.add(Ids.second(id));
                }
            }
            return out;
        }
    }
}
