package dev.quiver.query.builder;

import dev.quiver.query.parse.TermRef;
import dev.quiver.query.parse.Traversal;

import java.util.Set;

/**
 * Reads one element given to the builder as a string, with the spelling of the query language:
 * a name or dotted path ({@code a.b.c}, {@code a::b}), a numeric id ({@code 100}), a variable
 * ({@code $x}, {@code $this}, {@code $This}, a lookup {@code $this.child}), {@code *}, {@code _},
 * ({@code $} alone, the removed singleton source, is refused). Anything else (flags, spaces, operators) is refused:
 * the builder's element is one element, never a piece of query text.
 */
final class Elements {
    private Elements() {}

    /** Where an element goes. */
    enum Place { FIRST, SECOND, SOURCE }

    /** Words the parser reads as traversal flags when they stand as a source. */
    private static final Set<String> FLAGS = Set.of("self", "up", "cascade", "desc", "parent", "super", "superset",
        "subset", "sub", "all", "down");

    /**
     * @param s the element text
     * @param place where it goes (for {@code $} and flag words)
     * @param what the call, for messages ({@code "term 2: src(...)"})
     * @throws QueryBuilderException when {@code s} is not one element
     */
    static TermRef parse(String s, Place place, String what) {
        if (s == null || s.isEmpty()) {
            throw new QueryBuilderException(what + ": empty element");
        }
        switch (s) {
            case "*": return new TermRef(TermRef.Kind.WILDCARD, "*", null, Traversal.NONE, 0);
            case "_": return new TermRef(TermRef.Kind.ANY, "_", null, Traversal.NONE, 0);
            case "$":
                throw new QueryBuilderException(what + ": the '$' source was removed in Flecs v4.1; use singleton()");
            default:
                break;
        }
        if (s.charAt(0) == '$') {
            return variable(s.substring(1), what);
        }
        String path = path(s, what);
        if (place == Place.SOURCE && FLAGS.contains(path)) {
            throw new QueryBuilderException(what + ": '" + s + "' is a traversal flag, not a source;"
                + " use self(), up(), cascade(), desc() or parent()");
        }
        return new TermRef(TermRef.Kind.ENTITY, path, null, Traversal.NONE, 0);
    }

    /** A variable name without '$' (possibly a lookup {@code this.child}). */
    static TermRef variable(String name, String what) {
        if (name == null || name.isEmpty() || !nameChar(name.charAt(0))) {
            throw new QueryBuilderException(what + ": '$" + (name == null ? "" : name) + "' is not a variable name");
        }
        String full = path(name, what);
        String lookup = null;
        int dot = full.indexOf('.');
        if (dot >= 0) {
            lookup = full.substring(dot + 1);
            full = full.substring(0, dot);
        }
        if ("This".equals(full)) {
            full = TermRef.THIS;
        }
        return new TermRef(TermRef.Kind.VARIABLE, full, lookup, Traversal.NONE, 0);
    }

    /** A name or path as the lexer reads it, '::' written as '.'. */
    private static String path(String s, String what) {
        StringBuilder sb = new StringBuilder();
        int i = 0;
        while (true) {
            int start = i;
            while (i < s.length() && (i == start ? nameChar(s.charAt(i)) : namePart(s.charAt(i)))) {
                i++;
            }
            if (i == start) {
                throw bad(s, what);
            }
            sb.append(s, start, i);
            if (i == s.length()) {
                return sb.toString();
            }
            if (s.charAt(i) == '.') {
                i++;
            } else if (s.startsWith("::", i)) {
                i += 2;
            } else {
                throw bad(s, what);
            }
            sb.append('.');
        }
    }

    private static QueryBuilderException bad(String s, String what) {
        return new QueryBuilderException(what + ": '" + s + "' is not one element (a name, path, numeric id,"
            + " $variable, * or _)");
    }

    private static boolean nameChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    }

    private static boolean namePart(char c) {
        return nameChar(c) || c == '-';
    }
}
