package dev.quiver.query;

import dev.quiver.index.Ids;
import dev.quiver.query.ModelQuery.El;
import dev.quiver.query.ModelQuery.ElKind;
import dev.quiver.query.ModelQuery.From;
import dev.quiver.query.ModelQuery.Item;
import dev.quiver.query.ModelQuery.Op;
import dev.quiver.query.ModelQuery.Or;
import dev.quiver.query.ModelQuery.Pred;
import dev.quiver.query.ModelQuery.Scope;
import dev.quiver.query.ModelQuery.SrcKind;
import dev.quiver.query.ModelQuery.Term;
import dev.quiver.query.ModelQuery.Trav;
import dev.quiver.storage.Builtin;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The brute-force evaluator of {@link WholeLanguageModelTest}: the meaning of a {@link ModelQuery}
 * written from the manuals, evaluated by naive enumeration over a {@link ModelWorld}'s data, with
 * no index, no plan and no term reordering.
 *
 * <p>A query is a conjunction. Its And terms, {@code ==} and Or chains are evaluated in written
 * order, each term extending every partial assignment with each of its matches (an unbound source
 * ranges over every alive entity); then the optional terms in written order; then the filters
 * (Not terms, Not scopes, {@code !=}, {@code ~=}), which see the final bindings. When {@code $this}
 * is used but no And or Or term (or {@code $this == x}) binds it, it ranges over every entity that
 * is not a builtin (FEATURES QS-49, conformance NOTES K14). A term whose source is a variable
 * ({@code $this} included) or a lookup never matches on an entity owning Prefab or Disabled,
 * however the variable was bound (QS-47: the exclusion applies to every term, so it cannot depend
 * on the plan's term order) unless the query mentions that tag (NOTES K8); a fixed source may be one, and
 * so may the owner found through up traversal or IsA inheritance, and a variable that is only a
 * pair element.
 *
 * <p>The rules for one term at one source, with their sources:
 * <ul>
 *   <li>A plain id X matches the source's own X and its own ids that are IsA subsets of X,
 *       transitively, one row per id held (component inheritance, ISA-10, NOTES K7);
 *       {@code X|self} only X. With X (OnInstantiate, Inherit), X when not owned and each subset
 *       that is Inherit itself and not owned match on the nearest IsA base owning them (depth
 *       first, bases in type order), reported as the field's source (ISA-12; {@code X(self)} turns
 *       this off, {@code X(up IsA)} leaves out the own ids).</li>
 *   <li>{@code X(up R)}: depth first over the R targets in type order, a visited set ending
 *       cycles; each target is tested for its own X, then the entities above it, then (X Inherit,
 *       R not IsA) the X it inherits through IsA (Flecs v4 Queries manual: "the entities visited
 *       while traversing will still be tested for inherited components"; the order is Flecs'
 *       flecs_type_search_relation). The owner found is the field's source. {@code self|up} tries
 *       the source's own X first.</li>
 *   <li>A pair (R, T) for a Transitive R (T not {@code |self}, not {@code _}; source not
 *       {@code _}) holds when T is reachable from the source over one or more R edges (plain BFS),
 *       each target once however many paths lead there (QS-26..QS-33). Reflexive adds R(x, x),
 *       except that a term with a variable source and a variable or {@code *} target, neither
 *       bound by an earlier written And term, Or chain or {@code ==}, gives it only to sources
 *       owning an R pair (NOTES K4, Query Javadoc).</li>
 *   <li>Other pairs match the source's own pairs, one row per pair, with {@code _} positions
 *       collapsed to one row (NOTES K3), and the matching Inherit pairs it sees through its IsA
 *       bases and does not own, each from the first base holding it (depth first, bases in type
 *       order), a group the source owns staying its own (IsA pairs are Inherit: NOTES K5). Flecs
 *       goes up only when no own pair matches, which with variables depends on term order.</li>
 *   <li>Pair substitution (ISA-10, Flecs v4 flecs_query_insert_inheritance): a fixed
 *       relationship R that is not {@code R|self} also matches the pairs of its transitive IsA
 *       subsets ({@code (Likes, X)} matches {@code (Loves, X)} for Loves IsA Likes), own and
 *       inherited, the field reporting the pair held, a {@code _} target collapsing per
 *       relationship held.</li>
 *   <li>A {@code _} source gives one row per distinct matching pair over all sources, not
 *       transitive (NOTES K3, K12); its field source is {@code *}.</li>
 *   <li>The Singleton S written without a source matches on S itself (NOTES K10).</li>
 *   <li>{@code !T} holds when T has no match (variables first written in it are existential);
 *       a lookup source {@code $this.c} that does not exist makes the term false, negated or not
 *       (QS-22). {@code ?T}: its matches, or one row with the field unset. {@code A || B}: per
 *       source, the matches of the first alternative that has any (NOTES K12).
 *       {@code !{ ... }} holds when its terms have no solution (QS-21).</li>
 *   <li>{@code ==} binds or compares, {@code !=} compares, {@code ~=} tests a case-insensitive
 *       substring of the name, a leading {@code !} negating (NOTES K9). Their fields are never set.</li>
 * </ul>
 *
 * <p>Where the model follows Quiver's documented rule rather than real Flecs: the Reflexive rule
 * counts only written And terms, Or chains and {@code ==} as binding (Flecs also lets a leading
 * {@code !X} bind {@code $this}, NOTES K1); cycles end with a visited set (NOTES E3: Flecs
 * crashes); closures are sets (QS-32; Flecs repeats rows per path, K2); IsA inheritance in up
 * traversal is for (OnInstantiate, Inherit) ids, Quiver's inheritance model (Flecs tests every id
 * that is not DontInherit); policies are read from the world's data, IsA pairs being Inherit as in
 * Flecs (so {@code (IsA, X|self)} gives X's direct holders and, through them, the instances of X's
 * subtypes, reported {@code (IsA,X)@Mid}: NOTES K5). Queries the engine refuses as unsupported are
 * not compared.
 */
