package dev.quiver.query.parse;

/** Equality predicates of the Flecs v4 Query Language (FEATURES.md QL-12, QS-19, QS-20). */
public enum Predicate {
    /** {@code $v == E} or {@code $v == "Name"}: binds an unbound variable, compares a bound one. */
    EQ("=="),
    /** {@code $v != E}: the bound variable is not E. */
    NEQ("!="),
    /** {@code $v ~= "sub"}: the bound entity's name contains sub ({@code "!sub"}: does not). */
    MATCH("~=");

    private final String symbol;

    Predicate(String symbol) {
        this.symbol = symbol;
    }

    /** The operator as written. */
    public String symbol() {
        return symbol;
    }
}
