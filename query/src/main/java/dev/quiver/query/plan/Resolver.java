package dev.quiver.query.plan;

import dev.quiver.index.Ids;
import dev.quiver.query.QuerySyntaxException;
import dev.quiver.query.QueryValidationException;
import dev.quiver.query.UnknownQueryNameException;
import dev.quiver.query.UnsupportedQueryException;
import dev.quiver.query.parse.Operator;
import dev.quiver.query.parse.Predicate;
import dev.quiver.query.parse.QueryAst;
import dev.quiver.query.parse.Term;
import dev.quiver.query.parse.TermRef;
import dev.quiver.query.parse.Traversal;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.World;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The validator stage: resolves the names of a parsed query against a world, allocates variable
 * slots, reads the relationship traits (Flecs v4 Transitive, Reflexive, Acyclic, Singleton, as at
 * query creation) and checks the rules Flecs enforces at creation: names must exist,
 * {@code !=}/{@code ~=} read variables bound by an earlier written term, {@code R($x, $x)} is
 * refused for an acyclic R, and the terms of an Or chain share their source. Source traversal
 * flags ({@code up}, {@code self|up}, {@code cascade}, {@code desc}) are checked by {@link UpRules}.
 */
final class Resolver {
    private static final int THIS = 0;

    private final World world;
    private final QueryAst ast;
    private final List<String> slotNames = new ArrayList<>();
    private final Map<String, Integer> slotOf = new HashMap<>();
    private final BitSet scopeOnly = new BitSet();
    private int hiddenCount;
    private boolean matchPrefab;
    private boolean matchDisabled;
    /** The ids read for each *From term, in written order. */
    private final List<Plan.FromList> fromLists = new ArrayList<>();
    private final List<Plan.SubsetList> subsetLists = new ArrayList<>();

    /** Variables set before evaluation (names without {@code $}): bound from the start. */
    private final List<String> preset;

    Resolver(World world, QueryAst ast, List<String> preset) {
        this.world = world;
        this.ast = ast;
        this.preset = preset;
        slot(TermRef.THIS, false);
    }

    /** Resolves every term into units, in written order. */
    List<Unit> resolve() {
        List<Unit> units = units(ast.terms(), false);
        markReflexiveSelfRows(units, new BitSet());
        checkPredicateOrder(units);
        return units;
    }

    /** Slot names, slot 0 being "this". */
    List<String> slotNames() {
        return slotNames;
    }

    /** True for a slot used only inside scopes. */
    boolean scopeOnly(int slot) {
        return scopeOnly.get(slot);
    }

    /** The query mentions Prefab. */
    boolean matchPrefab() {
        return matchPrefab;
    }

    /** The query mentions Disabled or DisabledRelationship (toggle companions are not skipped then). */
    boolean matchDisabled() {
        return matchDisabled;
    }

    /** The ids each *From term read from its E, in written order. */
    List<Plan.FromList> fromLists() {
        return fromLists;
    }

    /** The IsA subsets the resolution read, per id ({@link Plan#subsetLists}). */
    List<Plan.SubsetList> subsetLists() {
        return subsetLists;
    }

    // ------------------------------------------------------------------ resolution

