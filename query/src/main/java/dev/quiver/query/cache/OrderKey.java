package dev.quiver.query.cache;

import dev.quiver.query.QueryRow;
import dev.quiver.storage.Schema;
import dev.quiver.storage.World;
import dev.quiver.storage.table.Column;
import dev.quiver.storage.table.Table;

import java.util.Map;

/**
 * What a cached query sorts its results by (Flecs v4 {@code order_by}, FEATURES.md QK-14): the
 * {@code $this} entity's id ({@code id}), or one member of a component on {@code $this}
 * ({@code Position.x}; a component path may hold dots, the member is after the last one). A value
 * is read from the {@code $this} table's column, or through {@link World#get(long, long)} for an
 * inherited component; an entity without the component sorts first. Numbers compare by value,
 * strings lexicographically, booleans false first; {@code descending} reverses the order. The
 * sort is stable: equal keys keep the evaluation order (QS-48 determinism).
 *
 * @param component the component, 0 for {@code id}
 * @param field the member's index in the component's schema (-1 for {@code id})
 * @param descending largest first
 * @param text the key as written
 */
record OrderKey(long component, int field, boolean descending, String text) {

    /** The key word for ordering by entity id. */
    static final String ID = "id";

    /**
     * Reads {@code id} or {@code Component.member}.
     *
     * @throws QueryOrderingException for an unknown component or member, or a tag
     */
    static OrderKey parse(World world, String key, boolean descending) {
        if (key == null || key.isBlank()) {
            throw new QueryOrderingException("empty order key (expected 'id' or 'Component.member')");
        }
        if (key.equals(ID)) {
            return new OrderKey(0, -1, descending, key);
        }
        int dot = key.lastIndexOf('.');
        if (dot <= 0 || dot == key.length() - 1) {
            throw new QueryOrderingException("order key '" + key + "' is neither 'id' nor 'Component.member'");
        }
        String comp = key.substring(0, dot);
        String member = key.substring(dot + 1);
        long c = world.lookup(comp);
        if (c == 0) {
            throw new QueryOrderingException("unknown component '" + comp + "' in order key '" + key + "'");
        }
        Schema s = world.schema(c);
        if (s == null) {
            throw new QueryOrderingException("'" + comp + "' in order key '" + key + "' has no members (a tag)");
        }
        int f = s.indexOf(member);
        if (f < 0) {
            throw new QueryOrderingException("component '" + comp + "' has no member '" + member + "' (members: "
                + s + ") in order key '" + key + "'");
        }
        return new OrderKey(c, f, descending, key);
    }

    /** The key of a result ({@code null} when {@code $this} lacks the component). */
    Object of(World world, QueryRow r) {
        long e = r.thisEntity();
        if (component == 0) {
            return e;
        }
        if (e == 0 || !world.isAlive(e)) {
            return null;
        }
        Table t = r.thisTable();
        int row = r.thisRow();
        if (t == null || row < 0 || row >= t.count() || t.entity(row) != e) {
            t = world.table(e);
            row = world.row(e);
        }
        Column col = t.column(component);
        if (col != null) {
            return col.value(field, row);
        }
        Map<String, Object> v = world.get(e, component);
        return v == null ? null : v.get(world.schema(component).field(field).name());
    }

    /** Compares two keys in sort order. */
    int compare(Object a, Object b) {
        int c = ascending(a, b);
        return descending ? -c : c;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int ascending(Object a, Object b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : -1) : 1;
        }
        if (a instanceof Double || a instanceof Float || b instanceof Double || b instanceof Float) {
            return Double.compare(((Number) a).doubleValue(), ((Number) b).doubleValue());
        }
        if (a instanceof Number && b instanceof Number) {
            return Long.compare(((Number) a).longValue(), ((Number) b).longValue());
        }
        if (a.getClass() == b.getClass() && a instanceof Comparable) {
            return ((Comparable) a).compareTo(b);
        }
        return a.toString().compareTo(b.toString());
    }
}