final class BruteForce {
    /** Marks a field id that the model does not predict (transitive terms: NOTES K1). */
    static final long UNKNOWN = Long.MIN_VALUE;

    /** One field of a result: set or not, the id (or {@link #UNKNOWN}) and the source. */
    record Field(boolean set, long id, long src) {
        static final Field UNSET = new Field(false, 0, 0);
    }

    /** A partial or final result: variable values (by name, {@code this} included) and fields. */
    record Row(Map<String, Long> vars, Field[] fields) {
        Row with(Map<String, Long> more, int field, Field f) {
            Map<String, Long> v = vars;
            if (!more.isEmpty()) {
                v = new HashMap<>(vars);
                v.putAll(more);
            }
            Field[] fs = fields;
            if (field >= 0) {
                fs = fields.clone();
                fs[field] = f;
            }
            return new Row(v, fs);
        }
    }

    /** One match of a term at one source: new variable values, the reported id and source. */
    private record Match(Map<String, Long> vars, long id, long src) {}

    private final ModelWorld mw;
    private final ModelQuery q;
    private final Map<Item, Integer> fieldOf = new IdentityHashMap<>();
    /** {@link #subsets} by id (the world does not change while a query is evaluated). */
    private final Map<Long, Set<Long>> subsetMemo = new HashMap<>();
    /** The reflexive terms whose self row needs an R pair on the source ({@link #markSelfNeedsPair}). */
    private final Set<Term> selfNeedsPair = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    private int fields;
    /** The query mentions Prefab (Disabled): those entities are matched like any other (NOTES K8, QS-47). */
    private final boolean matchPrefab, matchDisabled;

    BruteForce(ModelWorld mw, ModelQuery q) {
        this.mw = mw;
        this.q = q;
        this.matchPrefab = q.mentions(Builtin.PREFAB);
        this.matchDisabled = q.mentions(Builtin.DISABLED);
        for (Item it : q.items) {
            fieldOf.put(it, it instanceof Scope ? -1 : fields++);
        }
    }

