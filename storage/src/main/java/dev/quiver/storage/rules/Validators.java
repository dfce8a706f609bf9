package dev.quiver.storage.rules;

import dev.quiver.index.Ids;
import dev.quiver.storage.ValidationException;
import dev.quiver.storage.Validator;
import dev.quiver.storage.entity.EntityIndex;
import dev.quiver.storage.table.Schemas;
import dev.quiver.storage.table.Table;
import dev.quiver.storage.table.TableSet;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@link Validator}s of components and relationships (Tecs {@code init}, FEATURES TEC-06): which
 * one a set runs, and running it on the value the set would store, before anything changes. A
 * plain id runs its component's validator, a pair {@code (R, T)} its relationship's. Also run
 * ({@link #checkStored}) on a value that enters by a data-less add (the schema's defaults, or the
 * value an Inherit id copies from a base) and on the Override values an IsA instantiation copies;
 * and on demand over every value stored ({@link #checkEveryStored}: after registering a validator on a
 * world that already holds values, and on a snapshot restore given validators, FEATURES TEC-24).
 * Not run on values a {@code With} rule adds beside the id added, nor on a disabled
 * {@code (Disabled, C)} copy (its value is C's as the base held it). Held in memory only
 * (validators are code); not thread-safe.
 */
public final class Validators {
    private final Int2ObjectOpenHashMap<Validator> byIndex = new Int2ObjectOpenHashMap<>();
    private final EntityIndex entities;
    private final Schemas schemas;
    private final Values values;
    private final Paths paths;

    public Validators(EntityIndex entities, Schemas schemas, Values values, Paths paths) {
        this.entities = entities;
        this.schemas = schemas;
        this.values = values;
        this.paths = paths;
    }

    /**
     * Registers (or with null removes) the validator of component or relationship {@code id}.
     *
     * @throws ValidationException when {@code id} is a pair or a wildcard, or carries no data: a
     *                             relationship needs a schema of its own (Tecs: init requires
     *                             fields), a component its schema
     */
    public void put(long id, Validator v) {
        if (Ids.isPair(id) || Ids.index(id) == Ids.WILDCARD_INDEX || Ids.index(id) == Ids.ANY_INDEX) {
            throw new ValidationException("a validator belongs to a component or relationship, not to "
                    + paths.idToString(id));
        }
        if (v == null) {
            byIndex.remove(Ids.index(id));
            return;
        }
        if (schemas.get(Ids.index(id)) == null) {
            throw new ValidationException("cannot validate " + paths.idToString(id)
                    + ": it has no fields (declare its schema first; Tecs init requires fields)");
        }
        byIndex.put(Ids.index(id), v);
    }

    /** True when {@code id} (a component or relationship) has a validator. */
    public boolean has(long id) {
        return byIndex.containsKey(Ids.index(id));
    }

    /** True when {@code id} is a data id whose component or relationship has a validator. */
    public boolean applies(long id) {
        return !byIndex.isEmpty() && byIndex.containsKey(Ids.isPair(id) ? Ids.first(id) : Ids.index(id))
                && schemas.of(id) != null;
    }

    /**
     * Runs the validator of {@code id}, if any, on the value entity index {@code idx} owns now, which
     * entered other than by a set: a data-less add's default or inherited value, or a value an IsA
     * instantiation copied from a base (Tecs runs init wherever a value is built). A refined value
     * is written in place.
     *
     * @throws ValidationException when the validator refuses or fails (the transaction then changes
     *                             nothing)
     */
    public void checkStored(int idx, long id) {
        if (!applies(id)) {
            return;
        }
        Map<String, Object> value = values.get(idx, id);
        if (value == null) {
            return; // not a value the entity holds as data (a tag pair, a disabled id)
        }
        Object[] none = values.prepare(id, Map.of());
        Object[] vals = check(idx, id, none);
        if (vals != none) {
            values.set(idx, id, vals);
        }
    }

    /**
     * Runs the validator of {@code id}, if any, on the value setting {@code vals} ({@link
     * Values#prepare}) on entity index {@code idx} would store.
     *
     * @return the field values to set: {@code vals}, or the refined value's
     * @throws ValidationException when the validator refuses or fails
     */
    public Object[] check(int idx, long id, Object[] vals) {
        if (byIndex.isEmpty()) {
            return vals;
        }
        Validator v = byIndex.get(Ids.isPair(id) ? Ids.first(id) : Ids.index(id));
        if (v == null || schemas.of(id) == null) {
            return vals;
        }
        Map<String, Object> value = values.preview(idx, id, vals);
        Map<String, Object> out;
        try {
            out = v.validate(entities.idOf(idx), id, Collections.unmodifiableMap(value));
        } catch (ValidationException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new ValidationException("the validator of " + paths.idToString(id) + " failed setting it on "
                    + paths.elementName(idx) + ": " + e);
        }
        if (out == null || out == value) {
            return vals;
        }
        Map<String, Object> all = new LinkedHashMap<>(value);
        all.putAll(out);
        return values.prepare(id, all);
    }

    /**
     * Runs the validator of component or relationship {@code id} on every value of it the world
     * holds: {@code id}'s own values and, for a relationship, those of every pair {@code (id, T)}
     * that carries data. A refined value is written in place (no row moves); the caller runs this
     * inside a transaction, so that a refusal changes nothing.
     *
     * @return the number of values checked
     * @throws ValidationException when {@code id} has no validator, or the validator refuses or fails
     *                             on a value (the message names the entity)
     */
    public long checkEveryStored(long id, TableSet tables) {
        if (Ids.isPair(id) || !byIndex.containsKey(Ids.index(id))) {
            throw new ValidationException("no validator is registered for " + paths.idToString(id));
        }
        long checked = 0;
        for (long key : new long[] {id, Ids.pairOfIndices(Ids.index(id), Ids.WILDCARD_INDEX)}) {
            for (Table t : tables.matching(key)) {
                for (long held : t.type()) {
                    if (!(held == id || Ids.isPair(held) && Ids.first(held) == Ids.index(id)) || !applies(held)) {
                        continue;
                    }
                    for (int r = 0; r < t.count(); r++) {
                        int idx = Ids.index(t.entity(r));
                        if (values.get(idx, held) != null) {
                            checkStored(idx, held);
                            checked++;
                        }
                    }
                }
            }
        }
        return checked;
    }
}
