package dev.quiver.query.parse;

/** Access modifiers written as a prefix {@code [in] T} (FEATURES.md QL-11, QS-25). */
public enum InOut {
    /** No modifier written. */
    DEFAULT,
    /** {@code [in]}: read only. */
    IN,
    /** {@code [out]}: write only. */
    OUT,
    /** {@code [inout]}: read and write. */
    INOUT,
    /** {@code [none]}: no data access. */
    NONE,
    /** {@code [filter]}: match only, no data. */
    FILTER;

    /** Text inside the brackets ("" for the default). */
    public String keyword() {
        return this == DEFAULT ? "" : name().toLowerCase(java.util.Locale.ROOT);
    }
}
