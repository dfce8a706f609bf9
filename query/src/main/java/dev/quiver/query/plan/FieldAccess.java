package dev.quiver.query.plan;

import dev.quiver.index.Ids;
import dev.quiver.query.QueryValidationException;
import dev.quiver.query.parse.InOut;
import dev.quiver.query.parse.Term;
import dev.quiver.storage.World;

import java.util.Arrays;
import java.util.List;

/**
 * Access modifiers ({@code [in]}, {@code [out]}, {@code [inout]}, {@code [none]}, {@code [filter]};
 * FEATURES.md QL-11, QS-25): checks the written ones and computes the access of each field.
 *
 * <p><b>Default access</b> (no modifier written; after Flecs v4 {@code flecs_query_finalize_terms}):
 * <ul>
 *   <li>{@link InOut#NONE} for fields without data: tags (an id whose {@link World#schema} is null),
 *       ids with a variable or wildcard first element, pairs with a variable or wildcard target
 *       whose relationship has no schema, Not terms, equality terms, *From terms, the {@code _}
 *       source, and an Or chain whose alternatives carry different components;</li>
 *   <li>{@link InOut#INOUT} for data owned by {@code $this}: the source is {@code $this}, without
 *       {@code up} traversal, IsA-inherited value or transitive path;</li>
 *   <li>{@link InOut#IN} for other data: fixed and singleton sources, other variables, lookup
 *       variables, {@code up} traversal, values inherited through IsA ({@code self|up IsA} of an
 *       {@code (OnInstantiate, Inherit)} component) and transitive pair terms.</li>
 * </ul>
 * A member-value term carries its component's data. An Or field carries
 * data only when every alternative carries the same component (Flecs: the same type). A written modifier is kept as written; a
 * field's access is never {@link InOut#DEFAULT}.
 *
 * <p><b>Refused combinations</b> ({@link QueryValidationException}, naming the term and the
 * column of its modifier): a *From term with a modifier other than {@code [none]} (Flecs v4
 * "invalid inout value for AndFrom/OrFrom/NotFrom term"); any modifier on a {@code !{...}} scope,
 * which has no field; {@code [in]}, {@code [out]} or {@code [inout]} on an equality term, which
 * reads no component; and the alternatives of one {@code ||} field written with different
 * modifiers.
 */
final class FieldAccess {
    private FieldAccess() {}

    /**
     * Checks the modifier written on one term.
     *
     * @throws QueryValidationException for the combinations the class comment lists
     */
    static void check(Term t) {
        InOut m = t.inout();
        if (m == InOut.DEFAULT) {
            return;
        }
        String mod = "[" + m.keyword() + "]";
        switch (t.oper()) {
            case AND_FROM:
            case OR_FROM:
            case NOT_FROM:
                if (m != InOut.NONE) {
                    throw refuse(mod, t, "a *From term's field never has data; only [none] is allowed");
                }
                return;
            default:
                break;
        }
        if (t.isScope()) {
            throw refuse(mod, t, "a query scope has no field");
        }
        if (t.isEquality() && m != InOut.NONE && m != InOut.FILTER) {
            throw refuse(mod, t, "an equality term reads no component");
        }
    }

    /**
     * Checks that the terms of one Or chain do not disagree on their written modifiers.
     *
     * @throws QueryValidationException when two alternatives carry different modifiers
     */
    static void checkChain(List<ResolvedTerm> chain) {
        InOut seen = InOut.DEFAULT;
        for (ResolvedTerm r : chain) {
            InOut m = r.ast().inout();
            if (m == InOut.DEFAULT) {
                continue;
            }
            if (seen != InOut.DEFAULT && seen != m) {
                throw refuse("[" + m.keyword() + "]", r.ast(), "the alternatives of one '||' field have different"
                    + " access modifiers ([" + seen.keyword() + "] before)");
            }
            seen = m;
        }
    }

    private static QueryValidationException refuse(String mod, Term t, String why) {
        return new QueryValidationException("invalid access modifier " + mod + " on '" + t + "': " + why
            + ", at column " + t.column(), mod, t.column());
    }

    /** The access of every field of a query whose top-level units are {@code units}. */
    static InOut[] of(World world, List<Unit> units, int fields) {
        InOut[] out = new InOut[fields];
        Arrays.fill(out, InOut.NONE);
        for (Unit u : units) {
            if (u.field >= 0) {
                out[u.field] = of(world, u);
            }
        }
        return out;
    }

    private static InOut of(World world, Unit u) {
        if (u.fromTerm != null) {
            InOut m = u.fromTerm.ast().inout();
            return m == InOut.DEFAULT ? InOut.NONE : m;
        }
        for (ResolvedTerm r : u.terms) {
            if (r.ast().inout() != InOut.DEFAULT) {
                return r.ast().inout();
            }
        }
        switch (u.kind) {
            case AND:
            case OPTIONAL:
                return ofTerm(world, u.terms.get(0));
            case OR: {
                long first = dataType(world, u.terms.get(0));
                for (ResolvedTerm r : u.terms) {
                    if (dataType(world, r) != first) {
                        return InOut.NONE;
                    }
                }
                return ofTerm(world, u.terms.get(0));
            }
            default:
                return InOut.NONE;
        }
    }

    private static InOut ofTerm(World world, ResolvedTerm r) {
        if (r.predicate() != null || dataType(world, r) == 0 || r.source().kind() == Operand.Kind.ANY) {
            return InOut.NONE;
        }
        Operand src = r.source();
        boolean owned = src.isVar() && src.slot() == 0 && r.up() == null && !r.inherit().up() && !r.transitive();
        return owned ? InOut.INOUT : InOut.IN;
    }

    /**
     * The component whose schema the term's field carries (for a pair its relationship or target,
     * by the pair type rules of {@link World#schema}), or 0 when the field has no data or its type
     * is unknown before evaluation.
     */
    private static long dataType(World world, ResolvedTerm r) {
        if (r.predicate() != null) {
            return 0;
        }
        if (r.member() != null) {
            return r.member().component();
        }
        if (r.first().kind() != Operand.Kind.CONST) {
            return 0;
        }
        long f = r.first().entity();
        if (Ids.isPair(f)) {
            return 0;
        }
        if (r.second() == null) {
            return world.schema(f) != null ? f : 0;
        }
        if (world.schema(Ids.pairOfIndices(Ids.index(f), Ids.WILDCARD_INDEX)) != null) {
            return f; // the relationship carries the data (variable and wildcard targets included)
        }
        if (r.second().kind() == Operand.Kind.CONST && world.schema(Ids.pair(f, r.second().entity())) != null) {
            return r.second().entity();
        }
        return 0;
    }
}
