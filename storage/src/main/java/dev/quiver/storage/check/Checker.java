package dev.quiver.storage.check;

import dev.quiver.index.Ids;
import dev.quiver.index.ReverseEntries;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.entity.EntityIndex;
import dev.quiver.storage.format.PageSource;
import dev.quiver.storage.format.WorldFormat;
import dev.quiver.storage.format.WorldParts;
import dev.quiver.storage.rules.Paths;
import dev.quiver.storage.table.Table;
import dev.quiver.storage.table.Types;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;

import java.util.ArrayList;
import java.util.List;

/**
 * The invariant checker behind {@code World.check()} and {@code quiver check} (DESIGN.md contract
 * 3): every alive entity sits in exactly one table row and back (the entity pages' table and row
 * against the rows: since page format 7 an open no longer reads rows to place entities); no type names a dead entity; the
 * component index, reverse index and name index equal what the tables derive; and the persisted
 * pages equal the in-memory state, page for page. Reports at most {@link #MAX} violations.
 */
public final class Checker {
    public static final int MAX = 100;

    private final WorldParts p;
    private final Paths paths;
    private final WorldFormat format;
    private final dev.quiver.storage.rules.SparsePairs sparse;

    public Checker(WorldParts parts, Paths paths, WorldFormat format, dev.quiver.storage.rules.SparsePairs sparse) {
        this.sparse = sparse;
        this.p = parts;
        this.paths = paths;
        this.format = format;
    }

    /**
     * The violations found (empty: the world is consistent).
     *
     * @param persisted the committed pages to compare with, or null to skip that comparison
     */
    public List<String> check(PageSource persisted) {
        format.readEverything(); // the lazy structures, whole: every page is decoded and verified
        var v = new ArrayList<String>();
        checkRows(v);
        checkComponentIndex(v);
        checkReverseIndex(v);
        checkSparse(v);
        checkNames(v);
        new Companions(p, paths, sparse).check(v); // toggle companions R~ (rules.Toggles)
        if (v.isEmpty() && persisted != null) {
            checkPersisted(persisted, v);
            // the persisted summaries (equal to memory's, above) cover the blocks: one that omits a
            // block's relationship would hide its sources from a lookup that skips the block
            v.addAll(format.statePages().reverseSummaryViolations(MAX));
        }
        return v.size() > MAX ? v.subList(0, MAX) : v;
    }

    private void checkRows(List<String> v) {
        EntityIndex ei = p.entities();
        var seen = new IntOpenHashSet();
        p.tables().forEach(t -> {
            for (long id : t.type()) {
                if (Ids.isPair(id)) {
                    if (ei.getAny(Ids.first(id)) == 0 || ei.getAny(Ids.second(id)) == 0) {
                        v.add("table " + t.id() + " type holds pair " + paths.idToString(id) + " naming a dead entity");
                    } else if (Ids.first(id) == Ids.index(Builtin.DISABLED)) {
                        checkToggled(t, Ids.second(id), v);
                    }
                } else if (!ei.isAlive(id)) {
                    v.add("table " + t.id() + " type holds dead id " + Ids.toHex(id));
                }
            }
            for (int r = 0; r < t.count(); r++) {
                long e = t.entity(r);
                int i = Ids.index(e);
                if (!ei.isAlive(e)) {
                    v.add("table " + t.id() + " row " + r + " holds dead entity " + Ids.toHex(e));
                } else if (ei.table(i) != t.id() || ei.row(i) != r) {
                    v.add("entity " + paths.describe(e) + " indexed at table " + ei.table(i) + " row " + ei.row(i)
                            + " but found in table " + t.id() + " row " + r);
                }
                if (!seen.add(i)) {
                    v.add("entity " + paths.describe(e) + " is in two rows");
                }
            }
        });
        int alive = 0;
        for (int i = 1; i < ei.nextIndex(); i++) {
            if (ei.state(i) == EntityIndex.ALIVE) {
                alive++;
                if (!seen.contains(i)) {
                    v.add("alive entity #" + i + " is in no table");
                }
            }
        }
        if (alive != ei.aliveCount()) {
            v.add("the entity index counts " + ei.aliveCount() + " alive entities, its entries hold " + alive);
        }
    }

