package dev.quiver.query.plan;

import dev.quiver.index.Ids;
import dev.quiver.query.QuerySyntaxException;
import dev.quiver.query.UnknownQueryNameException;
import dev.quiver.query.UnsupportedQueryException;
import dev.quiver.query.parse.Operator;
import dev.quiver.query.parse.Predicate;
import dev.quiver.query.parse.QueryAst;
import dev.quiver.query.parse.Term;
import dev.quiver.query.parse.TermRef;
import dev.quiver.query.parse.Traversal;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.Table;
import dev.quiver.storage.World;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Compiles a parsed query into a {@link Plan} for one world: resolves names (validator stage),
 * reads the relationship traits (Flecs v4 Transitive and Reflexive, as at query creation), orders
 * the terms and picks an operation for each (compiler stage).
 *
 * <p>Ordering rules (greedy, FEATURES.md QS-12):
 * <ol>
 *   <li>Filters whose variables are bound run as soon as possible: Not terms and Not scopes
 *       (once every variable they share with positive terms is bound), {@code !=}, {@code ~=},
 *       and tests whose elements are all bound or fixed.</li>
 *   <li>{@code $v == x} binding an unbound variable.</li>
 *   <li>The cheapest generator: a term with a bound or fixed source, then the smaller of the
 *       component index rows and the reverse-index estimates.</li>
 *   <li>Optional terms, in written order, when no And term is ready. A variable first written in
 *       an optional term or an Or chain is bound only by that term; later terms that read it wait
 *       for it and are skipped when it stays unbound (dependent terms, QS-09).</li>
 * </ol>
 * A query whose {@code $this} appears only in Not, Optional and predicate terms starts with an
 * {@link OpKind#EACH} over all tables (QS-49).
 */
public final class Planner {
    private static final int THIS = 0;

    private final World world;
    private final QueryAst ast;
    private final List<String> slotNames = new ArrayList<>();
    private final Map<String, Integer> slotOf = new HashMap<>();
    private final BitSet scopeOnly = new BitSet();
    private final Map<Long, Long> rowEstimates = new HashMap<>();
    private int nextStepId;
    private int hiddenCount;
    private boolean matchPrefab;
    private boolean matchDisabled;

    /** Kinds of schedulable units (one unit per written term, Or chain or scope). */
    private enum UnitKind { AND, OPTIONAL, NOT, OR, SCOPE }

    /** A term, Or chain or scope in written order, with resolved terms. */
    private static final class Unit {
        final int written;
        final UnitKind kind;
        final List<ResolvedTerm> terms = new ArrayList<>();
        final List<Unit> scope = new ArrayList<>();
        final int field;
        final BitSet slots = new BitSet();
        final int column;

        Unit(int written, UnitKind kind, int field, int column) {
            this.written = written;
            this.kind = kind;
            this.field = field;
            this.column = column;
        }

        boolean positive() {
            return kind == UnitKind.AND || kind == UnitKind.OPTIONAL || kind == UnitKind.OR;
        }
    }

    private Planner(World world, QueryAst ast) {
        this.world = world;
        this.ast = ast;
        slot(TermRef.THIS, false);
    }

    /**
     * Compiles a parsed query against a world.
     *
     * @throws UnknownQueryNameException when a name does not resolve
     * @throws UnsupportedQueryException for constructs this engine does not evaluate yet
     * @throws QuerySyntaxException when a predicate reads a variable no earlier term binds
     */
    public static Plan plan(World world, QueryAst ast) {
        return new Planner(world, ast).build();
    }

    private Plan build() {
        List<Unit> units = units(ast.terms(), false);
        markReflexiveSelfRows(units, new BitSet());
        int fields = 0;
        for (Unit u : units) {
            fields = Math.max(fields, u.field + 1);
        }
        checkPredicateOrder(units);
        BitSet positiveSlots = new BitSet();
        BitSet allSlots = new BitSet();
        for (Unit u : units) {
            allSlots.or(u.slots);
            if (u.positive()) {
                positiveSlots.or(u.slots);
            }
        }
        boolean thisBoundByTerm = false;
        for (Unit u : units) {
            if (u.kind == UnitKind.AND || u.kind == UnitKind.OR) {
                for (ResolvedTerm r : u.terms) {
                    thisBoundByTerm |= canBind(r, THIS);
                }
            }
        }
        List<Step> steps = new ArrayList<>();
        BitSet bound = new BitSet();
        if (allSlots.get(THIS) && !thisBoundByTerm) {
            steps.add(new Step(nextStepId++, OpKind.EACH, null, -1, null, List.of(), List.of(),
                List.of(), new int[0], new int[] {THIS}, THIS, false));
            bound.set(THIS);
            positiveSlots.set(THIS);
        }
        steps.addAll(order(units, bound, positiveSlots));
        steps = markRowIndependent(steps);

        List<String> names = new ArrayList<>();
        List<Integer> slots = new ArrayList<>();
        for (int s = 1; s < slotNames.size(); s++) {
            String n = slotNames.get(s);
            if (!n.startsWith("_") && !n.startsWith("*") && !scopeOnly.get(s)) {
                names.add(n);
                slots.add(s);
            }
        }
        int[] varSlots = slots.stream().mapToInt(Integer::intValue).toArray();
        return new Plan(ast.text(), steps, nextStepId, slotNames, names, varSlots, allSlots.get(THIS), fields,
            matchPrefab, matchDisabled);
    }

    /** True when evaluating the term can give {@code slot} a value (not a lookup base, not a filter). */
    private static boolean canBind(ResolvedTerm r, int slot) {
        if (r.predicate() != null) {
            return r.predicate() == Predicate.EQ && r.source().slot() == slot;
        }
        for (Operand o : new Operand[] {r.first(), r.second(), r.source()}) {
            if (o != null && o.isVar() && o.slot() == slot) {
                return true;
            }
        }
        return false;
    }

    // ------------------------------------------------------------------ resolution

    private List<Unit> units(List<Term> terms, boolean inScope) {
        List<Unit> out = new ArrayList<>();
        int field = 0;
        for (int i = 0; i < terms.size(); i++) {
            Term t = terms.get(i);
            if (t.isScope()) {
                Unit u = new Unit(i, UnitKind.SCOPE, -1, t.column());
                u.scope.addAll(units(t.scope(), true));
                for (Unit in : u.scope) {
                    u.slots.or(in.slots);
                }
                out.add(u);
                continue;
            }
            if (t.oper() == Operator.OR) {
                Unit u = new Unit(i, UnitKind.OR, inScope ? -1 : field++, t.column());
                while (true) {
                    Term alt = terms.get(i);
                    u.terms.add(resolve(alt, inScope));
                    if (alt.oper() != Operator.OR) {
                        break;
                    }
                    i++;
                }
                checkOrSources(u);
                for (ResolvedTerm r : u.terms) {
                    setSlots(u.slots, r);
                }
                out.add(u);
                continue;
            }
            UnitKind k;
            switch (t.oper()) {
                case AND: k = UnitKind.AND; break;
                case NOT: k = UnitKind.NOT; break;
                case OPTIONAL: k = UnitKind.OPTIONAL; break;
                default:
                    throw new UnsupportedQueryException("operator '" + t.oper().prefix().trim() + "'",
                        t.oper().prefix().trim(), t.column());
            }
            Unit u = new Unit(i, k, inScope ? -1 : field++, t.column());
            ResolvedTerm r = resolve(t, inScope);
            u.terms.add(r);
            setSlots(u.slots, r);
            out.add(u);
        }
        return out;
    }

    /**
     * Walks the units in written order and marks reflexive terms with a variable target whose
     * source no earlier written And or Or term binds (NOTES K4: then only entities with an R pair
     * get the self row). Optional terms do not count as binding.
     */
    private static void markReflexiveSelfRows(List<Unit> units, BitSet writtenBound) {
        for (Unit u : units) {
            for (int i = 0; i < u.terms.size(); i++) {
                ResolvedTerm r = u.terms.get(i);
                if (r.reflexive() && r.second().isVar() && r.source().isVar()
                    && !writtenBound.get(r.source().slot())) {
                    u.terms.set(i, r.withSelfNeedsPair(true));
                }
            }
            if (u.kind == UnitKind.SCOPE) {
                markReflexiveSelfRows(u.scope, (BitSet) writtenBound.clone());
            }
            if (u.kind == UnitKind.AND || u.kind == UnitKind.OR) {
                for (ResolvedTerm r : u.terms) {
                    for (int slot : r.slots()) {
                        if (canBind(r, slot)) {
                            writtenBound.set(slot);
                        }
                    }
                }
            }
        }
    }

    private static void setSlots(BitSet bs, ResolvedTerm r) {
        for (int s : r.slots()) {
            bs.set(s);
        }
    }

    private void checkOrSources(Unit u) {
        Operand src = u.terms.get(0).source();
        for (ResolvedTerm r : u.terms) {
            Operand s = r.source();
            boolean same = s.kind() == src.kind() && s.entity() == src.entity() && s.slot() == src.slot();
            if (!same) {
                throw new UnsupportedQueryException("'||' alternatives with different sources", r.ast().toString(),
                    r.ast().column());
            }
        }
    }

    private ResolvedTerm resolve(Term t, boolean inScope) {
        if (t.isEquality()) {
            TermRef left = t.source();
            if (left.lookup() != null) {
                throw new UnsupportedQueryException("lookup variable left of '" + t.predicate().symbol() + "'",
                    left.toString(), left.column());
            }
            Operand l = Operand.var(slot(left.name(), inScope), "$" + left.name(), false);
            TermRef right = t.second();
            if (right.kind() == TermRef.Kind.STRING) {
                return new ResolvedTerm(t, null, null, l, t.predicate(), right.name(), false, false, false);
            }
            Operand r = element(right, inScope, false);
            return new ResolvedTerm(t, null, r, l, t.predicate(), null, false, false, false);
        }
        Operand first = element(t.first(), inScope, true);
        boolean explicitSource = t.source().kind() != TermRef.Kind.DEFAULT;
        if (explicitSource && t.source().isVariable()) {
            slot(t.source().name(), inScope); // register variables in written order: R($src, $tgt)
        }
        Operand second = t.second() == null ? null : element(t.second(), inScope, false);
        Operand source;
        if (t.source().kind() == TermRef.Kind.DEFAULT && t.source().traversal().isNone() && second == null
            && first.kind() == Operand.Kind.CONST && !Ids.isPair(first.entity()) && world.isAlive(first.entity())
            && world.has(first.entity(), Builtin.SINGLETON)) {
            // Flecs v4 Singleton trait: a plain term for the component matches on its own entity
            source = Operand.constant(first.entity(), first.text(), false);
        } else {
            source = source(t.source(), first, inScope);
        }
        if (first.kind() == Operand.Kind.CONST) {
            noteBuiltin(first.entity());
        }
        if (second != null && second.kind() == Operand.Kind.CONST) {
            noteBuiltin(second.entity());
        }
        boolean transitive = false, reflexive = false;
        if (first.kind() == Operand.Kind.CONST && second != null && second.kind() != Operand.Kind.ANY
            && !second.selfOnly() && source.kind() != Operand.Kind.ANY && !Ids.isPair(first.entity())
            && world.isAlive(first.entity())) {
            transitive = world.has(first.entity(), Builtin.TRANSITIVE);
            reflexive = transitive && world.has(first.entity(), Builtin.REFLEXIVE);
        }
        if (second != null && second.isVar() && source.isVar() && second.slot() == source.slot()
            && first.kind() == Operand.Kind.CONST && (transitive || (!Ids.isPair(first.entity())
            && world.isAlive(first.entity()) && world.has(first.entity(), Builtin.ACYCLIC)))) {
            // Flecs rejects R($x, $x) for an acyclic R, and Transitive implies Acyclic
            throw new QuerySyntaxException("variable '" + second.text() + "' is both source and target of acyclic"
                + " relationship '" + first.text() + "' at column " + t.second().column(), second.text(),
                t.second().column());
        }
        return new ResolvedTerm(t, first, second, source, null, null, transitive, reflexive, false);
    }

    private void noteBuiltin(long e) {
        if (e == Builtin.PREFAB) {
            matchPrefab = true;
        } else if (e == Builtin.DISABLED) {
            matchDisabled = true;
        }
    }

    /** Resolves a first or second element. */
    private Operand element(TermRef r, boolean inScope, boolean isFirst) {
        Traversal tr = r.traversal();
        if (!tr.isNone() && !tr.selfOnly()) {
            throw new UnsupportedQueryException("traversal '" + tr + "' on a term " + (isFirst ? "id" : "target"),
                tr.toString(), tr.column());
        }
        boolean self = tr.selfOnly();
        switch (r.kind()) {
            case ENTITY:
                return Operand.constant(lookup(r.name(), r.column()), r.name(), self);
            case VARIABLE:
                if (r.lookup() != null) {
                    throw new UnsupportedQueryException("lookup variable outside a source", r.toString(), r.column());
                }
                return Operand.var(slot(r.name(), inScope), "$" + r.name(), self);
            case WILDCARD:
                return new Operand(Operand.Kind.WILDCARD, 0, -1, null, "*", self);
            case ANY:
                return new Operand(Operand.Kind.ANY, 0, -1, null, "_", self);
            default:
                throw new QuerySyntaxException("unexpected '" + r.name() + "' at column " + r.column(), r.name(),
                    r.column());
        }
    }

    private Operand source(TermRef r, Operand first, boolean inScope) {
        Traversal tr = r.traversal();
        if (tr.relationship() != null) {
            lookup(tr.relationship().name(), tr.relationship().column());
        }
        if (!tr.isNone() && !tr.selfOnly()) {
            String what = tr.up() ? "up" : tr.cascade() ? "cascade" : "desc";
            throw new UnsupportedQueryException("traversal '" + what + "'", what, tr.column());
        }
        switch (r.kind()) {
            case DEFAULT:
                return Operand.var(slot(TermRef.THIS, inScope), "$this", false);
            case ENTITY:
                return Operand.constant(lookup(r.name(), r.column()), r.name(), false);
            case VARIABLE:
                if (r.lookup() != null) {
                    return new Operand(Operand.Kind.LOOKUP, 0, slot(r.name(), inScope), r.lookup(),
                        "$" + r.name() + "." + r.lookup(), false);
                }
                return Operand.var(slot(r.name(), inScope), "$" + r.name(), false);
            case SINGLETON:
                if (first.kind() != Operand.Kind.CONST) {
                    throw new QuerySyntaxException("singleton source '$' needs a fixed component at column "
                        + r.column(), "$", r.column());
                }
                return Operand.constant(first.entity(), "$", false);
            case WILDCARD: {
                String name = "*" + (++hiddenCount);
                return Operand.var(slot(name, inScope), "*", false);
            }
            case ANY:
                return new Operand(Operand.Kind.ANY, 0, -1, null, "_", false);
            default:
                throw new QuerySyntaxException("unexpected '" + r.name() + "' at column " + r.column(), r.name(),
                    r.column());
        }
    }

    private long lookup(String name, int column) {
        long e = world.lookup(name);
        if (e == 0) {
            throw new UnknownQueryNameException(name, column);
        }
        return e;
    }

    private int slot(String name, boolean inScope) {
        Integer s = slotOf.get(name);
        if (s == null) {
            s = slotNames.size();
            slotNames.add(name);
            slotOf.put(name, s);
            if (inScope) {
                scopeOnly.set(s);
            }
        } else if (!inScope) {
            scopeOnly.clear(s);
        }
        return s;
    }

    /**
     * Flecs refuses {@code !=}, {@code ~=} (and {@code ==} with a variable on the right) when a
     * variable they read is not bound by an earlier written term.
     */
    private void checkPredicateOrder(List<Unit> units) {
        BitSet seen = new BitSet();
        for (Unit u : units) {
            for (ResolvedTerm r : u.terms) {
                if (r.predicate() == null) {
                    continue;
                }
                List<Operand> reads = new ArrayList<>();
                if (r.predicate() != Predicate.EQ) {
                    reads.add(r.source());
                }
                if (r.second() != null && r.second().isVar()) {
                    reads.add(r.second());
                }
                for (Operand o : reads) {
                    if (!seen.get(o.slot())) {
                        TermRef ref = o == r.source() ? r.ast().source() : r.ast().second();
                        throw new QuerySyntaxException("variable '" + o.text() + "' is read by '"
                            + r.predicate().symbol() + "' before a term binds it at column " + ref.column(),
                            o.text(), ref.column());
                    }
                }
            }
            if (u.positive()) {
                seen.or(u.slots);
            }
        }
    }

    // ------------------------------------------------------------------ ordering

    private List<Step> order(List<Unit> units, BitSet bound, BitSet positiveSlots) {
        // conditional variables: first bound by an optional term or an Or chain
        Map<Integer, Unit> owner = new HashMap<>();
        for (Unit u : units) {
            if (!u.positive()) {
                continue;
            }
            for (int s = u.slots.nextSetBit(0); s >= 0; s = u.slots.nextSetBit(s + 1)) {
                if (!bound.get(s) && !owner.containsKey(s)) {
                    owner.put(s, u);
                }
            }
        }
        // $this is bound by the And terms whenever one can bind it: a leading ?T does not bind it
        boolean thisByAnd = false;
        for (Unit u : units) {
            if (u.kind == UnitKind.AND || u.kind == UnitKind.OR) {
                for (ResolvedTerm r : u.terms) {
                    thisByAnd |= canBind(r, THIS);
                }
            }
        }
        BitSet conditional = new BitSet();
        for (Map.Entry<Integer, Unit> e : owner.entrySet()) {
            Unit o = e.getValue();
            boolean orSource = o.kind == UnitKind.OR && o.terms.get(0).source().isVar()
                && o.terms.get(0).source().slot() == e.getKey();
            boolean andThis = e.getKey() == THIS && thisByAnd;
            if ((o.kind == UnitKind.OPTIONAL || o.kind == UnitKind.OR) && !orSource && !andThis) {
                conditional.set(e.getKey());
            }
        }
        List<Unit> left = new ArrayList<>(units);
        List<Step> steps = new ArrayList<>();
        while (!left.isEmpty()) {
            Unit best = null;
            int bestClass = Integer.MAX_VALUE;
            long bestCost = Long.MAX_VALUE;
            for (Unit u : left) {
                if (!ready(u, bound, positiveSlots, conditional, owner)) {
                    continue;
                }
                int cls = priority(u, bound);
                long cost = cls == 2 ? cost(u, bound) : 0;
                if (cls < bestClass || (cls == bestClass && cost < bestCost)) {
                    best = u;
                    bestClass = cls;
                    bestCost = cost;
                }
            }
            if (best == null) {
                throw neverBound(left.get(0), bound);
            }
            left.remove(best);
            int[] requires = requires(best, conditional, owner);
            Step s = compile(best, bound, positiveSlots, requires);
            steps.add(s);
            if (best.positive()) {
                bound.or(best.slots);
            }
        }
        return steps;
    }

    /** The error for a term that can never run because a variable it reads is never bound. */
    private QuerySyntaxException neverBound(Unit u, BitSet bound) {
        String var = "";
        for (int s = u.slots.nextSetBit(0); s >= 0; s = u.slots.nextSetBit(s + 1)) {
            if (!bound.get(s)) {
                var = "$" + slotNames.get(s);
                break;
            }
        }
        return new QuerySyntaxException("variable '" + var + "' is read by the term at column " + u.column
            + " but no term binds it", var, u.column);
    }

    private static boolean ready(Unit u, BitSet bound, BitSet positiveSlots, BitSet conditional,
                                 Map<Integer, Unit> owner) {
        for (int s = u.slots.nextSetBit(0); s >= 0; s = u.slots.nextSetBit(s + 1)) {
            if (conditional.get(s) && owner.get(s) != u && !bound.get(s)) {
                return false;
            }
        }
        if (u.kind == UnitKind.NOT || u.kind == UnitKind.SCOPE) {
            for (int s = u.slots.nextSetBit(0); s >= 0; s = u.slots.nextSetBit(s + 1)) {
                if (positiveSlots.get(s) && !bound.get(s)) {
                    return false;
                }
            }
        }
        for (ResolvedTerm r : u.terms) {
            if (r.predicate() != null) {
                if (r.predicate() != Predicate.EQ && !bound.get(r.source().slot())) {
                    return false;
                }
                if (r.second() != null && r.second().isVar() && !bound.get(r.second().slot())) {
                    return false;
                }
            }
            if (r.source() != null && r.source().kind() == Operand.Kind.LOOKUP && !bound.get(r.source().slot())) {
                return false;
            }
        }
        return true;
    }

    /** 0 filter, 1 binding equality, 2 generator, 3 optional. */
    private int priority(Unit u, BitSet bound) {
        switch (u.kind) {
            case NOT:
            case SCOPE:
                return 0;
            case OPTIONAL:
                return 3;
            default:
                break;
        }
        boolean test = true;
        boolean eqBind = false;
        for (ResolvedTerm r : u.terms) {
            if (r.predicate() == Predicate.EQ && !bound.get(r.source().slot())) {
                eqBind = true;
            }
            for (int s : r.slots()) {
                if (!bound.get(s)) {
                    test = false;
                }
            }
            if (r.predicate() == null && (r.first().isWildcard() || (r.second() != null && r.second().isWildcard())
                || r.source().kind() == Operand.Kind.ANY)) {
                test = false;
            }
        }
        if (test) {
            return 0;
        }
        return eqBind ? 1 : 2;
    }

    private long cost(Unit u, BitSet bound) {
        long c = 0;
        for (ResolvedTerm r : u.terms) {
            c += termCost(r, bound);
        }
        return c;
    }

    private long termCost(ResolvedTerm r, BitSet bound) {
        if (r.predicate() != null) {
            return 1;
        }
        OpKind k = opFor(r, bound);
        switch (k) {
            case WITH:
            case TRANS_TEST:
                return 2;
            case TRANS_UP:
                return 10;
            case TRANS_DOWN: {
                long all = rows(Ids.pair(r.first().entity(), Ids.WILDCARD));
                long est = all;
                if (r.second().kind() == Operand.Kind.CONST) {
                    est = Math.min(all, 20L * world.sourceCount(r.second().entity()) + 1);
                } else {
                    est = all / 10 + 1;
                }
                return 100 + est;
            }
            case TRANS_ALL:
                return 100 + 10 * rows(Ids.pair(r.first().entity(), Ids.WILDCARD));
            default:
                return 100 + rows(pattern(r));
        }
    }

    /** The id with every non-constant element replaced by {@code *}. */
    private static long pattern(ResolvedTerm r) {
        long f = r.first().kind() == Operand.Kind.CONST ? r.first().entity() : Ids.WILDCARD;
        if (r.second() == null) {
            return f;
        }
        if (Ids.isPair(f)) {
            return Ids.WILDCARD;
        }
        long s = r.second().kind() == Operand.Kind.CONST ? r.second().entity() : Ids.WILDCARD;
        return Ids.pair(f, s);
    }

    private long rows(long id) {
        Long cached = rowEstimates.get(id);
        if (cached != null) {
            return cached;
        }
        long n = 0;
        for (Table t : world.tables(id)) {
            n += t.count();
        }
        rowEstimates.put(id, n);
        return n;
    }

    /** The operation for an id or equality term, given the variables bound before it. */
    static OpKind opFor(ResolvedTerm r, BitSet bound) {
        if (r.predicate() != null) {
            switch (r.predicate()) {
                case EQ: return OpKind.PRED_EQ;
                case NEQ: return OpKind.PRED_NEQ;
                default: return OpKind.PRED_MATCH;
            }
        }
        Operand src = r.source();
        boolean srcBound = src.kind() == Operand.Kind.CONST || src.kind() == Operand.Kind.LOOKUP
            || (src.isVar() && bound.get(src.slot()));
        if (r.transitive()) {
            Operand sec = r.second();
            boolean secBound = sec.kind() == Operand.Kind.CONST || (sec.isVar() && bound.get(sec.slot()));
            if (srcBound) {
                return secBound ? OpKind.TRANS_TEST : OpKind.TRANS_UP;
            }
            return secBound ? OpKind.TRANS_DOWN : OpKind.TRANS_ALL;
        }
        return srcBound ? OpKind.WITH : OpKind.SELECT;
    }

    private static int[] requires(Unit u, BitSet conditional, Map<Integer, Unit> owner) {
        BitSet req = new BitSet();
        for (int s = u.slots.nextSetBit(0); s >= 0; s = u.slots.nextSetBit(s + 1)) {
            if (conditional.get(s) && owner.get(s) != u) {
                req.set(s);
            }
        }
        return req.stream().toArray();
    }

    private Step compile(Unit u, BitSet bound, BitSet positiveSlots, int[] requires) {
        switch (u.kind) {
            case AND: {
                ResolvedTerm r = u.terms.get(0);
                return leaf(r, u.field, bound, requires);
            }
            case NOT: {
                int id = nextStepId++;
                Step inner = leaf(u.terms.get(0), -1, bound, new int[0]);
                return new Step(id, OpKind.NOT, null, u.field, inner, List.of(), List.of(), List.of(), requires,
                    new int[0], -1, false);
            }
            case OPTIONAL: {
                int id = nextStepId++;
                Step inner = leaf(u.terms.get(0), u.field, bound, new int[0]);
                return new Step(id, OpKind.OPTIONAL, null, u.field, inner, List.of(), List.of(), List.of(), requires,
                    inner.binds(), -1, false);
            }
            case OR: {
                int id = nextStepId++;
                List<Step> alts = new ArrayList<>();
                List<Step> checks = new ArrayList<>();
                BitSet binds = new BitSet();
                Operand src = u.terms.get(0).source();
                boolean srcUnbound = src.isVar() && !bound.get(src.slot());
                for (ResolvedTerm r : u.terms) {
                    Step a = leaf(r, u.field, bound, new int[0]);
                    alts.add(a);
                    for (int s : a.binds()) {
                        binds.set(s);
                    }
                }
                if (srcUnbound) {
                    BitSet withSource = (BitSet) bound.clone();
                    withSource.set(src.slot());
                    for (ResolvedTerm r : u.terms.subList(0, u.terms.size() - 1)) {
                        checks.add(leaf(r, -1, withSource, new int[0]));
                    }
                }
                return new Step(id, OpKind.OR, null, u.field, null, alts, List.of(), checks, requires,
                    binds.stream().toArray(), -1, false);
            }
            default: {
                int id = nextStepId++;
                BitSet innerBound = (BitSet) bound.clone();
                BitSet innerPositive = (BitSet) positiveSlots.clone();
                for (Unit in : u.scope) {
                    if (in.positive()) {
                        innerPositive.or(in.slots);
                    }
                }
                List<Step> inner = order(u.scope, innerBound, innerPositive);
                return new Step(id, OpKind.NOT_SCOPE, null, u.field, null, List.of(), inner, List.of(), requires,
                    new int[0], -1, false);
            }
        }
    }

    private Step leaf(ResolvedTerm r, int field, BitSet bound, int[] requires) {
        OpKind k = opFor(r, bound);
        BitSet binds = new BitSet();
        if (r.predicate() != null) {
            if (r.predicate() == Predicate.EQ && !bound.get(r.source().slot())) {
                binds.set(r.source().slot());
            }
        } else {
            for (Operand o : new Operand[] {r.first(), r.second(), r.source()}) {
                if (o != null && o.isVar() && !bound.get(o.slot())) {
                    binds.set(o.slot());
                }
            }
        }
        return new Step(nextStepId++, k, r, field, null, List.of(), List.of(), List.of(), requires,
            binds.stream().toArray(), -1, false);
    }

    // ------------------------------------------------------------------ per-table counting

    /**
     * Marks generator steps whose later steps do not depend on which row of a table the
     * generator is on: they never read the generated source variable except as their own source,
     * and then only through table-determined operations (type matches, non-reflexive closures).
     */
    private static List<Step> markRowIndependent(List<Step> steps) {
        List<Step> out = new ArrayList<>(steps);
        for (int i = 0; i < out.size(); i++) {
            Step s = out.get(i);
            int v;
            if (s.kind() == OpKind.EACH) {
                v = s.eachSlot();
            } else if (s.kind() == OpKind.SELECT || s.kind() == OpKind.TRANS_ALL) {
                ResolvedTerm r = s.term();
                if (!r.source().isVar() || r.reflexive()) {
                    continue;
                }
                v = r.source().slot();
                if (mentionsAsElement(r, v)) {
                    continue;
                }
            } else {
                continue;
            }
            boolean ok = true;
            for (int j = i + 1; j < out.size() && ok; j++) {
                ok = tableDetermined(out.get(j), v);
            }
            if (ok) {
                out.set(i, s.withRowIndependent(true));
            }
        }
        return out;
    }

    private static boolean mentionsAsElement(ResolvedTerm r, int v) {
        for (Operand o : new Operand[] {r.first(), r.second()}) {
            if (o != null && o.isVar() && o.slot() == v) {
                return true;
            }
        }
        return false;
    }

    private static boolean tableDetermined(Step s, int v) {
        switch (s.kind()) {
            case NOT:
            case OPTIONAL:
                return tableDetermined(s.inner(), v);
            case OR:
                for (Step a : s.alternatives()) {
                    if (!tableDetermined(a, v)) {
                        return false;
                    }
                }
                return true;
            case NOT_SCOPE:
                for (Step a : s.scope()) {
                    if (!tableDetermined(a, v)) {
                        return false;
                    }
                }
                return true;
            case EACH:
                return s.eachSlot() != v;
            default:
                break;
        }
        ResolvedTerm r = s.term();
        if (r.predicate() != null) {
            return !(r.source().slot() == v || (r.second() != null && r.second().isVar() && r.second().slot() == v));
        }
        if (mentionsAsElement(r, v)) {
            return false;
        }
        Operand src = r.source();
        if (src.kind() == Operand.Kind.LOOKUP && src.slot() == v) {
            return false;
        }
        if (src.isVar() && src.slot() == v) {
            switch (s.kind()) {
                case WITH:
                    return true;
                case TRANS_UP:
                case TRANS_TEST:
                    return !r.reflexive();
                default:
                    return false;
            }
        }
        return true;
    }
}
