package dev.quiver.query.plan;

/**
 * The operations of a compiled query plan (after Flecs v4's instruction kinds, src/query/types.h).
 * The planner picks one per term from which of the term's elements are already bound when it runs.
 */
public enum OpKind {
    /** Source unbound, not transitive: walk the component index tables holding the id. */
    SELECT,
    /** Source bound or fixed, not transitive: match the id against the source's table type. */
    WITH,
    /** Transitive R, target fixed or bound, source unbound: walk the reverse index down from T. */
    TRANS_DOWN,
    /** Transitive R, source bound or fixed, target unbound: every entity reachable up from it. */
    TRANS_UP,
    /** Transitive R, both unbound: for each table with (R, *), the closure of its targets. */
    TRANS_ALL,
    /** Transitive R, both bound: reachability test. */
    TRANS_TEST,
    /**
     * {@code T(up R)} / {@code T(self|up R)}, source unbound: the holders of T and their
     * descendants through R (reverse index), each tested as {@link #UP_WITH}.
     */
    UP_SELECT,
    /** {@code T(up R)} / {@code T(self|up R)}, source bound or fixed: the nearest ancestor through R with T. */
    UP_WITH,
    /** {@code $v == x}: binds an unbound variable, tests a bound one. */
    PRED_EQ,
    /** {@code $v != x}. */
    PRED_NEQ,
    /** {@code $v ~= "sub"}. */
    PRED_MATCH,
    /** {@code !term}: succeeds when the inner operation has no match. */
    NOT,
    /** {@code ?term}: the inner operation's matches, or one unset result. */
    OPTIONAL,
    /** {@code a || b}: the matches of the first alternative that has any. */
    OR,
    /** {@code !{ ... }}: succeeds when the inner steps have no solution. */
    NOT_SCOPE,
    /**
     * Binds {@code $this} to every entity (queries without a positive {@code $this} term, QS-49);
     * with {@code $this} set before evaluation, tests that one entity the same way (its table
     * looked up in the entity index: Builtin entities, Prefab and Disabled tables left out).
     */
    EACH,
    /**
     * {@code $this} set before evaluation ({@code Query.set("this", e)}) in a query with a positive
     * {@code $this} term: the first step; looks up the entity's table and row in the entity index
     * (no table walk) so that the later terms test that one entity; no result when it is not alive.
     */
    THIS_SET,
    /**
     * {@code Comp.member(src, T)}, source unbound: every instance of Comp, table by table, whose
     * entity member matches T, {@code *} or {@code $v} (QS-23).
     */
    MEMBER_SELECT,
    /** {@code Comp.member(src, T)}, source bound or fixed: the source's own Comp instance. */
    MEMBER_WITH,
    /** {@code and | E}: the steps of E's ids in order (a positive block); sets the field to E (QS-24). */
    AND_FROM,
    /** {@code or | E}: an {@link #OR} over E's ids; sets the field to E. */
    OR_FROM,
    /** {@code not | E}: succeeds when the {@link #OR} over E's ids has no match; the field stays unset. */
    NOT_FROM
}
