package dev.quiver.storage;

import dev.quiver.index.ReverseIndex;
import dev.quiver.storage.check.Checker;
import dev.quiver.storage.entity.EntityIndex;
import dev.quiver.storage.entity.EntityNames;
import dev.quiver.storage.format.WorldFormat;
import dev.quiver.storage.format.WorldParts;
import dev.quiver.storage.rules.Cleanup;
import dev.quiver.storage.rules.FieldReads;
import dev.quiver.storage.rules.Hierarchy;
import dev.quiver.storage.rules.Inheritance;
import dev.quiver.storage.rules.Paths;
import dev.quiver.storage.rules.Prefabs;
import dev.quiver.storage.rules.Scope;
import dev.quiver.storage.rules.SparsePairs;
import dev.quiver.storage.rules.Toggles;
import dev.quiver.storage.rules.TraitRules;
import dev.quiver.storage.rules.Traits;
import dev.quiver.storage.rules.Validators;
import dev.quiver.storage.rules.Values;
import dev.quiver.storage.table.Schemas;
import dev.quiver.storage.table.TableMoves;
import dev.quiver.storage.table.SparseStore;
import dev.quiver.storage.table.TableSet;
import dev.quiver.storage.tx.Changes;

/**
 * The in-memory model of one world: every structure (entity index, name index, tables, reverse
 * index, sparse store, schemas) and every rule over them (traits, values, cleanup, inheritance,
 * prefabs, toggles, validators), wired together once. {@link World} is the facade over it and
 * {@link Persistence} maps it to pages; nothing here knows about files or transactions. Each
 * part is named after its concept (see storage/README.md); the fields are the parts. Not
 * thread-safe.
 */
final class WorldModel {
    final Changes changes = new Changes();
    final EntityIndex entities = new EntityIndex(changes);
    final EntityNames names = new EntityNames(entities, changes);
    final ReverseIndex reverse = new ReverseIndex();
    final SparseStore sparseStore = new SparseStore();
    final Schemas schemas;
    final TableSet tables;
    final Traits traits;
    final TableMoves moves;
    final Paths paths;
    final TraitRules rules;
    final Hierarchy hierarchy;
    final Scope scope;
    final Values values;
    final Validators validators;
    final Cleanup cleanup;
    final Prefabs prefabs;
    final Inheritance inheritance;
    final Toggles toggles;
    final FieldReads fieldReads;
    final SparsePairs sparse;
    final WorldParts parts;
    final WorldFormat format;
    final Checker checker;

    WorldModel() {
        Traits[] traitsRef = new Traits[1];
        schemas = new Schemas(rel -> traitsRef[0].pairIsTag(rel));
        tables = new TableSet(changes, schemas);
        traits = new Traits(entities, names, tables, schemas);
        traitsRef[0] = traits;
        moves = new TableMoves(entities, tables, reverse, names, changes);
        paths = new Paths(entities, names, tables);
        rules = new TraitRules(entities, tables, moves, names, traits, paths);
        hierarchy = new Hierarchy(entities, names, moves, rules, paths, changes);
        scope = new Scope(entities, paths);
        values = new Values(entities, tables, moves, schemas, rules, paths, changes);
        inheritance = new Inheritance(entities, tables);
        inheritance.setEpoch(moves::epoch);
        values.setInheritance(inheritance);
        validators = new Validators(entities, schemas, values, paths);
        prefabs = new Prefabs(entities, tables, moves, names, rules, hierarchy, inheritance, paths, changes);
        prefabs.setValidators(validators);
        rules.setInstantiation(prefabs);
        cleanup = new Cleanup(entities, tables, moves, reverse, names, schemas, traits, paths, changes);
        fieldReads = new FieldReads(values, paths);
        sparse = new SparsePairs(entities, tables, moves, reverse, traits, schemas, paths, names, sparseStore);
        toggles = new Toggles(entities, tables, moves, traits, paths, changes, hierarchy, schemas, sparse);
        rules.setToggles(toggles);
        paths.setSparse(sparse);
        prefabs.setSparse(sparse);
        traits.setSparse(sparse);
        rules.setSparse(sparse);
        cleanup.setSparse(sparse);
        inheritance.setSparse(sparse);
        parts = new WorldParts(entities, names, tables, schemas, reverse, sparseStore);
        format = new WorldFormat(parts);
        checker = new Checker(parts, paths, format, sparse);
    }
}
