package dev.quiver.query.parse;

/**
 * One element of a term: its first (component or relationship), second (target) or source.
 * Unresolved: entity names are resolved against a world by the planner.
 *
 * <ul>
 *   <li>{@link Kind#ENTITY}: a name or dotted path ({@code a.b.c}), or an id literal made only of
 *       digits ({@code 100}, QL-02, ID-11).</li>
 *   <li>{@link Kind#VARIABLE}: {@code $name}; {@code $this} (and its alias {@code $This}) has the
 *       name {@code this}. {@code $this.cockpit} is a lookup variable with lookup {@code cockpit}
 *       (QL-18).</li>
 *   <li>{@link Kind#WILDCARD} {@code *}, {@link Kind#ANY} {@code _}.</li>
 *   <li>{@link Kind#SINGLETON} {@code $} (source only: the term's component itself, QL-06).</li>
 *   <li>{@link Kind#STRING}: a quoted name, right of an equality operator only (QL-20).</li>
 *   <li>{@link Kind#DEFAULT}: the implicit {@code $this} source of a term written without one;
 *       it may still carry traversal flags, as in {@code Position(up)}.</li>
 * </ul>
 *
 * @param kind what the element is
 * @param name entity path, variable name (without '$') or string content; "*", "_", "$" otherwise
 * @param lookup for a lookup variable, the child path after the first '.', else null
 * @param traversal flags written with the element ({@link Traversal#NONE} when none)
 * @param column 1-based column where the element starts (0 for an implicit source)
 */
public record TermRef(Kind kind, String name, String lookup, Traversal traversal, int column) {

    /** Element kinds. */
    public enum Kind {
        /** A name, dotted path or numeric id. */
        ENTITY,
        /** {@code $name}. */
        VARIABLE,
        /** {@code *}. */
        WILDCARD,
        /** {@code _}. */
        ANY,
        /** {@code $} as a source. */
        SINGLETON,
        /** A quoted string. */
        STRING,
        /** The implicit {@code $this} source. */
        DEFAULT
    }

    /** The name of the {@code $this} variable. */
    public static final String THIS = "this";

    /** The implicit {@code $this} source. */
    public static TermRef implicitThis(Traversal t) {
        return new TermRef(Kind.DEFAULT, THIS, null, t, 0);
    }

    /** True for {@code $this}, {@code $This} and the implicit source. */
    public boolean isThis() {
        return (kind == Kind.VARIABLE && THIS.equals(name) && lookup == null) || kind == Kind.DEFAULT;
    }

    /** True for a variable, including {@code $this} and the implicit source. */
    public boolean isVariable() {
        return kind == Kind.VARIABLE || kind == Kind.DEFAULT;
    }

    /** True for an entity written as a numeric id. */
    public boolean isNumeric() {
        if (kind != Kind.ENTITY || name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    /** Copy with other traversal flags. */
    public TermRef withTraversal(Traversal t) {
        return new TermRef(kind, name, lookup, t, column);
    }

    /** Canonical text of the element, flags included. */
    @Override
    public String toString() {
        String s;
        switch (kind) {
            case VARIABLE: s = "$" + name + (lookup != null ? "." + lookup : ""); break;
            case STRING: s = "\"" + name.replace("\\", "\\\\").replace("\"", "\\\"") + "\""; break;
            case DEFAULT: s = "$this"; break;
            default: s = name;
        }
        if (!traversal.isNone()) {
            s = s + "|" + traversal;
        }
        return s;
    }
}