    /** A disabled id C (the pair (Disabled, C)): C has CanToggle, and the type does not hold C as well. */
    private void checkToggled(Table t, int c, List<String> v) {
        EntityIndex ei = p.entities();
        if (!p.tables().get(ei.table(c)).hasId(Builtin.CAN_TOGGLE)) {
            v.add("table " + t.id() + " holds " + paths.elementName(c) + " disabled, which lacks CanToggle");
        }
        if (t.hasId(ei.getAny(c))) {
            v.add("table " + t.id() + " holds " + paths.elementName(c) + " both enabled and disabled");
        }
    }

    /**
     * The warnings: things a consistent world may hold that are likely mistakes. Today the cycles
     * in user relationships ({@link Cycles}); at most {@link #MAX}.
     */
    public List<String> warnings() {
        return new Cycles(p, paths, sparse).warnings(MAX);
    }

    private void checkComponentIndex(List<String> v) {
        var expect = new Long2ObjectOpenHashMap<IntOpenHashSet>();
        p.tables().forEach(t -> {
            for (long k : Types.recordKeys(t.type())) {
                expect.computeIfAbsent(k, x -> new IntOpenHashSet()).add(t.id());
            }
        });
        var records = p.tables().records();
        for (var en : expect.long2ObjectEntrySet()) {
            var have = new IntOpenHashSet();
            List<Table> l = records.get(en.getLongKey());
            int prev = -1;
            for (Table t : l) {
                have.add(t.id());
                if (t.id() <= prev) {
                    v.add("component index for " + paths.idToString(en.getLongKey()) + " lists table " + t.id()
                            + " after table " + prev + " (records are in ascending table id)");
                }
                prev = t.id();
            }
            if (!have.equals(en.getValue()) || l.size() != have.size()) {
                v.add("component index for " + paths.idToString(en.getLongKey()) + " lists tables " + have
                        + ", the tables say " + en.getValue());
            }
        }
        for (long k : records.keys()) {
            if (!expect.containsKey(k)) {
                v.add("component index has a record for " + paths.idToString(k) + " that no table holds");
            }
        }
    }

    /**
     * Sparse pairs (FEATURES TRT-16): every holder of a marker {@code (R, *)} has targets of R in
     * the forward store, every source in the store holds the marker, no dense pair of a sparse
     * relationship is left in a type (the reverse index is compared with both in
     * {@link #checkReverseIndex}).
     */
    private void checkSparse(List<String> v) {
        p.tables().forEach(t -> {
            for (long x : t.type()) {
                if (!Ids.isPair(x)) {
                    break;
                }
                int rel = Ids.first(x);
                if (Types.isMarker(x)) {
                    for (int r = 0; r < t.count(); r++) {
                        if (sparse.store().count(rel, Ids.index(t.entity(r))) == 0) {
                            v.add(paths.elementName(Ids.index(t.entity(r))) + " holds the sparse marker of "
                                    + paths.elementName(rel) + " without a target");
                        }
                    }
                } else if (t.count() > 0 && sparse.isSparse(rel)) {
                    v.add("table " + t.id() + " holds " + paths.idToString(x) + " of the sparse relationship "
                            + paths.elementName(rel) + " in its type");
                }
            }
        });
        for (int rel : sparse.store().columns()) { // the count kept since the open, against the sources held
            int[] held = {0, -1}; // sources, the last source (forEach gives a source's targets together)
            sparse.store().forEach(rel, (src, tgt) -> {
                if (src != held[1]) {
                    held[0]++;
                    held[1] = src;
                }
            });
            if (held[0] != sparse.store().holders(rel)) {
                v.add("sparse relationship " + paths.elementName(rel) + " counts " + sparse.store().holders(rel)
                        + " sources holding a pair, " + held[0] + " hold one");
            }
        }
        for (int rel : sparse.store().relationships()) {
            sparse.store().forEach(rel, (src, tgt) -> {
                EntityIndex ei = p.entities();
                if (ei.state(src) != EntityIndex.ALIVE
                        || java.util.Arrays.binarySearch(p.tables().get(ei.table(src)).type(), Types.marker(rel)) < 0) {
                    v.add("sparse pair (" + paths.elementName(rel) + ", " + paths.elementName(tgt) + ") of "
                            + paths.elementName(src) + " has no marker in its table");
                }
            });
        }
    }

