package dev.quiver.storage.rules;

import dev.quiver.index.Ids;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.ConstraintException;
import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;
import dev.quiver.storage.SchemaConflictException;
import dev.quiver.storage.ValueException;
import dev.quiver.storage.entity.EntityIndex;
import dev.quiver.storage.table.Column;
import dev.quiver.storage.table.Schemas;
import dev.quiver.storage.table.Table;
import dev.quiver.storage.table.TableMoves;
import dev.quiver.storage.table.TableSet;
import dev.quiver.storage.tx.Changes;

import java.util.Arrays;
import java.util.Map;

/**
 * Components and their values (Flecs v4 components, with the field types of Flecs meta):
 * declaring a component's schema, setting values (adding the id first) and reading them. Values
 * come as a {@code Map} of field names (missing fields keep their value), a Java record, or an
 * {@code Object[]} in field order. Not thread-safe; mutations run inside a transaction.
 */
public final class Values {
    private final EntityIndex entities;
    private final TableSet tables;
    private final TableMoves moves;
    private final Schemas schemas;
    private final TraitRules rules;
    private final Paths paths;
    private final Changes changes;
    private Inheritance inheritance;

    private static final Object NO_VALUE = new Object();

    public Values(EntityIndex entities, TableSet tables, TableMoves moves, Schemas schemas, TraitRules rules,
                  Paths paths, Changes changes) {
        this.entities = entities;
        this.tables = tables;
        this.moves = moves;
        this.schemas = schemas;
        this.rules = rules;
        this.paths = paths;
        this.changes = changes;
    }

    /** Sets the inheritance reader {@link #get} resolves inherited values with (once, while the world is wired). */
    public void setInheritance(Inheritance inheritance) {
        this.inheritance = inheritance;
    }

    /**
     * Gives component entity {@code c} a schema and the Component tag. Re-declaring with the same
     * schema changes nothing.
     *
     * @throws ConstraintException when it already has another schema, or is already in use as an
     *                             id (its tables would change layout)
     */
    public void declare(long c, Schema schema) {
        int ci = Ids.index(c);
        Schema old = schemas.get(ci);
        if (old != null) {
            if (!old.equals(schema)) {
                throw new SchemaConflictException("component " + paths.path(ci) + " already has schema " + old);
            }
            return;
        }
        if (tables.records().contains(c) || tables.records().contains(Ids.pairOfIndices(ci, Ids.WILDCARD_INDEX))
                || tables.records().contains(Ids.pairOfIndices(Ids.WILDCARD_INDEX, ci))) {
            throw new SchemaConflictException("cannot give " + paths.path(ci) + " a schema: it is already in use as an id");
        }
        schemas.put(ci, schema);
        changes.schema(ci);
        rules.add(ci, Builtin.COMPONENT);
    }

    /**
     * Checks and converts a value for {@code id} before a transaction starts.
     *
     * @return the field values in field order ({@code NO_VALUE} where a map leaves a field as it is)
     * @throws ValueException when the id is a tag or the value does not fit the schema
     */
    public Object[] prepare(long id, Object value) {
        Schema s = schemas.of(id);
        if (s == null) {
            throw new ValueException(paths.idToString(id) + " is a tag: it carries no value");
        }
        return toFieldValues(s, value, () -> paths.idToString(id)); // the label only for an error
    }

    /**
     * The whole value setting prepared {@code vals} on entity index {@code idx} would store, as an
     * ordered field map: each field set, the others as they are (the entity's value, or the
     * inherited one an add copies), or for a new id its schema's defaults ({@link Validators}).
     */
    public Map<String, Object> preview(int idx, long id, Object[] vals) {
        Schema s = schemas.of(id);
        Map<String, Object> cur = get(idx, id);
        Map<String, Object> out = new java.util.LinkedHashMap<>(cur != null ? cur : s.initial());
        for (int f = 0; f < s.size(); f++) {
            if (vals[f] != NO_VALUE) {
                FieldType t = s.field(f).type();
                out.put(s.field(f).name(), t == FieldType.STRING ? vals[f] : t.fromRaw((Long) vals[f]));
            }
        }
        return out;
    }

    /** Sets prepared field values of {@code id} on entity index {@code idx}, adding the id first. */
    public void set(int idx, long id, Object[] vals) {
        rules.add(idx, id);
        Schema s = schemas.of(id);
        Table t = moves.tableOf(idx);
        Column c = t.column(id);
        int row = entities.row(idx);
        for (int f = 0; f < s.size(); f++) {
            if (vals[f] == NO_VALUE) {
                continue;
            }
            if (s.field(f).type() == FieldType.STRING) {
                c.setString(f, row, (String) vals[f]);
            } else {
                c.setWord(f, row, (Long) vals[f]);
            }
        }
        changes.row(t.id(), row);
    }

    /**
     * The value of a data id on entity index {@code idx} as a read-only ordered field map, or null when it
     * neither owns it nor inherits it (an Inherit id of an IsA base, nearest owner first:
     * {@link Inheritance#owner}). An inherited value is handed out as one shared snapshot while
     * the base's column is unchanged ({@link #inheritedSlot}): that path allocates nothing.
     */
    public Map<String, Object> get(int idx, long id) {
        int s = inheritedSlot(idx, id);
        if (s >= 0) {
            Resolutions r = inheritance.resolved;
            Column c = r.column[s];
            long version = c.version();
            if (r.version[s] != version) {
                r.map[s] = rowMap(c, r.row[s]);
                r.version[s] = version;
            }
            return r.map[s];
        }
        int owner = inheritance == null ? idx : inheritance.owner(idx, id);
        if (owner == 0) {
            return null;
        }
        Column c = moves.tableOf(owner).column(id);
        if (c == null) {
            return null;
        }
        int row = entities.row(owner);
        if (owner == idx) {
            return rowMap(c, row);
        }
        Map<String, Object> m = rowMap(c, row);
        s = remember(idx, id, c, row);
        if (s >= 0) {
            inheritance.resolved.map[s] = m;
            inheritance.resolved.version[s] = c.version();
        }
        return m;
    }

