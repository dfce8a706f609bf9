package dev.quiver.query.plan;

import dev.quiver.query.parse.Predicate;
import dev.quiver.query.parse.Term;

/**
 * An id or equality term with its names resolved against the world (the validator stage). For an
 * id term, {@code first} is the component or relationship, {@code second} the target (null for a
 * plain id) and {@code source} the entity the term is matched on. For an equality term,
 * {@code source} is the variable on the left and {@code second} the right side ({@code first} is
 * null; {@code text} holds a quoted right side).
 *
 * @param ast the parsed term
 * @param first resolved first element, or null for equality terms
 * @param second resolved second element, or null
 * @param source resolved source
 * @param predicate equality operator, or null for id terms
 * @param text the string on the right of an equality, or null
 * @param transitive the relationship has the Transitive trait (Flecs v4 Transitive) and the
 *     term follows it: the first is a constant, the target is not {@code _} and has no
 *     {@code |self}, the source is not {@code _}
 * @param reflexive the relationship also has the Reflexive trait
 * @param selfNeedsPair for a reflexive term with a variable or {@code *} target when no earlier
 *     written term binds its source or its target: the reflexive self row R(x, x) exists only for
 *     entities that have at least one R pair, whatever order the planner runs the terms in (Flecs
 *     v4 behaviour, conformance NOTES K4); when false, every source gets it, and the planner runs
 *     the term only once its source or target is bound
 * @param inherit how IsA inheritance widens the term ({@link Inherit#NONE} for most terms)
 * @param up the upward traversal of the source ({@code up R}, {@code self|up R}), or null when the
 *     term matches on the source itself
 * @param member for a member-value term {@code Comp.member(src, T)} (FEATURES.md QL-19, QS-23), the
 *     entity-typed member it reads ({@code first} is then the component, {@code second} the value);
 *     null for every other term
 */
public record ResolvedTerm(Term ast, Operand first, Operand second, Operand source, Predicate predicate,
                           String text, boolean transitive, boolean reflexive, boolean selfNeedsPair,
                           Inherit inherit, Up up, Member member) {

    /**
     * The member a member-value term reads: field {@code index} (named {@code name}, of type
     * {@link dev.quiver.storage.FieldType#ENTITY}) of component {@code component}'s schema.
     */
    public record Member(long component, int index, String name) {}

    /**
     * IsA inheritance of a term on a plain fixed id X (Flecs v4, FEATURES ISA-10, ISA-12):
     *
     * @param derived the ids D in use with {@code (IsA, X)} (transitively) the term matches too
     *     (component inheritance; the field reports the id held); for a pair term, the
     *     relationships that are IsA subsets of its fixed relationship (pair substitution:
     *     {@code (R, T)} matches {@code (D, T)} too); empty when none
     * @param self the source's own ids match (every term but {@code X(up IsA)})
     * @param up an IsA base of the source that owns X matches, the nearest one as the field's
     *     source (X is {@code (OnInstantiate, Inherit)}: {@code self|up IsA} by default)
     * @param pairs a pair or wildcard term (not transitive, no traversal written) evaluated by
     *     the inheritance ops: the source's own matching pairs, and (when {@code up}: source not
     *     {@code _}, a pattern that may match Inherit pairs) the
     *     matching Inherit pairs it sees through its IsA bases and does not own, each reported with
     *     the nearest base holding it (depth first, bases in type order) as the field's source: the
     *     ids {@code has} sees (Flecs v4 {@code self|up IsA} for Inherit ids; IsA pairs are Inherit,
     *     conformance NOTES K5)
     */
    public record Inherit(long[] derived, boolean self, boolean up, boolean pairs) {
        /** Own ids only: no component inheritance, no IsA traversal. */
        public static final Inherit NONE = new Inherit(new long[0], true, false, false);

        /** Self, then up IsA for the Inherit pairs a pair or wildcard term matches. */
        public static final Inherit PAIRS = new Inherit(new long[0], true, true, true);

        /** True when the term is matched the ordinary way (own ids only). */
        public boolean none() {
            return derived.length == 0 && self && !up;
        }
    }

    ResolvedTerm(Term ast, Operand first, Operand second, Operand source, Predicate predicate,
                 String text, boolean transitive, boolean reflexive, boolean selfNeedsPair) {
        this(ast, first, second, source, predicate, text, transitive, reflexive, selfNeedsPair, Inherit.NONE, null, null);
    }

    ResolvedTerm withSelfNeedsPair(boolean b) {
        return new ResolvedTerm(ast, first, second, source, predicate, text, transitive, reflexive, b, inherit, up, member);
    }

    ResolvedTerm withInherit(Inherit i) {
        return new ResolvedTerm(ast, first, second, source, predicate, text, transitive, reflexive, selfNeedsPair, i, up, member);
    }

    /** True when evaluating the term can give {@code slot} a value (not a lookup base, not a filter). */
    boolean canBind(int slot) {
        if (predicate != null) {
            return predicate == Predicate.EQ && source.slot() == slot;
        }
        for (Operand o : new Operand[] {first, second, source}) {
            if (o != null && o.isVar() && o.slot() == slot) {
                return true;
            }
        }
        return false;
    }

    /** The slots this term mentions, in first/second/source order (with repeats). */
    int[] slots() {
        int[] tmp = new int[3];
        int n = 0;
        for (Operand o : new Operand[] {first, second, source}) {
            if (o != null && (o.kind() == Operand.Kind.VAR || o.kind() == Operand.Kind.LOOKUP)) {
                tmp[n++] = o.slot();
            }
        }
        return java.util.Arrays.copyOf(tmp, n);
    }

    @Override
    public String toString() {
        if (predicate != null) {
            return source + " " + predicate.symbol() + " " + (text != null ? "\"" + text + "\"" : second);
        }
        String id = second == null ? first.toString() : "(" + first + "," + second + ")";
        if (member != null) {
            id = "(" + first.text() + "." + member.name() + "," + second + ")";
        }
        return id + "(" + source + (up != null ? "|" + up : "") + ")";
    }
}