    int fieldCount() {
        return fields;
    }

    /** The results, as a list (a multiset: order carries no meaning). */
    List<Row> evaluate() {
        List<Row> rows = new ArrayList<>();
        rows.add(new Row(Map.of(), new Field[fields]));
        boolean thisUsed = false, thisBound = false;
        for (Item it : q.items) {
            thisUsed |= usesThis(it);
            thisBound |= it instanceof Term t && t.op() == Op.AND && ("this".equals(srcVar(t)) || mentionsThis(t))
                || it instanceof Or || it instanceof From f && binds(f)
                || it instanceof Pred p && p.kind().equals("==") && p.left().equals("this");
        }
        if (thisUsed && !thisBound) {
            List<Row> next = new ArrayList<>();
            for (long e : mw.all) {
                if (!mw.isBuiltin(e) && enumerable(e)) {
                    next.add(rows.get(0).with(Map.of("this", e), -1, null));
                }
            }
            rows = next;
        }
        markSelfNeedsPair(q.items, new HashSet<>());
        for (Item it : q.items) { // And terms, Or chains and == in written order
            if (it instanceof Term t && t.op() == Op.AND) {
                rows = step(rows, r -> termRows(t, r, fieldOf.get(it)));
            } else if (it instanceof Or o) {
                rows = step(rows, r -> orRows(o, r, fieldOf.get(it)));
            } else if (it instanceof From f && binds(f)) {
                rows = step(rows, r -> fromRows(f, r, fieldOf.get(it)));
            } else if (it instanceof Pred p && p.kind().equals("==")) {
                rows = step(rows, r -> predRows(p, r, fieldOf.get(it)));
            }
        }
        for (Item it : q.items) { // optional terms in written order
            if (it instanceof Term t && t.op() == Op.OPT) {
                rows = step(rows, r -> {
                    List<Row> m = termRows(t, r, fieldOf.get(it));
                    return m.isEmpty() ? List.of(r.with(Map.of(), fieldOf.get(it), Field.UNSET)) : m;
                });
            }
        }
        for (Item it : q.items) { // filters
            if (it instanceof Term t && t.op() == Op.NOT) {
                rows = step(rows, r -> notHolds(t, r) ? List.of(r.with(Map.of(), fieldOf.get(it), Field.UNSET)) : List.of());
            } else if (it instanceof From f && !binds(f)) {
                rows = step(rows, r -> fromRows(f, r, fieldOf.get(it)));
            } else if (it instanceof Scope s) {
                rows = step(rows, r -> scopeRows(s.terms(), r).isEmpty() ? List.of(r) : List.of());
            } else if (it instanceof Pred p && !p.kind().equals("==")) {
                rows = step(rows, r -> predRows(p, r, fieldOf.get(it)));
            }
        }
        return rows;
    }

    private interface Extend {
        List<Row> apply(Row r);
    }

    private static List<Row> step(List<Row> rows, Extend f) {
        List<Row> out = new ArrayList<>();
        for (Row r : rows) {
            out.addAll(f.apply(r));
        }
        return out;
    }

