package dev.quiver.snapshots.export;

import dev.quiver.index.Ids;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.table.Column;
import dev.quiver.storage.Schema;
import dev.quiver.storage.table.Table;
import dev.quiver.storage.World;

import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import it.unimi.dsi.fastutil.ints.IntSet;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The columns of the two exported tables, in the GraphFrames convention, planned from the table
 * types alone (no row is read).
 *
 * <p>Vertex table: {@code id} (INT64, the 64-bit entity id), {@code name} (the entity's own name,
 * empty for an anonymous entity), {@code path} (its {@code .}-joined path, {@code #index} when
 * anonymous), then one column per component field, named {@code Component.field}, for every
 * component some table holds, ordered by component path then field order. Tags are not exported.
 *
 * <p>Edge table: {@code src} and {@code dst} (INT64 entity ids), {@code relationship} (the
 * relationship's path), then one column per field of the data that pairs carry, named
 * {@code Owner.field} where the owner is the entity the pair takes its type from (the
 * relationship if it has a schema, else the target; {@link World#schema}), ordered by owner path.
 *
 * <p>Builtin entities (ChildOf, IsA, the traits: indices below {@link Builtin#FIRST_USER_INDEX})
 * are not vertices, so a pair whose target is a builtin ({@code (OnDelete, Remove)}) is not an
 * edge; builtin relationships with user targets ({@code (ChildOf, parent)}, {@code (IsA, base)})
 * are.
 */
final class Layout {
    /** Edge relationships to export: entity indices, or null for every relationship. */
    private final IntSet relationships;
    final List<ExportColumn> vertexColumns = new ArrayList<>();
    final List<ExportColumn> edgeColumns = new ArrayList<>();
    /** Component (or pair-data owner) id to the index of its first field's column. */
    private final Long2IntOpenHashMap vertexBase = new Long2IntOpenHashMap();
    private final Long2IntOpenHashMap edgeBase = new Long2IntOpenHashMap();

    static final int ID = 0, NAME = 1, PATH = 2;
    static final int SRC = 0, DST = 1, RELATIONSHIP = 2;

    private Layout(IntSet relationships) {
        this.relationships = relationships;
        vertexBase.defaultReturnValue(-1);
        edgeBase.defaultReturnValue(-1);
    }

    /**
     * Plans the columns of a world's export.
     *
     * @param relationships relationship paths to export as edges; empty for all
     * @throws ExportException for an unknown relationship, or two columns with one name
     */
    static Layout plan(World world, List<String> relationships) {
        IntSet rels = null;
        if (!relationships.isEmpty()) {
            rels = new IntOpenHashSet();
            for (String r : relationships) {
                long e = world.lookup(r);
                if (e == 0 || Ids.isPair(e) || Ids.isWildcard(e)) {
                    throw new ExportException("unknown relationship '" + r + "'");
                }
                rels.add(Ids.index(e));
            }
        }
        Layout l = new Layout(rels);
        Map<String, long[]> components = new TreeMap<>();
        Map<String, long[]> pairOwners = new TreeMap<>();
        for (Table t : world.tableAccess().allTables()) {
            for (Column c : t.columns()) {
                long id = c.id();
                if (!Ids.isPair(id)) {
                    if (world.isAlive(id)) {
                        components.putIfAbsent(world.path(id), new long[] {id});
                    }
                } else if (l.isEdge(world, id)) {
                    long owner = owner(world, id);
                    if (owner != 0) {
                        pairOwners.putIfAbsent(world.path(owner), new long[] {owner});
                    }
                }
            }
        }
        l.vertexColumns.add(new ExportColumn("id", ExportColumn.Kind.INT64, true));
        l.vertexColumns.add(new ExportColumn("name", ExportColumn.Kind.STRING, false));
        l.vertexColumns.add(new ExportColumn("path", ExportColumn.Kind.STRING, true));
        addFields(world, components, l.vertexColumns, l.vertexBase);
        l.edgeColumns.add(new ExportColumn("src", ExportColumn.Kind.INT64, true));
        l.edgeColumns.add(new ExportColumn("dst", ExportColumn.Kind.INT64, true));
        l.edgeColumns.add(new ExportColumn("relationship", ExportColumn.Kind.STRING, true));
        addFields(world, pairOwners, l.edgeColumns, l.edgeBase);
        checkUnique(l.vertexColumns, "vertex");
        checkUnique(l.edgeColumns, "edge");
        return l;
    }

    private static void addFields(World world, Map<String, long[]> owners, List<ExportColumn> out, Long2IntOpenHashMap base) {
        for (Map.Entry<String, long[]> e : owners.entrySet()) {
            long id = e.getValue()[0];
            Schema s = world.schema(id);
            base.put(id, out.size());
            for (Schema.Field f : s.fields()) {
                out.add(new ExportColumn(e.getKey() + "." + f.name(), ExportColumn.Kind.of(f.type()), false));
            }
        }
    }

    private static void checkUnique(List<ExportColumn> columns, String table) {
        Set<String> seen = new HashSet<>();
        for (ExportColumn c : columns) {
            if (!seen.add(c.name())) {
                throw new ExportException("two " + table + " columns would be named '" + c.name() + "'");
            }
        }
    }

    /** The entity a data-carrying pair takes its schema from, or 0 when neither has one. */
    private static long owner(World world, long pair) {
        long rel = world.entityOfIndex(Ids.first(pair));
        if (rel != 0 && world.schema(rel) != null) {
            return rel;
        }
        long target = world.entityOfIndex(Ids.second(pair));
        return target != 0 && world.schema(target) != null ? target : 0;
    }

    /**
     * True when a pair id of a table type is an exported edge kind: its relationship is selected,
     * not Transient and no toggle companion (a disabled pair), and its target is a live user entity.
     */
    boolean isEdge(World world, long pair) {
        if (relationships != null && !relationships.contains(Ids.first(pair))) {
            return false;
        }
        long target = world.entityOfIndex(Ids.second(pair));
        if (target == 0 || Builtin.isBuiltin(target)) {
            return false;
        }
        // pairs of a Transient relationship (Tecs transient) are left out of exports as of snapshots
        long rel = world.entityOfIndex(Ids.first(pair));
        // a disabled pair (R~, T) of a toggle companion is left out, as queries leave it out
        return rel != 0 && !world.owns(rel, Builtin.TRANSIENT) && !Ids.isPair(world.toggling().disabledId(pair));
    }

    /** Column index of the first field of a component's vertex columns, or -1. */
    int vertexBase(long component) {
        return vertexBase.get(component);
    }

    /** Column index of the first field of a data-carrying pair's edge columns, or -1. */
    int edgeBase(World world, long pair) {
        long owner = owner(world, pair);
        return owner == 0 ? -1 : edgeBase.get(owner);
    }

    /** The vertex column names, in order (for tests and messages). */
    List<String> vertexNames() {
        List<String> n = new ArrayList<>();
        for (ExportColumn c : vertexColumns) {
            n.add(c.name());
        }
        return Collections.unmodifiableList(n);
    }
}