    private List<Unit> units(List<Term> terms, boolean inScope) {
        List<Unit> out = new ArrayList<>();
        int field = 0;
        for (int i = 0; i < terms.size(); i++) {
            Term t = terms.get(i);
            FieldAccess.check(t);
            if (t.isScope()) {
                Unit u = new Unit(i, Unit.Kind.SCOPE, -1, t.column());
                u.scope.addAll(units(t.scope(), true));
                for (Unit in : u.scope) {
                    u.slots.or(in.slots);
                }
                out.add(u);
                continue;
            }
            if (t.oper() == Operator.OR) {
                Unit u = new Unit(i, Unit.Kind.OR, inScope ? -1 : field++, t.column());
                while (true) {
                    Term alt = terms.get(i);
                    FieldAccess.check(alt);
                    u.terms.add(resolve(alt, inScope));
                    if (alt.oper() != Operator.OR) {
                        break;
                    }
                    i++;
                }
                checkOrSources(u);
                FieldAccess.checkChain(u.terms);
                for (ResolvedTerm r : u.terms) {
                    setSlots(u.slots, r);
                }
                out.add(u);
                continue;
            }
            Unit.Kind k;
            switch (t.oper()) {
                case AND: k = Unit.Kind.AND; break;
                case NOT: k = Unit.Kind.NOT; break;
                case OPTIONAL: k = Unit.Kind.OPTIONAL; break;
                case AND_FROM: k = Unit.Kind.FROM_AND; break;
                case OR_FROM: k = Unit.Kind.FROM_OR; break;
                case NOT_FROM: k = Unit.Kind.FROM_NOT; break;
                default:
                    throw new UnsupportedQueryException("operator '" + t.oper().prefix().trim() + "'",
                        t.oper().prefix().trim(), t.column());
            }
            if (t.oper() == Operator.AND_FROM || t.oper() == Operator.OR_FROM || t.oper() == Operator.NOT_FROM) {
                out.add(fromUnit(t, i, k, inScope ? -1 : field++, inScope));
                continue;
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
     * A *From term {@code and | E}, {@code or | E} or {@code not | E}: E's ids, read now, as exact
     * own-id terms on the term's source ({@link FromTerms}).
     *
     * @throws QueryValidationException when E is not a fixed entity, or carries flags
     * @throws UnknownQueryNameException when E does not resolve
     * @throws UnsupportedQueryException for a {@code _} source or traversal on the source
     */
    private Unit fromUnit(Term t, int written, Unit.Kind kind, int field, boolean inScope) {
        TermRef er = t.first();
        String op = t.oper().prefix().trim();
        if (er.kind() != TermRef.Kind.ENTITY || !er.traversal().isNone()) {
            throw new QueryValidationException("'" + op + "' needs a fixed entity whose ids it matches, found '" + er
                + "' in '" + t + "' at column " + er.column(), er.toString(), er.column());
        }
        TermRef sr = t.source();
        if (sr.kind() == TermRef.Kind.ANY || (!sr.traversal().isNone() && !sr.traversal().selfOnly())) {
            String tok = sr.kind() == TermRef.Kind.ANY ? "_" : sr.traversal().toString();
            throw new UnsupportedQueryException("source '" + sr + "' on '" + t + "'", tok,
                sr.kind() == TermRef.Kind.ANY ? sr.column() : sr.traversal().column());
        }
        long e = lookup(er.name(), er.column());
        Operand eo = Operand.constant(e, er.name(), false);
        Operand src = source(sr, eo, inScope);
        Unit u = new Unit(written, kind, field, t.column());
        u.fromTerm = new ResolvedTerm(t, eo, null, src, null, null, false, false, false);
        long[] ids = FromTerms.ids(world, e);
        if (ids.length > dev.quiver.query.parse.QueryParser.MAX_TERMS) {
            throw new QueryValidationException("'" + op + "' at column " + t.column() + " expands to " + ids.length
                    + " ids, more than the " + dev.quiver.query.parse.QueryParser.MAX_TERMS + " terms a query may hold",
                    op, t.column());
        }
        fromLists.add(new Plan.FromList(e, ids));
        for (long id : ids) {
            u.terms.add(FromTerms.term(world, t, id, src));
        }
        if (src.isVar()) {
            u.slots.set(src.slot());
        }
        return u;
    }

    /**
     * Walks the units in written order and marks reflexive terms with a variable or {@code *}
     * target (K3: {@code *} follows the chain like a variable) when no earlier written And or Or
     * term binds the source or the target (NOTES K4: then only entities with an R pair get the
     * self row; a target bound before is a known target, which always matches itself). Optional
     * terms do not count as binding.
     */
    private static void markReflexiveSelfRows(List<Unit> units, BitSet writtenBound) {
        for (Unit u : units) {
            for (int i = 0; i < u.terms.size(); i++) {
                ResolvedTerm r = u.terms.get(i);
                Operand target = r.second();
                boolean openTarget = target != null && (target.kind() == Operand.Kind.WILDCARD
                    || target.isVar() && !writtenBound.get(target.slot()));
                if (r.transitive() && r.reflexive() && openTarget && r.source().isVar()
                    && !writtenBound.get(r.source().slot())) {
                    u.terms.set(i, r.withSelfNeedsPair(true));
                }
            }
            if (u.kind == Unit.Kind.SCOPE) {
                markReflexiveSelfRows(u.scope, (BitSet) writtenBound.clone());
            }
            if (u.kind == Unit.Kind.AND || u.kind == Unit.Kind.OR || u.kind == Unit.Kind.FROM_AND
                || u.kind == Unit.Kind.FROM_OR) {
                for (ResolvedTerm r : u.terms) {
                    for (int slot : r.slots()) {
                        if (r.canBind(slot)) {
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
        ResolvedTerm.Member member = MemberTerms.read(world, t);
        if (member != null) {
            return resolveMember(t, member, inScope);
        }
        Operand first = element(t.first(), inScope, true);
        boolean explicitSource = t.source().kind() != TermRef.Kind.DEFAULT;
        if (explicitSource && t.source().isVariable()) {
            slot(t.source().name(), inScope); // register variables in written order: R($src, $tgt)
        }
        Operand second = t.second() == null ? null : oneOfTarget(first, t.second());
        if (second == null && t.second() != null) {
            second = element(t.second(), inScope, false);
        }
        TermRef srcRef = t.source();
        ResolvedTerm.Inherit inherit = ResolvedTerm.Inherit.NONE;
        if (first.kind() == Operand.Kind.CONST && !Ids.isPair(first.entity()) && second == null) {
            inherit = InheritedTerms.plain(world, first.entity(), srcRef.traversal(), first.selfOnly(), t.toString(),
                t.column());
            if (!first.selfOnly()) {
                subsetLists.add(new Plan.SubsetList(first.entity(), true, inherit.derived()));
            }
            if (InheritedTerms.upIsA(world, srcRef.traversal())) {
                srcRef = srcRef.withTraversal(srcRef.traversal().self()
                    ? new Traversal(true, false, false, false, null, srcRef.traversal().column()) : Traversal.NONE);
            }
            if (srcRef.kind() == TermRef.Kind.ANY && !inherit.none()) {
                throw new UnsupportedQueryException("IsA inheritance with the '_' source in '" + t + "'", "_",
                    t.column());
            }
        }
        Operand source;
        if (t.source().kind() == TermRef.Kind.DEFAULT && t.source().traversal().isNone() && second == null
            && first.kind() == Operand.Kind.CONST && !Ids.isPair(first.entity()) && world.isAlive(first.entity())
            && world.has(first.entity(), Builtin.SINGLETON)) {
            // Flecs v4 Singleton trait: a plain term for the component matches on its own entity
            source = Operand.constant(first.entity(), first.text(), false);
        } else {
            source = source(srcRef, first, inScope);
        }
        boolean transitive = false, reflexive = false;
        if (first.kind() == Operand.Kind.CONST && second != null && second.kind() != Operand.Kind.ANY
            && !second.selfOnly() && source.kind() != Operand.Kind.ANY && !Ids.isPair(first.entity())
            && world.isAlive(first.entity())) {
            transitive = world.has(first.entity(), Builtin.TRANSITIVE);
            reflexive = transitive && world.has(first.entity(), Builtin.REFLEXIVE);
        }
        // a plain Inherit id's 'up IsA' was taken over by InheritedTerms above (srcRef lost it)
        Up up = UpRules.of(world, t, srcRef, first, transitive);
        if (first.kind() == Operand.Kind.CONST) {
            noteBuiltin(first.entity());
        }
        if (second != null && (first.kind() != Operand.Kind.CONST || !Ids.isPair(first.entity()))) {
            inherit = InheritedTerms.pairs(world, first, srcRef.traversal(), transitive,
                source.kind() == Operand.Kind.ANY);
            if (first.kind() == Operand.Kind.CONST && !first.selfOnly()) {
                inherit = InheritedTerms.substitute(world, inherit, first.entity(), srcRef.traversal(), transitive,
                    source.kind() == Operand.Kind.ANY, t.toString(), t.column());
                // substitute widens with every alive subset, or returns pairs()' Inherit (no derived ids) when none
                subsetLists.add(new Plan.SubsetList(first.entity(), false, inherit.derived()));
            }
        }
        if (second != null && second.kind() == Operand.Kind.CONST) {
            noteBuiltin(second.entity());
        }
        if (second != null && second.isVar() && source.isVar() && second.slot() == source.slot()
            && first.kind() == Operand.Kind.CONST && (transitive || (!Ids.isPair(first.entity())
            && world.isAlive(first.entity()) && world.has(first.entity(), Builtin.ACYCLIC)))) {
            // Flecs rejects R($x, $x) for an acyclic R, and Transitive implies Acyclic
            throw new QuerySyntaxException("variable '" + second.text() + "' is both source and target of acyclic"
                + " relationship '" + first.text() + "' at column " + t.second().column(), second.text(),
                t.second().column());
        }
        return new ResolvedTerm(t, first, second, source, null, null, transitive, reflexive, false, inherit, up, null);
    }

    /** A member-value term {@code Comp.member(src, T)} ({@link MemberTerms}). */
    private ResolvedTerm resolveMember(Term t, ResolvedTerm.Member m, boolean inScope) {
        MemberTerms.check(world, t, m);
        // check refuses a component with subsets in use, so it had none: refused once one comes into use
        subsetLists.add(new Plan.SubsetList(m.component(), true, new long[0]));
        TermRef f = t.first();
        Operand first = Operand.constant(m.component(), f.name().substring(0, f.name().length() - m.name().length() - 1),
            false);
        if (t.source().kind() != TermRef.Kind.DEFAULT && t.source().isVariable()) {
            slot(t.source().name(), inScope); // register variables in written order: C.m($src, $v)
        }
        Operand second = element(t.second(), inScope, false);
        Operand source = source(t.source(), first, inScope);
        if (second.kind() == Operand.Kind.CONST) {
            noteBuiltin(second.entity());
        }
        return new ResolvedTerm(t, first, second, source, null, null, false, false, false, ResolvedTerm.Inherit.NONE,
            null, m);
    }

    private void noteBuiltin(long e) {
        if (e == Builtin.PREFAB) {
            matchPrefab = true;
        } else if (e == Builtin.DISABLED || e == Builtin.DISABLED_RELATIONSHIP) {
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

    /**
     * The target of a pair whose relationship has the OneOf trait (plain {@code OneOf}: the scope
     * is the relationship; {@code (OneOf, P)}: the scope is P), or null when that does not apply
     * (no OneOf, or the target is not a name). A name is looked up in the scope first, so
     * {@code (Mode, On)} means {@code (Mode, Mode.On)}; a full path works too. A target that is
     * not a child of the scope is refused, as Flecs does ("must be child of", conformance NOTES
     * K13).
     *
     * @throws QuerySyntaxException when the target is outside the OneOf scope
     */
    private Operand oneOfTarget(Operand first, TermRef r) {
        Traversal tr = r.traversal();
        if (r.kind() != TermRef.Kind.ENTITY || r.isNumeric() || (!tr.isNone() && !tr.selfOnly())
            || first.kind() != Operand.Kind.CONST
            || Ids.isPair(first.entity()) || !world.isAlive(first.entity())) {
            return null;
        }
        long rel = first.entity();
        long scope = 0;
        if (world.has(rel, Builtin.ONE_OF)) {
            scope = rel;
        } else {
            long[] t = world.targets(rel, Builtin.ONE_OF);
            scope = t.length > 0 ? t[0] : 0;
        }
        if (scope == 0) {
            return null;
        }
        long e = world.lookup(world.path(scope) + "." + r.name());
        if (e == 0) {
            e = lookup(r.name(), r.column());
        }
        if (world.parent(e) != scope) {
            throw new QuerySyntaxException("target '" + r.name() + "' of OneOf relationship '" + first.text()
                + "' must be a child of '" + world.path(scope) + "' at column " + r.column(), r.name(), r.column());
        }
        return Operand.constant(e, r.name(), tr.selfOnly());
    }

    private Operand source(TermRef r, Operand first, boolean inScope) {
        Traversal tr = r.traversal();
        if (tr.relationship() != null) {
            lookup(tr.relationship().name(), tr.relationship().column());
        }
        // up / cascade / desc are checked and resolved by UpRules once the term's id is known
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
     * variable they read is not bound by an earlier written term. A variable set before
     * evaluation ({@code Query.set}, {@code --var}) is bound from the start, so
     * {@code $this != sf, City} with {@code $this} set is accepted (Flecs v4 iterator variables
     * are bound before the query runs).
     */
    private void checkPredicateOrder(List<Unit> units) {
        BitSet seen = new BitSet();
        for (String name : preset) {
            Integer slot = slotOf.get(name);
            if (slot != null) {
                seen.set(slot);
            }
        }
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
}
