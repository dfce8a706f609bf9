package dev.quiver.query.plan;

import dev.quiver.query.QueryVariableException;
import dev.quiver.query.parse.TermRef;

import dev.quiver.index.Ids;
import dev.quiver.query.QuerySyntaxException;
import dev.quiver.query.UnknownQueryNameException;
import dev.quiver.query.UnsupportedQueryException;
import dev.quiver.query.parse.Predicate;
import dev.quiver.query.parse.QueryAst;
import dev.quiver.storage.table.Table;
import dev.quiver.storage.World;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Compiles a parsed query into a {@link Plan} for one world: runs the validator stage
 * ({@link Resolver}: names, slots, traits), then orders the terms and picks an operation for each
 * (compiler stage), then marks per-table counting ({@link PerTable}).
 *
 * <p>Ordering rules (greedy, FEATURES.md QS-12):
 * <ol>
 *   <li>Filters whose variables are bound run as soon as possible: Not terms, Not scopes and
 *       {@code not | E} (once every variable they share with positive terms is bound), {@code !=},
 *       {@code ~=}, and tests whose elements are all bound or fixed.</li>
 *   <li>{@code $v == x} binding an unbound variable.</li>
 *   <li>The cheapest generator: a term with a bound or fixed source, then the smaller of the
 *       component index rows and the reverse-index estimates.</li>
 *   <li>Optional terms, in written order, when no And term is ready. A variable first written in
 *       an optional term or an Or chain is bound only by that term; later terms that read it wait
 *       for it and are skipped when it stays unbound (dependent terms, QS-09).</li>
 * </ol>
 * A query whose {@code $this} appears only in Not, Optional and predicate terms starts with an
 * {@link OpKind#EACH} over all tables (QS-49). A query whose {@code $this} is set before evaluation
 * ({@code Query.set("this", e)}, Flecs' {@code ecs_iter_set_var(it, 0, e)}) starts with
 * {@link OpKind#THIS_SET}, or with an {@link OpKind#EACH} that tests the one entity when no
 * positive term binds {@code $this}: either looks the entity's table and row up in the entity
 * index, and every later term reads {@code $this} as bound (no table walk). An {@code and | E} is one step whose nested steps
 * are E's ids in this same order (its cost is its cheapest id's); {@code or | E} and
 * {@code not | E} wrap an {@link OpKind#OR} over E's ids ({@link FromTerms}). Member-value terms
 * become {@link OpKind#MEMBER_SELECT} or {@link OpKind#MEMBER_WITH} ({@link MemberTerms}), and
 * each field's access is computed by {@link FieldAccess}.
 */
public final class Planner {
    private static final int THIS = 0;

    private final World world;
    private final QueryAst ast;
    private final Map<Long, Long> rowEstimates = new HashMap<>();
    private List<String> slotNames;
    private int nextStepId;

    /** Variables set before evaluation (Flecs' iterator variables), by name without {@code $}. */
    private final List<String> preset;

    private Planner(World world, QueryAst ast, List<String> preset) {
        this.world = world;
        this.ast = ast;
        this.preset = preset;
    }

    /**
     * Compiles a parsed query against a world.
     *
     * @throws UnknownQueryNameException when a name does not resolve
     * @throws UnsupportedQueryException for constructs this engine does not evaluate yet
     * @throws QuerySyntaxException when a predicate reads a variable no earlier term binds, or a
     *     term reads a variable that no term binds
     */
    public static Plan plan(World world, QueryAst ast) {
        return new Planner(world, ast, List.of()).build();
    }

    /**
     * Compiles a parsed query whose variables {@code preset} (names without {@code $}) are bound
     * before evaluation: the plan reads them as bound from its first step and never binds them.
     *
     * @throws QueryVariableException when a name is not a variable of the query (anonymous and
     *     scope-local ones included), or is {@code this} and no term outside of a scope reads {@code $this}
     */
    public static Plan plan(World world, QueryAst ast, List<String> preset) {
        return new Planner(world, ast, List.copyOf(preset)).build();
    }

    private Plan build() {
        Resolver resolver = new Resolver(world, ast, preset);
        List<Unit> units = resolver.resolve();
        slotNames = resolver.slotNames();
        int fields = 0;
        for (Unit u : units) {
            fields = Math.max(fields, u.field + 1);
        }
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
            thisBoundByTerm |= u.binds(THIS);
        }
        List<Step> steps = new ArrayList<>();
        BitSet bound = new BitSet();
        int[] presetSlots = new int[preset.size()];
        boolean thisSet = false;
        for (int i = 0; i < preset.size(); i++) {
            String name = preset.get(i);
            if (name.equals(TermRef.THIS)) {
                if (!allSlots.get(THIS)) {
                    throw new QueryVariableException("the query '" + ast.text()
                        + "' has no $this to set: no term outside of a scope reads $this", name);
                }
                thisSet = true;
                presetSlots[i] = THIS;
                continue;
            }
            int slot = slotNames.indexOf(name);
            if (name.startsWith("_") || slot <= 0 || resolver.scopeOnly(slot) || !allSlots.get(slot)) {
                throw new QueryVariableException("the query '" + ast.text() + "' has no variable $" + name + " to set",
                    name);
            }
            presetSlots[i] = slot;
            bound.set(slot);
            positiveSlots.set(slot);
        }
        if (allSlots.get(THIS) && !thisBoundByTerm) {
            // every entity, or with $this set the one entity (its table looked up, not walked)
            steps.add(new Step(nextStepId++, OpKind.EACH, null, -1, null, List.of(), List.of(),
                List.of(), new int[0], thisSet ? new int[0] : new int[] {THIS}, THIS, false));
            bound.set(THIS);
            positiveSlots.set(THIS);
        } else if (thisSet) {
            steps.add(new Step(nextStepId++, OpKind.THIS_SET, null, -1, null, List.of(), List.of(),
                List.of(), new int[0], new int[0], THIS, false));
            bound.set(THIS);
            positiveSlots.set(THIS);
        }
        steps.addAll(order(units, bound, positiveSlots));
        steps = PerTable.markRowIndependent(steps);

        List<String> names = new ArrayList<>();
        List<Integer> slots = new ArrayList<>();
        for (int s = 1; s < slotNames.size(); s++) {
            String n = slotNames.get(s);
            if (!n.startsWith("_") && !n.startsWith("*") && !resolver.scopeOnly(s)) {
                names.add(n);
                slots.add(s);
            }
        }
        int[] varSlots = slots.stream().mapToInt(Integer::intValue).toArray();
        return new Plan(ast.text(), steps, nextStepId, slotNames, names, varSlots, allSlots.get(THIS), fields,
            resolver.matchPrefab(), resolver.matchDisabled(), presetSlots, FieldAccess.of(world, units, fields),
            resolver.fromLists(), resolver.subsetLists());
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
            thisByAnd |= u.binds(THIS);
        }
        BitSet conditional = new BitSet();
        for (Map.Entry<Integer, Unit> e : owner.entrySet()) {
            Unit o = e.getValue();
            boolean orSource = o.kind == Unit.Kind.OR && o.terms.get(0).source().isVar()
                && o.terms.get(0).source().slot() == e.getKey();
            boolean andThis = e.getKey() == THIS && thisByAnd;
            if ((o.kind == Unit.Kind.OPTIONAL || o.kind == Unit.Kind.OR) && !orSource && !andThis) {
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
        // an empty and|E or or|E binds nothing: like a filter, it waits for its source
        if (u.filter() || (u.from() && u.terms.isEmpty())) {
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
            if (selfRowsWaitForBinding(r, bound)) {
                return false;
            }
        }
        return true;
    }

    /**
     * A reflexive term with an open target whose source or target an earlier written term binds
     * gives every source its self row (not marked {@code selfNeedsPair}, NOTES K4); run with both
     * unbound, it could only walk the tables that hold R pairs and would lose the self rows of
     * the other entities. So it waits for the term that binds them, as written.
     */
    private static boolean selfRowsWaitForBinding(ResolvedTerm r, BitSet bound) {
        if (r.predicate() != null || !r.transitive() || !r.reflexive() || r.selfNeedsPair() || !r.source().isVar()
                || bound.get(r.source().slot())) {
            return false;
        }
        Operand target = r.second();
        return target.kind() == Operand.Kind.WILDCARD || target.isVar() && !bound.get(target.slot());
    }

    /** 0 filter, 1 binding equality, 2 generator, 3 optional. */
    private int priority(Unit u, BitSet bound) {
        switch (u.kind) {
            case NOT:
            case SCOPE:
            case FROM_NOT:
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
        if (u.kind == Unit.Kind.FROM_AND) {
            // its steps start with the cheapest of E's ids
            long c = Long.MAX_VALUE;
            for (ResolvedTerm r : u.terms) {
                c = Math.min(c, termCost(r, bound));
            }
            return u.terms.isEmpty() ? 0 : c;
        }
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
            case MEMBER_WITH:
                return 2;
            case MEMBER_SELECT:
                return 100 + rows(r.first().entity());
            case TRANS_UP:
            case UP_WITH:
                return 10;
            case UP_SELECT:
                return 100 + 4 * rows(pattern(r));
            case TRANS_DOWN: {
                long all = rows(Ids.pair(r.first().entity(), Ids.WILDCARD));
                long est = all;
                if (r.second().kind() == Operand.Kind.CONST) {
                    est = Math.min(all, 20L * world.tableAccess().sourceCount(r.second().entity()) + 1);
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

    private static final int SAMPLE_TABLES = 256;

    private long rows(long id) {
        Long cached = rowEstimates.get(id);
        if (cached != null) {
            return cached;
        }
        // an estimate: records of wildcard ids can list tens of thousands of tables, so past
        // SAMPLE_TABLES the sampled tables' mean row count stands for the rest
        List<Table> tables = world.tableAccess().tables(id);
        int sampled = Math.min(tables.size(), SAMPLE_TABLES);
        long n = 0;
        for (int i = 0; i < sampled; i++) {
            n += tables.get(i).count();
        }
        if (sampled < tables.size()) {
            n = n * tables.size() / sampled;
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
        if (r.member() != null) {
            return srcBound ? OpKind.MEMBER_WITH : OpKind.MEMBER_SELECT;
        }
        if (r.up() != null) {
            return srcBound ? OpKind.UP_WITH : OpKind.UP_SELECT;
        }
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
            case OR:
                return orStep(u.terms, u.terms.get(0).source(), u.field, bound, requires);
            case FROM_AND: {
                int id = nextStepId++;
                List<Unit> inner = new ArrayList<>();
                for (ResolvedTerm r : u.terms) {
                    Unit a = new Unit(u.written, Unit.Kind.AND, -1, u.column);
                    a.terms.add(r);
                    for (int s : r.slots()) {
                        a.slots.set(s);
                    }
                    inner.add(a);
                }
                BitSet innerBound = (BitSet) bound.clone();
                List<Step> chain = order(inner, innerBound, positiveSlots);
                innerBound.andNot(bound);
                return new Step(id, OpKind.AND_FROM, u.fromTerm, u.field, null, List.of(), chain, List.of(), requires,
                    innerBound.stream().toArray(), -1, false);
            }
            case FROM_OR:
            case FROM_NOT: {
                int id = nextStepId++;
                Step or = orStep(u.terms, u.fromTerm.source(), -1, bound, new int[0]);
                OpKind k = u.kind == Unit.Kind.FROM_OR ? OpKind.OR_FROM : OpKind.NOT_FROM;
                return new Step(id, k, u.fromTerm, u.field, or, List.of(), List.of(), List.of(), requires,
                    k == OpKind.OR_FROM ? or.binds() : new int[0], -1, false);
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

    /**
     * An Or chain over {@code terms} on source {@code src}, writing {@code field}: its alternatives,
     * and when the source is unbound a test per alternative but the last (one result per source).
     */
    private Step orStep(List<ResolvedTerm> terms, Operand src, int field, BitSet bound, int[] requires) {
        int id = nextStepId++;
        List<Step> alts = new ArrayList<>();
        List<Step> checks = new ArrayList<>();
        BitSet binds = new BitSet();
        boolean srcUnbound = src.isVar() && !bound.get(src.slot());
        for (ResolvedTerm r : terms) {
            Step a = leaf(r, field, bound, new int[0]);
            alts.add(a);
            for (int s : a.binds()) {
                binds.set(s);
            }
        }
        if (srcUnbound && !terms.isEmpty()) {
            BitSet withSource = (BitSet) bound.clone();
            withSource.set(src.slot());
            for (ResolvedTerm r : terms.subList(0, terms.size() - 1)) {
                checks.add(leaf(r, -1, withSource, new int[0]));
            }
        }
        return new Step(id, OpKind.OR, null, field, null, alts, List.of(), checks, requires,
            binds.stream().toArray(), -1, false);
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
}
