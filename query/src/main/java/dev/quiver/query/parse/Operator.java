package dev.quiver.query.parse;

/**
 * Term operators (Flecs v4 ecs_oper_kind_t). In an Or chain {@code A || B || C} every term except
 * the last carries {@link #OR} and the last carries {@link #AND} (v4 convention, FEATURES.md QL-25).
 */
public enum Operator {
    /** The term must match (the default; ',' joins terms with And). */
    AND,
    /** The term and the next one form an Or chain ({@code ||}). */
    OR,
    /** {@code !term}: the term must not match; its field is never set. */
    NOT,
    /** {@code ?term}: the term never restricts; its field is unset when it does not match. */
    OPTIONAL,
    /** {@code and | E}: every id of E must match. */
    AND_FROM,
    /** {@code or | E}: at least one id of E must match. */
    OR_FROM,
    /** {@code not | E}: no id of E may match. */
    NOT_FROM;

    /** The operator's prefix in query text ("" for And and Or). */
    public String prefix() {
        switch (this) {
            case NOT: return "!";
            case OPTIONAL: return "?";
            case AND_FROM: return "and | ";
            case OR_FROM: return "or | ";
            case NOT_FROM: return "not | ";
            default: return "";
        }
    }
}