    private boolean usesThis(Item it) {
        if (it instanceof Term t) {
            return !isSingleton(t) && (t.src().kind() == SrcKind.THIS || t.src().kind() == SrcKind.LOOKUP)
                || mentionsThis(t);
        } else if (it instanceof Or || it instanceof From) {
            return true;
        } else if (it instanceof Pred p) {
            return p.left().equals("this") || p.right() != null && "this".equals(p.right().var());
        } else if (it instanceof Scope s) {
            for (Term t : s.terms()) {
                if (usesThis(t)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** $this written as a pair element. */
    private static boolean mentionsThis(Term t) {
        return t.first().kind() == ElKind.VAR && t.first().var().equals("this")
            || t.second() != null && t.second().kind() == ElKind.VAR && t.second().var().equals("this");
    }

    private boolean isSingleton(Term t) {
        return t.second() == null && t.first().kind() == ElKind.CONST && t.first().entity() == mw.singleton
            && t.src().kind() == SrcKind.THIS && t.trav() == Trav.NONE;
    }

    /** The variable the term is matched on ({@code this} included), or null (fixed, {@code _}, lookup, Singleton). */
    private String srcVar(Term t) {
        if (isSingleton(t)) {
            return null;
        }
        return t.src().kind() == SrcKind.THIS ? "this" : t.src().kind() == SrcKind.VAR ? t.src().var() : null;
    }

    private void bindAll(Term t, Set<String> written) {
        for (El e : new El[] {t.first(), t.second()}) {
            if (e != null && e.kind() == ElKind.VAR) {
                written.add(e.var());
            }
        }
        String v = srcVar(t);
        if (v != null) {
            written.add(v);
        }
    }

    private boolean enumerable(long e) {
        return (matchPrefab || !mw.owns(e, Builtin.PREFAB)) && (matchDisabled || !mw.owns(e, Builtin.DISABLED));
    }

    // ------------------------------------------------------------------ items

    private List<Row> predRows(Pred p, Row r, int field) {
        Long left = r.vars().get(p.left());
        Field unset = Field.UNSET;
        if (p.kind().equals("~=")) {
            String pat = p.text();
            boolean neg = pat.startsWith("!");
            if (neg) {
                pat = pat.substring(1);
            }
            String name = mw.w.name(left);
            boolean has = name != null && name.toLowerCase(Locale.ROOT).contains(pat.toLowerCase(Locale.ROOT));
            return has != neg ? List.of(r.with(Map.of(), field, unset)) : List.of();
        }
        long right = p.right().kind() == ElKind.CONST ? p.right().entity() : r.vars().get(p.right().var());
        if (p.kind().equals("==")) {
            if (left == null) {
                return List.of(r.with(Map.of(p.left(), right), field, unset));
            }
            return left == right ? List.of(r.with(Map.of(), field, unset)) : List.of();
        }
        return left != right ? List.of(r.with(Map.of(), field, unset)) : List.of();
    }

    private List<Row> orRows(Or o, Row r, int field) {
        Long self = r.vars().get("this");
        List<Long> sources = self != null ? List.of(self) : candidates();
        List<Row> out = new ArrayList<>();
        for (long s : sources) {
            Row at = self != null ? r : r.with(Map.of("this", s), -1, null);
            for (Term alt : o.alts()) {
                List<Row> m = termRows(alt, at, field);
                if (!m.isEmpty()) {
                    out.addAll(m);
                    break;
                }
            }
        }
        return out;
    }

    /**
     * {@code and | E}, {@code or | E}, {@code not | E} on $this (Flecs Queries manual, "AndFrom,
     * OrFrom, NotFrom Operators"; FEATURES QL-13): E's ids without its DontInherit ones
     * ({@link ModelWorld#fromIds}), each held exactly in the source's own type (no closure, no
     * inheritance). As a list of terms: with no ids, and/not hold and or does not. The field is
     * E at the source for and/or, never set for not. An unbound $this ranges over the
     * enumerable entities.
     */
    /**
     * True for an and/or *From term that binds $this: not for {@code not | E}, nor for an
     * {@code and | E} whose E has no ids (an empty list of terms, checked with the filters).
     */
    private boolean binds(From f) {
        return f.op() != Op.NOT && !(f.op() == Op.AND && mw.fromIds(f.e()).isEmpty());
    }

    private List<Row> fromRows(From f, Row r, int field) {
        Long self = r.vars().get("this");
        List<Long> ids = mw.fromIds(f.e());
        if (f.op() == Op.NOT) {
            boolean none = true;
            for (long id : ids) {
                none &= !mw.owns(self, id);
            }
            return none || !enumerable(self) ? List.of(r.with(Map.of(), field, Field.UNSET)) : List.of();
        }
        // an E without ids is an empty list of terms: a bound $this passes unchecked
        List<Long> sources = self != null ? (enumerable(self) || ids.isEmpty() && f.op() == Op.AND ? List.of(self) : List.of())
            : candidates();
        if (self == null && ids.isEmpty()) { // no term to match: $this ranges as when nothing binds it (QS-49)
            sources = new ArrayList<>(sources);
            sources.removeIf(mw::isBuiltin);
        }
        List<Row> out = new ArrayList<>();
        for (long s : sources) {
            int held = 0;
            for (long id : ids) {
                held += mw.owns(s, id) ? 1 : 0;
            }
            boolean ok = f.op() == Op.AND ? held == ids.size() : held > 0;
            if (ok) {
                out.add(r.with(self == null ? Map.of("this", s) : Map.of(), field, new Field(true, f.e(), s)));
            }
        }
        return out;
    }

    /**
     * A member-value term {@code M.v(s, T)} at source s (Flecs Queries manual, "Member Value
     * Queries"; FEATURES QL-19): s owns M and its member v holds an entity (not 0, alive) equal to
     * T, any for {@code *} and {@code _}, binding or comparing a variable. The field id is
     * (M, value) ({@code _}: not predicted).
     */
    private List<Match> member(Term t, long s, Map<String, Long> vars) {
        long v = mw.memberValue(s);
        if (v == 0) {
            return List.of();
        }
        El sec = t.second();
        long id = sec.kind() == ElKind.ANY ? UNKNOWN : mw.w.pair(mw.member, v);
        switch (sec.kind()) {
            case CONST:
                return sec.entity() == v ? List.of(new Match(Map.of(), id, s)) : List.of();
            case VAR: {
                Long b = vars.get(sec.var());
                if (b != null) {
                    return b == v ? List.of(new Match(Map.of(), id, s)) : List.of();
                }
                return List.of(new Match(Map.of(sec.var(), v), id, s));
            }
            default:
                return List.of(new Match(Map.of(), id, s));
        }
    }

    private boolean notHolds(Term t, Row r) {
        if (t.src().kind() == SrcKind.LOOKUP && lookup(r) == 0) {
            return false; // QS-22: a missing lookup makes the term false, negated or not
        }
        return termRows(t, r, -1).isEmpty();
    }

    /** The solutions of a Not scope's terms under r (And terms first, then Not terms). */
    private List<Row> scopeRows(List<Term> terms, Row r) {
        List<Row> rows = List.of(r);
        for (Term t : terms) {
            if (t.op() == Op.AND) {
                rows = step(rows, x -> termRows(t, x, -1));
            }
        }
        for (Term t : terms) {
            if (t.op() == Op.NOT) {
                rows = step(rows, x -> notHolds(t, x) ? List.of(x) : List.of());
            }
        }
        return rows;
    }

    /**
     * The Reflexive rule of NOTES K4 and the Query Javadoc, decided in written order: a reflexive
     * transitive term with a variable source and an open target (a variable or {@code *}) gives
     * the self row R(x, x) only to sources that own an R pair unless an earlier written And term,
     * Or chain or {@code ==} binds its source or its target (a bound target is a known target,
     * which always matches itself).
     */
    private void markSelfNeedsPair(List<? extends Item> items, Set<String> written) {
        for (Item it : items) {
            List<Term> terms = it instanceof Term t ? List.of(t) : it instanceof Or o ? o.alts() : List.of();
            for (Term t : terms) {
                String src = srcVar(t);
                El sec = t.second();
                boolean openTarget = sec != null && (sec.kind() == ElKind.WILD
                    || sec.kind() == ElKind.VAR && !written.contains(sec.var()));
                if (transitive(t) && mw.owns(t.first().entity(), Builtin.REFLEXIVE) && openTarget && src != null
                        && !written.contains(src)) {
                    selfNeedsPair.add(t);
                }
            }
            if (it instanceof Scope s) {
                markSelfNeedsPair(s.terms(), new HashSet<>(written));
            } else if (it instanceof Term t && t.op() == Op.AND) {
                bindAll(t, written);
            } else if (it instanceof Or || it instanceof From f && binds(f)) {
                written.add("this"); // a *From term is its list of terms: an empty E binds nothing
            } else if (it instanceof Pred p && p.kind().equals("==")) {
                written.add(p.left());
            }
        }
    }

    private List<Long> candidates() {
        List<Long> out = new ArrayList<>();
        for (long e : mw.all) {
            if (enumerable(e)) {
                out.add(e);
            }
        }
        return out;
    }

    private long lookup(Row r) {
        Long base = r.vars().get("this");
        return base == null ? 0 : mw.w.lookup(mw.path(base) + ".c");
    }

    /** Every match of a term under r, as extended rows (field written when field >= 0). */
    private List<Row> termRows(Term t, Row r, int field) {
        List<Row> out = new ArrayList<>();
        if (t.src().kind() == SrcKind.ANY) {
            for (Match m : anySource(t, r)) {
                out.add(r.with(m.vars(), field, new Field(true, m.id(), Ids.WILDCARD)));
            }
            return out;
        }
        List<Long> sources;
        String var = null;
        if (isSingleton(t)) {
            sources = List.of(mw.singleton);
        } else if (t.src().kind() == SrcKind.CONST) {
            sources = List.of(t.src().entity());
        } else if (t.src().kind() == SrcKind.LOOKUP) {
            long c = lookup(r);
            sources = c == 0 || !enumerable(c) ? List.of() : List.of(c);
        } else {
            var = srcVar(t);
            Long v = r.vars().get(var);
            sources = v == null ? candidates() : enumerable(v) ? List.of(v) : List.of();
        }
        for (long s : sources) {
            Map<String, Long> bind = new HashMap<>();
            if (var != null && !r.vars().containsKey(var)) {
                bind.put(var, s);
            }
            for (Match m : matchAt(t, s, r.vars())) {
                Map<String, Long> all = new HashMap<>(bind);
                all.putAll(m.vars());
                out.add(r.with(all, field, new Field(true, m.id(), m.src())));
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ one term at one source

    private List<Match> matchAt(Term t, long s, Map<String, Long> vars) {
        if (t.member() != null) {
            return member(t, s, vars);
        }
        if (t.second() == null) {
            return plain(t, s, vars);
        }
        if (transitive(t)) {
            return transitivePair(t, s, vars);
        }
        List<Match> out = pairsOf(t, s, vars, s, false);
        Set<Long> groups = new HashSet<>();
        for (Match m : out) {
            groups.add(m.id());
        }
        inheritedPairs(t, s, s, vars, new HashSet<>(), groups, out);
        return out;
    }

    /** True when the term is evaluated over the transitive closure. */
    boolean transitive(Term t) {
        return t.second() != null && t.first().kind() == ElKind.CONST && isTransitive(t.first().entity())
            && !t.second().self() && t.second().kind() != ElKind.ANY && t.src().kind() != SrcKind.ANY;
    }

    private boolean isTransitive(long rel) {
        return mw.owns(rel, Builtin.TRANSITIVE);
    }

    private List<Match> plain(Term t, long s, Map<String, Long> vars) {
        El f = t.first();
        if (f.kind() == ElKind.CONST) {
            long x = f.entity();
            boolean travIsA = (t.trav() == Trav.UP || t.trav() == Trav.SELF_UP) && t.travRel() == Builtin.IS_A;
            if ((t.trav() == Trav.UP || t.trav() == Trav.SELF_UP) && !travIsA) {
                return up(t, x, s);
            }
            List<Match> out = new ArrayList<>();
            List<Long> ids = new ArrayList<>(f.self() ? Set.of() : subsets(x));
            ids.sort(null);
            ids.add(0, x);
            boolean self = t.trav() != Trav.UP;
            if (self) {
                for (long d : mw.type(s)) {
                    if (ids.contains(d)) {
                        out.add(new Match(Map.of(), d, s));
                    }
                }
            }
            if (travIsA || t.trav() != Trav.SELF && mw.policy(x).equals("Inherit")) {
                // per id, as Flecs matches its substituted variable self|up value by value: X
                // and each Inherit subset not owned, from the nearest IsA base owning it
                for (long id : ids) {
                    if (self && mw.owns(s, id) || id != x && !mw.policy(id).equals("Inherit")) {
                        continue;
                    }
                    long o = isaOwner(s, id, new HashSet<>());
                    if (o != 0) {
                        out.add(new Match(Map.of(), id, o));
                    }
                }
            }
            return out;
        }
        List<Match> out = new ArrayList<>();
        Long bound = f.kind() == ElKind.VAR ? vars.get(f.var()) : null;
        for (long d : mw.type(s)) {
            if (Ids.isPair(d) || bound != null && bound != d) {
                continue;
            }
            out.add(new Match(f.kind() == ElKind.VAR && bound == null ? Map.of(f.var(), d) : Map.of(), d, s));
        }
        return out;
    }

    /** Ids that are IsA subsets of x, transitively (BFS over every entity's own IsA pairs). */
    private Set<Long> subsets(long x) {
        return subsetMemo.computeIfAbsent(x, this::findSubsets);
    }

    private Set<Long> findSubsets(long x) {
        Set<Long> out = new HashSet<>();
        boolean grew = true;
        while (grew) {
            grew = false;
            for (long e : mw.all) {
                if (out.contains(e) || e == x) {
                    continue;
                }
                for (long b : mw.targets(e, Builtin.IS_A)) {
                    if (b == x || out.contains(b)) {
                        out.add(e);
                        grew = true;
                        break;
                    }
                }
            }
        }
        return out;
    }

    /** The nearest IsA base of e owning x (depth first, bases in type order), or 0. */
    private long isaOwner(long e, long x, Set<Long> visited) {
        for (long b : mw.targets(e, Builtin.IS_A)) {
            if (!visited.add(b)) {
                continue;
            }
            if (mw.owns(b, x)) {
                return b;
            }
            long o = isaOwner(b, x, visited);
            if (o != 0) {
                return o;
            }
        }
        return 0;
    }

    private List<Match> up(Term t, long x, long s) {
        long rel = t.travRel();
        if (t.trav() == Trav.SELF_UP && mw.owns(s, x)) {
            return List.of(new Match(Map.of(), x, s));
        }
        boolean inherit = rel != Builtin.IS_A && mw.policy(x).equals("Inherit");
        long o = walk(s, x, rel, inherit, new HashSet<>());
        return o == 0 ? List.of() : List.of(new Match(Map.of(), x, o));
    }

    /**
     * Depth first up rel from a: each target in type order is tested (own type), then the
     * entities above it, then (for an Inherit x) its IsA bases (Flecs' search order,
     * flecs_type_search_relation; a visited set ends cycles).
     */
    private long walk(long a, long x, long rel, boolean inherit, Set<Long> visited) {
        for (long y : mw.targets(a, rel)) {
            if (!visited.add(y)) {
                continue;
            }
            if (mw.owns(y, x)) {
                return y;
            }
            long o = walk(y, x, rel, inherit, visited);
            if (o == 0 && inherit) {
                o = isaOwner(y, x, new HashSet<>());
            }
            if (o != 0) {
                return o;
            }
        }
        return 0;
    }

    private List<Match> transitivePair(Term t, long s, Map<String, Long> vars) {
        long rel = t.first().entity();
        boolean selfRow = mw.owns(rel, Builtin.REFLEXIVE) && (!selfNeedsPair.contains(t) || !mw.targets(s, rel).isEmpty());
        Set<Long> reach = mw.closure(s, rel);
        El sec = t.second();
        Long target = sec.kind() == ElKind.CONST ? Long.valueOf(sec.entity())
            : sec.kind() == ElKind.VAR ? vars.get(sec.var()) : null;
        if (target != null) {
            boolean ok = reach.contains(target) || selfRow && s == target;
            return ok ? List.of(new Match(Map.of(), UNKNOWN, s)) : List.of();
        }
        List<Match> out = new ArrayList<>();
        if (selfRow && !reach.contains(s)) {
            out.add(targetMatch(sec, s, s));
        }
        for (long y : reach) {
            out.add(targetMatch(sec, y, s));
        }
        return out;
    }

    private static Match targetMatch(El sec, long y, long s) {
        return new Match(sec.kind() == ElKind.VAR ? Map.of(sec.var(), y) : Map.of(), UNKNOWN, s);
    }

    /**
     * The pairs of e's own type matching the term under vars, one per pair, {@code _} positions
     * collapsed (the first pair in type order stands for its group, reported with {@code *}).
     */
    private List<Match> pairsOf(Term t, long e, Map<String, Long> vars, long reportedSrc, boolean inheritOnly) {
        El f = t.first(), sec = t.second();
        Long fv = f.kind() == ElKind.CONST ? Long.valueOf(f.entity()) : f.kind() == ElKind.VAR ? vars.get(f.var()) : null;
        Long sv = sec.kind() == ElKind.CONST ? Long.valueOf(sec.entity()) : sec.kind() == ElKind.VAR ? vars.get(sec.var()) : null;
        // pair substitution: a fixed relationship also stands for its IsA subsets (not with R|self)
        Set<Long> firsts = f.kind() == ElKind.CONST && !f.self() ? subsets(f.entity()) : Set.of();
        Map<Long, Match> groups = new LinkedHashMap<>();
        for (long id : mw.type(e)) {
            if (!Ids.isPair(id)) {
                continue;
            }
            if (inheritOnly && !mw.policy(id).equals("Inherit")) {
                continue;
            }
            long a = mw.ofIndex(Ids.first(id)), b = mw.ofIndex(Ids.second(id));
            if (fv != null && fv != a && !firsts.contains(a) || sv != null && sv != b) {
                continue;
            }
            int gf = f.kind() == ElKind.ANY ? Ids.WILDCARD_INDEX : Ids.first(id);
            int gs = sec.kind() == ElKind.ANY ? Ids.WILDCARD_INDEX : Ids.second(id);
            long key = Ids.pairOfIndices(gf, gs);
            if (groups.containsKey(key)) {
                continue;
            }
            Map<String, Long> bind = new HashMap<>();
            if (f.kind() == ElKind.VAR && fv == null) {
                bind.put(f.var(), a);
            }
            if (sec.kind() == ElKind.VAR && sv == null) {
                bind.put(sec.var(), b);
            }
            groups.put(key, new Match(bind, key, reportedSrc));
        }
        return new ArrayList<>(groups.values());
    }

    /**
     * The Inherit pairs matching the term that e sees through its IsA bases and does not own (depth
     * first, bases in type order: the first base holding a pair provides it), one per group not
     * already in {@code groups}.
     */
    private void inheritedPairs(Term t, long s, long e, Map<String, Long> vars, Set<Long> visited, Set<Long> groups,
                                List<Match> out) {
        for (long b : mw.targets(e, Builtin.IS_A)) {
            if (!visited.add(b)) {
                continue;
            }
            for (Match m : pairsOf(t, b, vars, b, true)) {
                if (groups.add(m.id()) && !ownsGroup(t, s, m.id())) {
                    out.add(m);
                }
            }
            inheritedPairs(t, s, b, vars, visited, groups, out);
        }
    }

    /** True when s owns a pair of the group key (a {@code _} position in the key stands for any). */
    private boolean ownsGroup(Term t, long s, long key) {
        for (long id : mw.type(s)) {
            if (Ids.isPair(id) && (t.first().kind() == ElKind.ANY || Ids.first(id) == Ids.first(key))
                && (t.second().kind() == ElKind.ANY || Ids.second(id) == Ids.second(key))) {
                return true;
            }
        }
        return false;
    }

    /** A {@code _} source: each distinct matching pair over all enumerable entities, once. */
    private List<Match> anySource(Term t, Row r) {
        Map<Long, Match> distinct = new LinkedHashMap<>();
        for (long e : candidates()) {
            for (Match m : pairsOf(t, e, r.vars(), Ids.WILDCARD, false)) {
                distinct.putIfAbsent(m.id(), m);
            }
        }
        return new ArrayList<>(distinct.values());
    }
}
