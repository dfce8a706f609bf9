package dev.quiver.storage.entity;

import dev.quiver.index.Ids;
import dev.quiver.storage.IdException;

import java.util.function.ToLongFunction;

/**
 * The text form of an id (Flecs v4 id syntax): a path ({@code Position}, {@code a.b}) or a pair
 * {@code (R, T)} whose elements are paths, {@code *} or {@code _}. Parsing only: the caller says
 * how a path element becomes an entity (looked up, or created).
 */
public final class IdText {
    private IdText() {}

    /**
     * Parses an id.
     *
     * @param element turns a path element into an entity id (throws when it resolves to nothing)
     * @throws IdException when the text is malformed
     */
    public static long parse(String text, ToLongFunction<String> element) {
        String s = text == null ? "" : text.trim();
        if (s.startsWith("(")) {
            if (!s.endsWith(")")) {
                throw new IdException("malformed pair '" + text + "': missing ')'");
            }
            String inner = s.substring(1, s.length() - 1);
            int comma = inner.indexOf(',');
            if (comma < 0 || inner.indexOf(',', comma + 1) >= 0) {
                throw new IdException("malformed pair '" + text + "': expected (relationship, target)");
            }
            long r = element(inner.substring(0, comma).trim(), element, text);
            long t = element(inner.substring(comma + 1).trim(), element, text);
            return pair(r, t);
        }
        if (s.isEmpty()) {
            throw new IdException("empty id");
        }
        if (s.contains("(") || s.contains(")") || s.contains(",")) {
            throw new IdException("malformed id '" + text + "'");
        }
        return element(s, element, text);
    }

    /**
     * The pair {@code (relationship, target)} ({@link Ids#pair}).
     *
     * @throws IdException when an element is itself a pair
     */
    public static long pair(long relationship, long target) {
        try {
            return Ids.pair(relationship, target);
        } catch (IllegalArgumentException e) {
            throw new IdException(e.getMessage());
        }
    }

    private static long element(String s, ToLongFunction<String> element, String whole) {
        if (s.isEmpty()) {
            throw new IdException("malformed pair '" + whole + "': empty element");
        }
        if (s.equals("*")) {
            return Ids.WILDCARD;
        }
        if (s.equals("_")) {
            return Ids.ANY;
        }
        return element.applyAsLong(s);
    }
}
