package dev.quiver.query;

import dev.quiver.index.Ids;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;
import dev.quiver.storage.World;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * A random world for {@link WholeLanguageModelTest}, built only through the public {@link World}
 * API, and its state read back as plain data (every alive entity, builtins included, with its
 * owned type) for the brute-force evaluator {@link BruteForce}.
 *
 * <p>Vocabulary: plain tags {@code T0..T2}; a taxonomy {@code U0..U3} whose members are IsA
 * subsets of each other (component inheritance), U0 (and U2) sometimes (OnInstantiate, Inherit);
 * {@code C0} (OnInstantiate, Inherit),
 * {@code C1} (Override, the default) and {@code C2} (DontInherit); a Singleton {@code S} on
 * itself; relationships {@code R0..R4} with random traits (Transitive, Reflexive, Exclusive,
 * Symmetric, Traversable) and, mostly, {@code R5} IsA a non-transitive one of them and maybe
 * {@code R6} IsA {@code R5} (pair substitution); entities {@code e0..eN} with tags, pairs (cycles and self loops
 * included), a ChildOf hierarchy, IsA bases (some Prefab, several bases per instance, diamond
 * shapes), Disabled entities and children named {@code c} for lookup variables; a component
 * {@code M {v: entity, k: i32}} on some entities (member-value terms {@code M.v(src, T)}, the
 * value sometimes 0, which holds no entity) and prefabs {@code K0..K2} standing for id lists of
 * the *From operators (K2 empty). {@link #mutate} changes the world between runs of cached
 * queries.
 */
final class ModelWorld {
    /** Traits of one relationship of the vocabulary. */
    record Rel(long id, String name, boolean transitive, boolean reflexive, boolean exclusive, boolean symmetric,
               boolean traversable) {}

    final World w;
    final List<Long> tags = new ArrayList<>();
    final List<Long> taxonomy = new ArrayList<>();
    final List<Long> inheritTags = new ArrayList<>();
    final List<Rel> rels = new ArrayList<>();
    final List<Long> ents = new ArrayList<>();
    long singleton;
    /** The component M and the prefabs K0..K2 (id lists for *From terms). */
    long member;
    final List<Long> kits = new ArrayList<>();

    /** Every alive entity (builtins included) in index order, and its owned type. */
    final List<Long> all = new ArrayList<>();
    final Map<Long, long[]> types = new HashMap<>();

    ModelWorld(World w, Random rnd) {
        this.w = w;
        w.transaction(x -> build(rnd));
        snapshot();
    }

    private void build(Random rnd) {
        for (int i = 0; i < 3; i++) {
            tags.add(w.entity("T" + i));
        }
        for (int i = 0; i < 4; i++) {
            taxonomy.add(w.entity("U" + i));
        }
        // U1 IsA U0, U2 IsA U1, U3 IsA U0 or a diamond U3 IsA U1 and U2
        w.add(taxonomy.get(1), w.pair(Builtin.IS_A, taxonomy.get(0)));
        w.add(taxonomy.get(2), w.pair(Builtin.IS_A, taxonomy.get(1)));
        w.add(taxonomy.get(3), w.pair(Builtin.IS_A, taxonomy.get(rnd.nextBoolean() ? 0 : 2)));
        if (rnd.nextBoolean()) {
            w.add(taxonomy.get(3), w.pair(Builtin.IS_A, taxonomy.get(1)));
        }
        // an Inherit taxonomy (component inheritance and Inherit combined): U0, maybe U2 too
        if (rnd.nextBoolean()) {
            w.add(taxonomy.get(0), w.pair(Builtin.ON_INSTANTIATE, Builtin.INHERIT));
            if (rnd.nextBoolean()) {
                w.add(taxonomy.get(2), w.pair(Builtin.ON_INSTANTIATE, Builtin.INHERIT));
            }
        }
        String[] policy = {"Inherit", "Override", "DontInherit"};
        for (int i = 0; i < 3; i++) {
            long c = w.entity("C" + i);
            w.add(c, w.pair(Builtin.ON_INSTANTIATE, w.resolve(policy[i])));
            inheritTags.add(c);
        }
        singleton = w.entity("S");
        w.add(singleton, Builtin.SINGLETON);
        if (rnd.nextInt(3) > 0) {
            w.add(singleton, singleton);
        }
        for (int i = 0; i < 5; i++) {
            long r = w.entity("R" + i);
            boolean transitive = i < 2 || rnd.nextInt(4) == 0;
            boolean reflexive = transitive && (i == 1 || rnd.nextInt(3) == 0);
            boolean exclusive = !transitive && rnd.nextInt(3) == 0;
            boolean symmetric = !transitive && rnd.nextInt(3) == 0;
            boolean traversable = transitive || (!symmetric && rnd.nextInt(3) == 0);
            if (transitive) {
                w.add(r, Builtin.TRANSITIVE);
            }
            if (reflexive) {
                w.add(r, Builtin.REFLEXIVE);
            }
            if (exclusive) {
                w.add(r, Builtin.EXCLUSIVE);
            }
            if (traversable && !transitive) {
                w.add(r, Builtin.TRAVERSABLE);
            }
            if (symmetric) {
                w.add(r, Builtin.SYMMETRIC);
            }
            if (!transitive && rnd.nextInt(3) == 0) {
                // instances see the base's pairs through IsA instead of copies (Flecs v4 Inherit)
                w.add(r, w.pair(Builtin.ON_INSTANTIATE, Builtin.INHERIT));
            }
            rels.add(new Rel(r, "R" + i, transitive, reflexive, exclusive, symmetric, traversable));
        }
        // relationship inheritance (pair substitution, ISA-10): R5 IsA a non-transitive Rk, maybe R6 IsA R5
        List<Rel> bases = new ArrayList<>();
        for (Rel r : rels) {
            if (!r.transitive()) {
                bases.add(r);
            }
        }
        if (!bases.isEmpty() && rnd.nextInt(4) > 0) {
            long base = bases.get(rnd.nextInt(bases.size())).id();
            for (int i = 5; i < 7; i++) {
                long r = w.entity("R" + i);
                w.add(r, w.pair(Builtin.IS_A, base));
                boolean exclusive = rnd.nextInt(4) == 0;
                if (exclusive) {
                    w.add(r, Builtin.EXCLUSIVE);
                }
                if (rnd.nextInt(3) == 0) {
                    w.add(r, w.pair(Builtin.ON_INSTANTIATE, Builtin.INHERIT));
                }
                rels.add(new Rel(r, "R" + i, false, false, exclusive, false, false));
                if (rnd.nextBoolean()) {
                    break;
                }
                base = r;
            }
        }
        int n = 10 + rnd.nextInt(16);
        for (int i = 0; i < n; i++) {
            ents.add(w.entity("e" + i));
        }
        // prefabs and IsA bases first, so that instantiation copies what the bases have
        for (int i = 0; i < n; i++) {
            long e = ents.get(i);
            if (i < n / 3 && rnd.nextInt(4) == 0) {
                w.add(e, Builtin.PREFAB);
            }
            addTags(e, rnd);
        }
        for (int i = 1; i < n; i++) {
            long e = ents.get(i);
            if (rnd.nextInt(3) == 0) {
                int k = 1 + (rnd.nextInt(4) == 0 ? 1 : 0);
                for (int j = 0; j < k; j++) {
                    w.add(e, w.pair(Builtin.IS_A, ents.get(rnd.nextInt(i)))); // acyclic: a lower number
                }
            }
        }
        for (int i = 0; i < n; i++) {
            long e = ents.get(i);
            for (Rel r : rels) {
                int k = rnd.nextInt(10) < 5 ? 0 : 1 + (rnd.nextInt(4) == 0 ? rnd.nextInt(3) : 0);
                for (int j = 0; j < k; j++) {
                    long t = ents.get(rnd.nextInt(n)); // cycles and self loops allowed
                    w.add(e, w.pair(r.id(), t));
                }
            }
            if (rnd.nextInt(8) == 0) {
                addTags(e, rnd); // after instantiation: owned beside inherited
            }
        }
        for (int i = 1; i < n; i++) {
            if (rnd.nextInt(3) == 0) {
                w.add(ents.get(i), w.pair(Builtin.CHILD_OF, ents.get(rnd.nextInt(i))));
            }
        }
        member = w.component("M", Schema.of("v", FieldType.ENTITY, "k", FieldType.I32));
        for (int i = 0; i < n; i++) {
            if (rnd.nextInt(3) == 0) {
                setMember(ents.get(i), rnd);
            }
        }
        for (int i = 0; i < 3; i++) {
            long k = w.entity("K" + i);
            w.add(k, Builtin.PREFAB);
            kits.add(k);
            if (i < 2) {
                addTags(k, rnd);
                if (rnd.nextBoolean()) {
                    w.add(k, w.pair(rels.get(rnd.nextInt(rels.size())).id(), ents.get(rnd.nextInt(n))));
                }
                if (i == 1 && rnd.nextBoolean()) {
                    setMember(k, rnd);
                }
            }
        }
        for (int i = 0; i < n; i++) {
            if (rnd.nextInt(5) == 0) {
                long c = w.entity(w.path(ents.get(i)) + ".c");
                addTags(c, rnd);
            }
            if (rnd.nextInt(12) == 0) {
                w.add(ents.get(i), Builtin.DISABLED);
            }
        }
    }

    private void setMember(long e, Random rnd) {
        long v = rnd.nextInt(5) == 0 ? 0 : ents.get(rnd.nextInt(ents.size()));
        w.set(e, member, Map.of("v", v, "k", rnd.nextInt(3)));
    }

    /**
     * A few random changes in one transaction (tags, pairs and M values added and removed,
     * reparenting; no entity is deleted, so the vocabulary stays), then the state read back.
     */
    void mutate(Random rnd) {
        w.transaction(x -> {
            for (int k = 1 + rnd.nextInt(4); k > 0; k--) {
                long e = ents.get(rnd.nextInt(ents.size()));
                switch (rnd.nextInt(6)) {
                    case 0 -> addTags(e, rnd);
                    case 1 -> {
                        for (long t : tags) {
                            if (w.has(e, t) && w.owns(e, t)) {
                                w.remove(e, t);
                            }
                        }
                    }
                    case 2 -> w.add(e, w.pair(rels.get(rnd.nextInt(rels.size())).id(), ents.get(rnd.nextInt(ents.size()))));
                    case 3 -> {
                        for (Rel r : rels) {
                            for (long t : w.targets(e, r.id())) {
                                if (rnd.nextBoolean()) {
                                    w.remove(e, w.pair(r.id(), t));
                                }
                            }
                        }
                    }
                    case 4 -> setMember(e, rnd);
                    default -> {
                        if (w.owns(e, member)) {
                            w.remove(e, member);
                        }
                    }
                }
            }
        });
        all.clear();
        types.clear();
        snapshot();
    }

    /**
     * The ids a *From term on E matches: E's own ids without the DontInherit ones, read from the
     * data: builtins (a builtin tag, or a pair whose relationship is a builtin: IsA, ChildOf,
     * OnInstantiate, ...) and ids whose (OnInstantiate, DontInherit) policy the world holds.
     */
    List<Long> fromIds(long e) {
        List<Long> out = new ArrayList<>();
        for (long id : types.get(e)) {
            long c = Ids.isPair(id) ? ofIndex(Ids.first(id)) : id;
            if (!isBuiltin(c) && !policy(id).equals("DontInherit")) {
                out.add(id);
            }
        }
        return out;
    }

    /** The entity M.v holds on e's own M (0 when e has no M, or v is 0 or dead). */
    long memberValue(long e) {
        if (!owns(e, member)) {
            return 0;
        }
        Object v = w.get(e, member).get("v");
        long x = v == null ? 0 : ((Number) v).longValue();
        return x != 0 && w.isAlive(x) ? x : 0;
    }

    private void addTags(long e, Random rnd) {
        for (long t : tags) {
            if (rnd.nextInt(3) == 0) {
                w.add(e, t);
            }
        }
        for (long t : taxonomy) {
            if (rnd.nextInt(5) == 0) {
                w.add(e, t);
            }
        }
        for (long t : inheritTags) {
            if (rnd.nextInt(4) == 0) {
                w.add(e, t);
            }
        }
    }

    /** Reads every alive entity and its type back through the public API. */
    private void snapshot() {
        int users = w.entityCount();
        int found = 0;
        for (int i = 1; i < Builtin.FIRST_USER_INDEX || found < users; i++) {
            long e = w.entityOfIndex(i);
            if (e == 0) {
                if (i > Builtin.FIRST_USER_INDEX + 100_000) {
                    throw new IllegalStateException("entity count " + users + " but found " + found);
                }
                continue;
            }
            if (i >= Builtin.FIRST_USER_INDEX) {
                found++;
            }
            all.add(e);
            types.put(e, w.type(e));
        }
    }

    long[] type(long e) {
        return types.get(e);
    }

    boolean owns(long e, long id) {
        for (long x : types.get(e)) {
            if (x == id) {
                return true;
            }
        }
        return false;
    }

    /** Targets (as entities) of the pairs (rel, *) that e owns, in type order. */
    List<Long> targets(long e, long rel) {
        List<Long> out = new ArrayList<>();
        for (long x : types.get(e)) {
            if (Ids.isPair(x) && Ids.first(x) == Ids.index(rel)) {
                out.add(w.entityOfIndex(Ids.second(x)));
            }
        }
        return out;
    }

    boolean isBuiltin(long e) {
        return Ids.index(e) < Builtin.FIRST_USER_INDEX;
    }

    /** The entity behind an element index of a pair. */
    long ofIndex(int index) {
        return w.entityOfIndex(index);
    }

    /** Entities reachable from e over one or more rel edges (plain BFS, a set). */
    Set<Long> closure(long e, long rel) {
        Set<Long> seen = new LinkedHashSet<>();
        List<Long> queue = new ArrayList<>(targets(e, rel));
        for (int i = 0; i < queue.size(); i++) {
            long y = queue.get(i);
            if (seen.add(y)) {
                queue.addAll(targets(y, rel));
            }
        }
        return seen;
    }

    /**
     * The (OnInstantiate, P) policy of an id (of its relationship for a pair), read from the world's data;
     * IsA pairs are Inherit, as in Flecs v4.
     */
    String policy(long id) {
        long c = Ids.isPair(id) ? ofIndex(Ids.first(id)) : id;
        if (c == Builtin.IS_A && Ids.isPair(id)) {
            return "Inherit"; // Flecs v4 gives IsA (OnInstantiate, Inherit) (NOTES K5)
        }
        if (c == 0 || !types.containsKey(c)) {
            return "Override";
        }
        if (owns(c, w.pair(Builtin.ON_INSTANTIATE, Builtin.INHERIT))) {
            return "Inherit";
        }
        if (owns(c, w.pair(Builtin.ON_INSTANTIATE, Builtin.DONT_INHERIT))) {
            return "DontInherit";
        }
        return "Override";
    }

    /** The user entities and their types, one per line (printed with a disagreement). */
    String dump() {
        StringBuilder sb = new StringBuilder();
        for (long e : all) {
            if (isBuiltin(e)) {
                continue;
            }
            sb.append("    ").append(path(e)).append(':');
            for (long id : types.get(e)) {
                sb.append(' ').append(w.idToString(id));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    String path(long e) {
        return w.path(e);
    }
}