    private void checkReverseIndex(List<String> v) {
        var rev = new Int2ObjectOpenHashMap<LongOpenHashSet>();
        p.tables().forEach(t -> {
            for (long x : t.type()) {
                if (Ids.isPair(x) && Types.isMarker(x)) {
                    int rel = Ids.first(x);
                    for (int r = 0; r < t.count(); r++) {
                        int src = Ids.index(t.entity(r));
                        for (int tgt : sparse.store().targets(rel, src)) {
                            rev.computeIfAbsent(tgt, k -> new LongOpenHashSet()).add(((long) rel << 32) | src);
                        }
                    }
                } else if (Ids.isPair(x)) {
                    for (int r = 0; r < t.count(); r++) {
                        rev.computeIfAbsent(Ids.second(x), k -> new LongOpenHashSet())
                                .add(((long) Ids.first(x) << 32) | Ids.index(t.entity(r)));
                    }
                }
            }
        });
        for (var en : rev.int2ObjectEntrySet()) {
            ReverseEntries have = p.reverse().get(en.getIntKey());
            if (have == null || have.size() != en.getValue().size() || !en.getValue().containsAll(have.toList())) {
                v.add("reverse index for target " + paths.elementName(en.getIntKey()) + " has "
                        + (have == null ? 0 : have.size()) + " entries, the tables say " + en.getValue().size());
            }
        }
        for (int k : p.reverse().targets()) {
            if (!rev.containsKey(k)) {
                v.add("reverse index has entries for " + paths.elementName(k) + " that no table holds");
            }
        }
    }

    private void checkNames(List<String> v) {
        EntityIndex ei = p.entities();
        int named = 0;
        for (int i = 1; i < ei.nextIndex(); i++) {
            String name = ei.name(i);
            if (ei.state(i) == EntityIndex.ALIVE && name != null) {
                named++;
                int parent = paths.parentIndex(i);
                if (p.names().child(parent, name) != ei.idOf(i)) {
                    v.add("name index does not map " + name + " under #" + parent + " to #" + i);
                }
            }
        }
        p.names().forEach((parent, e, hash) -> {
            if (!ei.isAlive(e)) {
                v.add("name index points at dead entity " + Ids.toHex(e));
            } else if (hash != dev.quiver.index.NameIndex.mix(ei.nameHash(Ids.index(e)), parent)) {
                v.add("name index files " + paths.describe(e) + " under #" + parent + " with hash " + hash
                        + ", its name's is " + dev.quiver.index.NameIndex.mix(ei.nameHash(Ids.index(e)), parent));
            } else if (paths.parentIndex(Ids.index(e)) != parent) {
                v.add("name index files " + paths.describe(e) + " under #" + parent + ", its parent is #"
                        + paths.parentIndex(Ids.index(e)));
            }
        });
        if (p.names().size() != named) {
            v.add("name index holds " + p.names().size() + " names, entities have " + named);
        }
    }

    private void checkPersisted(PageSource persisted, List<String> v) {
        for (int m = 0; m < WorldFormat.MAP_NAMES.length; m++) {
            final int map = m;
            var keys = new LongOpenHashSet();
            persisted.forEach(m, (k, blob) -> {
                keys.add(k);
                byte[] mine = format.serialize(map, k);
                if (!WorldFormat.samePage(map, k, blob, mine) && v.size() < MAX) {
                    v.add("persisted " + WorldFormat.MAP_NAMES[map] + " page " + k + " differs from the world in memory");
                }
            });
            for (long k : format.statePages().expectedKeys(m)) {
                if (!keys.contains(k) && v.size() < MAX) {
                    v.add("persisted " + WorldFormat.MAP_NAMES[m] + " lacks page " + k);
                }
            }
        }
    }
}