    /**
     * The slot of the inherited-id resolutions ({@link Resolutions}, shared with
     * {@link Inheritance#owner}) that gives where entity index {@code idx} inherits data id
     * {@code id} from (its column recorded), or -1 when none is current.
     */
    private int inheritedSlot(int idx, long id) {
        if (inheritance == null) {
            return -1;
        }
        int s = inheritance.resolvedSlot(moves.tableOf(idx), id);
        return s >= 0 && inheritance.resolved.column[s] != null ? s : -1;
    }

    /**
     * Records, in the resolution {@link Inheritance#owner} just made for entity index {@code idx}
     * and {@code id}, that the value lies in row {@code row} of column {@code c}; the slot, or -1
     * when nothing is cached.
     */
    private int remember(int idx, long id, Column c, int row) {
        int s = inheritance.resolvedSlot(moves.tableOf(idx), id);
        if (s >= 0) {
            Resolutions r = inheritance.resolved;
            r.column[s] = c;
            r.row[s] = row;
            r.version[s] = -1;
            r.map[s] = null;
        }
        return s;
    }

    /** The value in {@code row} of column {@code c} as a read-only ordered field map ({@link ValueMap}). */
    private static Map<String, Object> rowMap(Column c, int row) {
        Schema s = c.schema();
        Object[] vals = new Object[s.size()];
        for (int f = 0; f < vals.length; f++) {
            vals[f] = c.value(f, row);
        }
        return new ValueMap(s, vals);
    }

    /**
     * The column and row holding the value of data id {@code id} for entity index {@code idx}
     * (owned, or inherited from the nearest IsA base), as {@code column} and the returned row;
     * -1 when there is none. Allocates nothing.
     */
    public int locate(int idx, long id, Column[] column) {
        int s = inheritedSlot(idx, id);
        if (s >= 0) {
            column[0] = inheritance.resolved.column[s];
            return inheritance.resolved.row[s];
        }
        int owner = inheritance == null ? idx : inheritance.owner(idx, id);
        if (owner == 0) {
            return -1;
        }
        Column c = moves.tableOf(owner).column(id);
        if (c == null) {
            return -1;
        }
        column[0] = c;
        int row = entities.row(owner);
        if (owner != idx) {
            remember(idx, id, c, row);
        }
        return row;
    }

    /**
     * Builds a record from a field map (null gives null).
     *
     * @throws ValueException when the record cannot be built from the fields
     */
    public static <T extends Record> T toRecord(Map<String, Object> m, Class<T> type) {
        if (m == null) {
            return null;
        }
        RecordShape shape = RecordShape.of(type);
        Object[] args = new Object[shape.names.length];
        for (int i = 0; i < args.length; i++) {
            args[i] = m.get(shape.names[i]);
        }
        try {
            return type.cast(shape.build(args));
        } catch (ReflectiveOperationException | RuntimeException ex) {
            throw new ValueException("cannot build " + type.getName() + " from " + m + ": " + ex);
        }
    }

    private static Object[] toFieldValues(Schema s, Object value, java.util.function.Supplier<String> what) {
        Object[] out = new Object[s.size()];
        Arrays.fill(out, NO_VALUE);
        if (value instanceof Map) {
            for (var en : ((Map<?, ?>) value).entrySet()) {
                String k = String.valueOf(en.getKey());
                int f = s.indexOf(k);
                if (f < 0) {
                    throw new ValueException(what.get() + " has no field '" + k + "' (fields: " + s + ")");
                }
                out[f] = convert(s.field(f), en.getValue());
            }
        } else if (value instanceof Record) {
            RecordShape shape = RecordShape.of(value.getClass());
            for (int i = 0; i < shape.names.length; i++) {
                int f = s.indexOf(shape.names[i]);
                if (f < 0) {
                    throw new ValueException(what.get() + " has no field '" + shape.names[i] + "' (fields: " + s + ")");
                }
                out[f] = convert(s.field(f), shape.get(value, i));
            }
        } else if (value instanceof Object[]) {
            Object[] arr = (Object[]) value;
            if (arr.length > s.size()) {
                throw new ValueException(what.get() + " has " + s.size() + " fields, got " + arr.length + " values");
            }
            for (int f = 0; f < arr.length; f++) {
                out[f] = convert(s.field(f), arr[f]);
            }
        } else {
            throw new ValueException(what.get() + " needs an object value, got " + FieldType.describe(value));
        }
        for (int f = 0; f < out.length; f++) {
            if (out[f] instanceof Long && s.range(f) != null) {
                s.checkRaw(f, (Long) out[f], what.get()); // the declared range (Schema.Range)
            }
        }
        return out;
    }

    private static Object convert(Schema.Field f, Object v) {
        if (f.type() == FieldType.STRING) {
            if (!(v instanceof String)) {
                throw new ValueException("field '" + f.name() + "' is a string, got " + FieldType.describe(v));
            }
            return v;
        }
        return f.type().toRaw(f.name(), v);
    }
}
