package dev.quiver.storage.entity;

import dev.quiver.storage.IdException;

/**
 * The one name grammar (Flecs v4 entity names and paths): a name is one or more of
 * {@code [A-Za-z0-9_-]} and not all digits (digits refer to entity ids, FEATURES ID-11); a path
 * joins names from the root down with {@code .}, and {@code ::} is accepted for {@code .}.
 */
public final class Names {
    private Names() {}

    /**
     * Splits a path into its names (not checked: lookups of malformed names simply find nothing).
     *
     * @throws IdException for a null path
     */
    public static String[] split(String path) {
        if (path == null) {
            throw new IdException("null path");
        }
        if (path.indexOf('.') < 0 && path.indexOf(':') < 0) {
            return new String[] {path}; // one name: most lookups
        }
        return path.replace("::", ".").split("\\.", -1);
    }

    /**
     * Checks a name a new entity is to carry.
     *
     * @throws IdException when it is empty, holds a character outside {@code [A-Za-z0-9_-]}, or is
     *                     all digits
     */
    public static void check(String name) {
        if (name.isEmpty()) {
            throw new IdException("empty name in path");
        }
        boolean digits = true;
        for (int i = 0, n = name.length(); i < n; i++) {
            char c = name.charAt(i);
            if (c >= '0' && c <= '9') {
                continue;
            }
            digits = false;
            if (!(c == '_' || c == '-' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) {
                throw new IdException("invalid character '" + c + "' in name '" + name + "' (allowed: A-Z a-z 0-9 _ -)");
            }
        }
        if (digits) {
            throw new IdException("name '" + name + "' is all digits (digits refer to entity ids)");
        }
    }

    /** True when every character is a digit (such a path element names an entity by index). */
    public static boolean allDigits(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (!Character.isDigit(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
