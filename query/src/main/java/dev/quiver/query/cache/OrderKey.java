package dev.quiver.query.cache;

import dev.quiver.index.Ids;
import dev.quiver.query.QueryRow;
import dev.quiver.query.parse.Operator;
import dev.quiver.query.plan.Operand;
import dev.quiver.query.plan.Plan;
import dev.quiver.query.plan.ResolvedTerm;
import dev.quiver.query.plan.Step;
import dev.quiver.storage.Schema;
import dev.quiver.storage.World;
import dev.quiver.storage.table.Column;
import dev.quiver.storage.table.Table;

import java.util.Map;

/**
 * What a cached query sorts its results by (Flecs v4 {@code order_by}, FEATURES.md QK-14): the
 * {@code $this} entity's id ({@code id}), or one member of a component ({@code Position.x}; a
 * component path may hold dots, the member is after the last one).
 *
 * <p>Whose component: like Flecs, which sorts by the data of the field that queries the
 * {@code order_by} component, the value is read from the source of the first field whose term is
 * the plain component {@code Position}, whatever that source is: {@code $this}, a variable
 * ({@code Position($p)}), a fixed entity, the owner found by {@code up} traversal, or the IsA base
 * an inherited value comes from. {@code Position.x($p)} picks the field by its source when several
 * terms query {@code Position} ({@code $this}, {@code $var} or an entity path). When no field
 * queries the component, the value is {@code $this}'s own or inherited one (Quiver allows this;
 * Flecs refuses it). A row whose field is not set (an optional term without a match, another Or
 * alternative) or whose source lacks the component sorts first.
 *
 * <p>Refused ({@link QueryOrderingException}), as Flecs cannot order by them either: a key naming
 * a Not or *From term's field (it never holds a value), a field whose source is {@code _} (no
 * entity to read from), or a source that no field of the component has.
 *
 * <p>Numbers compare by value, strings lexicographically, booleans false first; {@code descending}
 * reverses the order. The sort is stable: equal keys keep the evaluation order (QS-48).
 *
 * @param component the component, 0 for {@code id}
 * @param field the member's index in the component's schema (-1 for {@code id})
 * @param queryField the query field whose source holds the value; -1 for {@code $this}'s own
 * @param descending largest first
 * @param text the key as written
 */
record OrderKey(long component, int field, int queryField, boolean descending, String text) {

    /** The key word for ordering by entity id. */
    static final String ID = "id";

    /**
     * Reads {@code id}, {@code Component.member} or {@code Component.member(source)} against a
     * compiled query.
     *
     * @throws QueryOrderingException for an unknown component, member or source, a tag, or a
     *     field that cannot hold a value (see the class comment)
     */
    static OrderKey parse(World world, Plan plan, String key, boolean descending) {
        if (key == null || key.isBlank()) {
            throw new QueryOrderingException("empty order key (expected 'id' or 'Component.member')");
        }
        if (key.equals(ID)) {
            return new OrderKey(0, -1, -1, descending, key);
        }
        String path = key;
        String source = null;
        if (key.endsWith(")") && key.indexOf('(') > 0) {
            source = key.substring(key.indexOf('(') + 1, key.length() - 1).strip();
            path = key.substring(0, key.indexOf('('));
            if (source.isEmpty()) {
                throw new QueryOrderingException("empty source in order key '" + key + "'");
            }
        }
        int dot = path.lastIndexOf('.');
        if (dot <= 0 || dot == path.length() - 1) {
            throw new QueryOrderingException("order key '" + key + "' is neither 'id' nor 'Component.member'"
                + " nor 'Component.member(source)'");
        }
        String comp = path.substring(0, dot);
        String member = path.substring(dot + 1);
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
        return new OrderKey(c, f, queryField(world, plan, c, source, key), descending, key);
    }

    /** The field whose source holds the value, -1 for $this's own, or a refusal. */
    private static int queryField(World world, Plan plan, long c, String source, String key) {
        for (int fi = 0; fi < plan.fieldCount(); fi++) {
            ResolvedTerm t = termOf(plan, fi);
            if (t == null || t.member() != null || t.second() != null || t.first().kind() != Operand.Kind.CONST
                || t.first().entity() != c) {
                continue;
            }
            if (source != null && !sourceIs(world, plan, t.source(), source)) {
                continue;
            }
            Operator op = t.ast().oper();
            if (op == Operator.NOT || op == Operator.NOT_FROM || op == Operator.AND_FROM || op == Operator.OR_FROM) {
                throw new QueryOrderingException("order key '" + key + "' names field " + fi + " ('" + t.text()
                    + "'), a " + (op == Operator.NOT ? "Not" : "*From") + " term's field, which never holds a value");
            }
            if (t.source().kind() == Operand.Kind.ANY) {
                throw new QueryOrderingException("order key '" + key + "' names field " + fi + " ('" + t.text()
                    + "') whose source is '_': no entity to read the value from");
            }
            return fi;
        }
        if (source != null) {
            throw new QueryOrderingException("no field of the query reads '" + world.path(c) + "' on source '"
                + source + "' (order key '" + key + "')");
        }
        return -1;
    }

    private static boolean sourceIs(World world, Plan plan, Operand src, String text) {
        if (text.startsWith("$")) {
            return src.kind() == Operand.Kind.VAR && plan.slotName(src.slot()).equals(text);
        }
        return src.kind() == Operand.Kind.CONST && src.entity() == world.lookup(text);
    }

    private static ResolvedTerm termOf(Plan plan, int field) {
        for (Step s : plan.steps()) {
            Step found = stepOf(s, field);
            if (found != null) {
                return found.term();
            }
        }
        return null;
    }

    private static Step stepOf(Step s, int field) {
        if (s.field() == field && s.term() != null) {
            return s;
        }
        if (s.field() == field && s.inner() != null && s.inner().term() != null) {
            return s.inner(); // a Not step: its term is the inner one's
        }
        if (s.inner() != null) {
            Step f = stepOf(s.inner(), field);
            if (f != null) {
                return f;
            }
        }
        for (Step a : s.alternatives()) {
            Step f = stepOf(a, field);
            if (f != null) {
                return f;
            }
        }
        return null;
    }

    /** The key of a result ({@code null} when there is no value: see the class comment). */
    Object of(World world, QueryRow r) {
        if (component == 0) {
            return r.thisEntity();
        }
        long e;
        if (queryField >= 0) {
            if (!r.fieldSet(queryField) || r.fieldId(queryField) != component) {
                return null;
            }
            e = r.fieldSource(queryField);
        } else {
            e = r.thisEntity();
        }
        if (e == 0 || e == Ids.WILDCARD || !world.isAlive(e)) {
            return null;
        }
        if (e == r.thisEntity()) {
            Table t = r.thisTable();
            int row = r.thisRow();
            if (t != null && row >= 0 && row < t.count() && t.entity(row) == e) {
                Column col = t.column(component);
                if (col != null) {
                    return col.value(field, row);
                }
            }
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
