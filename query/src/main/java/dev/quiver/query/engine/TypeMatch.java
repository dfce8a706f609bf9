package dev.quiver.query.engine;

import dev.quiver.index.Ids;
import dev.quiver.storage.table.Types;
import it.unimi.dsi.fastutil.longs.LongArrayList;

import java.util.function.IntPredicate;

/**
 * Matches a term's id pattern against a table type (a sorted id vector). Pairs have bit 63 set,
 * so they sort before plain ids, and the pairs of one relationship are contiguous: {@code (R, *)}
 * is a binary search plus a short scan. A wildcard relationship never matches Disabled or a toggle
 * companion: {@code (Disabled, C)} and {@code (R~, T)} are C and {@code (R, T)} held disabled (Flecs v4
 * CanToggle skips a disabled id in every term), so {@code (*, T)} reports neither.
 */
final class TypeMatch {
    private TypeMatch() {}

    /**
     * Appends to {@code out} every id of {@code type} that matches the pattern.
     *
     * @param type sorted id vector
     * @param pair the term is a pair term
     * @param first the first element's entity, or 0 for any ({@code *}, {@code _}, unbound var)
     * @param second the second element's entity, or 0 for any (ignored unless {@code pair})
     * @param anyFirst the first element is {@code _} (at most one match per distinct rest)
     * @param anySecond the second element is {@code _}
     * @param toggled the relationships (entity indices) a wildcard first element never matches:
     *     Disabled and toggle companions, whose pairs stand for disabled ids
     *     ({@code TableAccess.toggleRelationships})
     */
    static void match(long[] type, boolean pair, long first, long second, boolean anyFirst, boolean anySecond,
                      IntPredicate toggled, LongArrayList out) {
        int start = out.size();
        if (!pair) {
            if (first != 0) {
                if (java.util.Arrays.binarySearch(type, first) >= 0) {
                    out.add(first);
                }
                return;
            }
            for (long id : type) {
                if (!Ids.isPair(id)) {
                    out.add(id);
                    if (anyFirst) {
                        return;
                    }
                }
            }
            return;
        }
        if (first != 0 && second != 0) {
            long id = Ids.pair(first, second);
            if (java.util.Arrays.binarySearch(type, id) >= 0) {
                out.add(id);
            }
            return;
        }
        int s = second == 0 ? -1 : Ids.index(second);
        if (first != 0) {
            int f = Ids.index(first);
            for (int k = Types.pairsStart(type, f); Types.isPairOf(type, k, f); k++) {
                if (s < 0 || Ids.second(type[k]) == s) {
                    out.add(type[k]);
                    if (anySecond) {
                        return;
                    }
                }
            }
            return;
        }
        for (int k = 0; k < type.length && Ids.isPair(type[k]); k++) {
            long id = type[k];
            if ((s >= 0 && Ids.second(id) != s) || toggled.test(Ids.first(id))) {
                continue;
            }
            if (anyFirst || anySecond) {
                if (seen(out, start, id, anyFirst, anySecond)) {
                    continue;
                }
            }
            out.add(id);
        }
    }

    /** True when an earlier match agrees with id on every position that is not {@code _}. */
    private static boolean seen(LongArrayList out, int start, long id, boolean anyFirst, boolean anySecond) {
        for (int i = start; i < out.size(); i++) {
            long o = out.getLong(i);
            boolean f = anyFirst || Ids.first(o) == Ids.first(id);
            boolean s = anySecond || Ids.second(o) == Ids.second(id);
            if (f && s) {
                return true;
            }
        }
        return false;
    }
}
