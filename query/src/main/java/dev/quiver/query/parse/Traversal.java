package dev.quiver.query.parse;

/**
 * Traversal flags written after a term element with {@code |}, or inside the source parentheses
 * (Flecs v4: {@code self}, {@code up}, {@code up R}, {@code cascade}, {@code desc}; older
 * aliases {@code up(R)}, {@code parent} = {@code up ChildOf}, {@code super}/{@code superset} =
 * {@code up}; FEATURES.md QL-15..QL-17). On a pair target, {@code self} turns transitivity off
 * ({@code (LocatedIn, *|self)}, QS-31).
 *
 * @param self {@code self} was written
 * @param up {@code up} (or an alias) was written
 * @param cascade {@code cascade} was written
 * @param desc {@code desc} was written
 * @param relationship the relationship written after {@code up}/{@code cascade}, or null (ChildOf)
 * @param column 1-based column of the first flag
 */
public record Traversal(boolean self, boolean up, boolean cascade, boolean desc, TermRef relationship, int column) {

    /** No flags written. */
    public static final Traversal NONE = new Traversal(false, false, false, false, null, 0);

    /** True when no flag was written. */
    public boolean isNone() {
        return !self && !up && !cascade && !desc && relationship == null;
    }

    /** True when only {@code self} was written (no traversal up). */
    public boolean selfOnly() {
        return self && !up && !cascade;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        if (self) sb.append("self");
        if (up) sb.append(sb.length() > 0 ? "|" : "").append("up");
        if (cascade) sb.append(sb.length() > 0 ? "|" : "").append("cascade");
        // the relationship right after up/cascade, where the parser reads it (before desc)
        if (relationship != null) sb.append(' ').append(relationship);
        if (desc) sb.append(sb.length() > 0 ? "|" : "").append("desc");
        return sb.toString();
    }
}
