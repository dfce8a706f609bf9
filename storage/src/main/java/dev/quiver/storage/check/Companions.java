package dev.quiver.storage.check;

import dev.quiver.index.Ids;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.entity.EntityIndex;
import dev.quiver.storage.format.WorldParts;
import dev.quiver.storage.rules.Paths;
import dev.quiver.storage.rules.SparsePairs;
import dev.quiver.storage.rules.Toggles;
import dev.quiver.storage.rules.Traits;
import dev.quiver.storage.table.Table;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The invariants of toggle companions ({@code rules.Toggles}: a disabled pair {@code (R, T)} held
 * as {@code (R~, T)}): every entity marked {@link Builtin#DISABLED_RELATIONSHIP} is the child of a
 * user relationship R named {@link Traits#COMPANION_NAME}, found by that name, and mirrors R's
 * schema and the ids {@link Toggles#mirrored} lists; while R~ holds pairs, R has CanToggle and is not
 * stored sparse; no type holds a pair both enabled and disabled; and for an Exclusive R a type holds
 * at most one pair of R and R~ together. Read-only.
 */
final class Companions {
    private final WorldParts p;
    private final Paths paths;
    private final SparsePairs sparse;

    Companions(WorldParts parts, Paths paths, SparsePairs sparse) {
        this.p = parts;
        this.paths = paths;
        this.sparse = sparse;
    }

    void check(List<String> v) {
        EntityIndex ei = p.entities();
        var relOf = new Int2IntOpenHashMap(); // companion -> its relationship
        for (Table t : p.tables().matching(Builtin.DISABLED_RELATIONSHIP)) {
            for (int r = 0; r < t.count(); r++) {
                int c = Ids.index(t.entity(r));
                int rel = paths.parentIndex(c);
                if (rel < Builtin.FIRST_USER_INDEX || !ei.isAliveIndex(rel)) {
                    v.add("toggle companion " + paths.elementName(c) + " is not the child of a user relationship");
                    continue;
                }
                if (!Traits.COMPANION_NAME.equals(ei.name(c)) || p.names().child(rel, Traits.COMPANION_NAME) != ei.idOf(c)) {
                    v.add("toggle companion " + paths.elementName(c) + " of " + paths.elementName(rel)
                            + " is not found by the name " + Traits.COMPANION_NAME + " under it");
                }
                relOf.put(c, rel);
                long[] relType = typeOf(rel);
                if (!Arrays.equals(Toggles.mirrored(relType), Toggles.mirrored(t.type()))) {
                    v.add("toggle companion " + paths.elementName(c) + " does not mirror the traits of " + paths.elementName(rel));
                }
                if (!Objects.equals(p.schemas().get(rel), p.schemas().get(c))) {
                    v.add("toggle companion " + paths.elementName(c) + " has another schema than " + paths.elementName(rel));
                }
                if (p.tables().records().contains(Ids.pairOfIndices(c, Ids.WILDCARD_INDEX))) {
                    if (Arrays.binarySearch(relType, Builtin.CAN_TOGGLE) < 0) {
                        v.add(paths.elementName(rel) + " has disabled pairs but lacks CanToggle");
                    }
                    if (sparse != null && sparse.isSparse(rel)) {
                        v.add(paths.elementName(rel) + " has disabled pairs but is stored sparse");
                    }
                }
            }
        }
        if (relOf.isEmpty()) {
            return;
        }
        p.tables().forEach(t -> {
            long[] type = t.type();
            for (long id : type) {
                if (!Ids.isPair(id) || !relOf.containsKey(Ids.first(id))) {
                    continue;
                }
                int rel = relOf.get(Ids.first(id));
                if (t.hasId(Ids.pairOfIndices(rel, Ids.second(id)))) {
                    v.add("table " + t.id() + " holds (" + paths.elementName(rel) + "," + paths.elementName(Ids.second(id))
                            + ") both enabled and disabled");
                }
                if (Arrays.binarySearch(typeOf(rel), Builtin.EXCLUSIVE) >= 0 && count(type, rel, Ids.first(id)) > 1) {
                    v.add("table " + t.id() + " holds more than one pair of Exclusive " + paths.elementName(rel)
                            + ", counting disabled ones");
                }
            }
        });
    }

    private long[] typeOf(int i) {
        return p.tables().get(p.entities().table(i)).type();
    }

    private static int count(long[] type, int rel, int companion) {
        int n = 0;
        for (long id : type) {
            if (Ids.isPair(id) && (Ids.first(id) == rel || Ids.first(id) == companion)) {
                n++;
            }
        }
        return n;
    }
}
