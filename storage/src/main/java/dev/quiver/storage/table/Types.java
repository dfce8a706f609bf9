package dev.quiver.storage.table;

import dev.quiver.index.Ids;
import dev.quiver.storage.Builtin;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;

import java.util.Arrays;

/**
 * Operations on types, the sorted id vectors of tables (Flecs v4 {@code ecs_type_t}): insertion,
 * removal, the pairs of a relationship, wildcard matching, and the component-index keys a type
 * files under. Each rule exists here once; the world and the query module use it.
 */
public final class Types {
    private Types() {}

    /** The type with {@code id} added (the same array when it is already there). */
    public static long[] insert(long[] type, long id) {
        int pos = Arrays.binarySearch(type, id);
        if (pos >= 0) {
            return type;
        }
        pos = -pos - 1;
        long[] nt = new long[type.length + 1];
        System.arraycopy(type, 0, nt, 0, pos);
        nt[pos] = id;
        System.arraycopy(type, pos, nt, pos + 1, type.length - pos);
        return nt;
    }

    /** The type without {@code id} (the same array when it is absent). */
    public static long[] remove(long[] type, long id) {
        int pos = Arrays.binarySearch(type, id);
        if (pos < 0) {
            return type;
        }
        long[] nt = new long[type.length - 1];
        System.arraycopy(type, 0, nt, 0, pos);
        System.arraycopy(type, pos + 1, nt, pos, nt.length - pos);
        return nt;
    }

    /**
     * True when a concrete id matches a pattern id that may hold {@code *} or {@code _} (Flecs v4
     * wildcard matching: either may stand for any element of a pair, or for any plain id).
     */
    public static boolean matches(long pattern, long id) {
        if (pattern == id) {
            return true;
        }
        if (!Ids.isPair(pattern)) {
            return pattern == Ids.WILDCARD || pattern == Ids.ANY;
        }
        if (!Ids.isPair(id)) {
            return false;
        }
        int pf = Ids.first(pattern), ps = Ids.second(pattern);
        boolean f = pf == Ids.WILDCARD_INDEX || pf == Ids.ANY_INDEX || pf == Ids.first(id);
        boolean s = ps == Ids.WILDCARD_INDEX || ps == Ids.ANY_INDEX || ps == Ids.second(id);
        return f && s;
    }

    /** True when some id of the type matches {@code pattern} ({@link #matches}). */
    public static boolean hasMatch(long[] type, long pattern) {
        if (!Ids.isWildcard(pattern)) {
            return Arrays.binarySearch(type, pattern) >= 0;
        }
        for (long have : type) {
            if (matches(pattern, have)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Where the pairs of {@code relationship} start in a type: pairs sort before plain ids and the
     * pairs of one relationship are contiguous, so they are {@code type[k]} for k from this
     * position while {@link #isPairOf} holds (a binary search, then a short scan).
     */
    public static int pairsStart(long[] type, int relationship) {
        long key = Ids.pairOfIndices(relationship, 0);
        int lo = 0, hi = type.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (type[mid] < key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** True when {@code type[k]} exists and is a pair of {@code relationship}. */
    public static boolean isPairOf(long[] type, int k, int relationship) {
        return k < type.length && Ids.isPair(type[k]) && Ids.first(type[k]) == relationship;
    }

    /** True when the type holds some pair {@code (relationship, T)}. */
    public static boolean hasPairOf(long[] type, int relationship) {
        return isPairOf(type, pairsStart(type, relationship), relationship);
    }

    /**
     * The target index of the first pair {@code (relationship, T)} of the type, or 0 when there is
     * none (for an Exclusive relationship, the only one).
     */
    public static int target(long[] type, int relationship) {
        int k = pairsStart(type, relationship);
        return isPairOf(type, k, relationship) ? Ids.second(type[k]) : 0;
    }

    /** The target indices of every pair {@code (relationship, T)} of the type, in id order. */
    public static int[] targets(long[] type, int relationship) {
        int from = pairsStart(type, relationship), to = from;
        while (isPairOf(type, to, relationship)) {
            to++;
        }
        int[] out = new int[to - from];
        for (int k = from; k < to; k++) {
            out[k - from] = Ids.second(type[k]);
        }
        return out;
    }

    /** The type without any pair of {@code relationship}; the removed pairs go to {@code removed}. */
    public static long[] withoutPairsOf(long[] type, int relationship, LongArrayList removed) {
        var keep = new LongArrayList(type.length);
        for (long old : type) {
            if (Ids.isPair(old) && Ids.first(old) == relationship) {
                removed.add(old);
            } else {
                keep.add(old);
            }
        }
        return keep.size() == type.length ? type : keep.toLongArray();
    }

    /**
     * The sparse marker of relationship index {@code rel}: the pair {@code (R, *)} a table type holds
     * for holders of R's non-fragmenting pairs (FEATURES TRT-16; the targets live in the sparse
     * store, never in the type).
     */
    public static long marker(int rel) {
        return Ids.pairOfIndices(rel, Ids.WILDCARD_INDEX);
    }

    /** True when {@code id} is a sparse marker {@code (R, *)} ({@link #marker}). */
    public static boolean isMarker(long id) {
        return Ids.isPair(id) && Ids.second(id) == Ids.WILDCARD_INDEX;
    }

    /** True when the type holds some sparse marker: its rows' pairs are not all in the type. */
    public static boolean hasMarker(long[] type) {
        for (long x : type) {
            if (!Ids.isPair(x)) {
                return false; // pairs sort first
            }
            if (Ids.second(x) == Ids.WILDCARD_INDEX) {
                return true;
            }
        }
        return false;
    }

    /**
     * The parent index: the target of the type's {@code (ChildOf, P)} pair, or 0 for a root. A type
     * holding ChildOf's sparse marker ({@link #hasParentMarker}) does not know the parent: ask
     * {@code rules.SparsePairs#parentOf}.
     */
    public static int parent(long[] type) {
        int p = target(type, Ids.index(Builtin.CHILD_OF));
        return p == Ids.WILDCARD_INDEX ? 0 : p;
    }

    /** True when the type holds ChildOf's sparse marker {@code (ChildOf, *)}: its rows' parents are in the sparse store. */
    public static boolean hasParentMarker(long[] type) {
        return Arrays.binarySearch(type, marker(Ids.index(Builtin.CHILD_OF))) >= 0;
    }

    /**
     * The component-index records a table of this type files under: each id of the type, and for
     * each pair {@code (R,T)} also {@code (R,*)} and {@code (*,T)}; each key once.
     */
    public static LongOpenHashSet recordKeys(long[] type) {
        long[] buf = new long[3 * type.length];
        int n = recordKeys(type, buf);
        var keys = new LongOpenHashSet(n);
        for (int i = 0; i < n; i++) {
            keys.add(buf[i]);
        }
        return keys;
    }

    /** True when a table of this type files under component-index record {@code key} ({@link #recordKeys}). */
    public static boolean holdsRecordKey(long[] type, long key) {
        if (!Ids.isPair(key)) {
            return Arrays.binarySearch(type, key) >= 0;
        }
        int f = Ids.first(key), sec = Ids.second(key);
        if (f != Ids.WILDCARD_INDEX && sec != Ids.WILDCARD_INDEX) {
            return Arrays.binarySearch(type, key) >= 0;
        }
        if (sec == Ids.WILDCARD_INDEX && f != Ids.WILDCARD_INDEX) {
            return hasPairOf(type, f);
        }
        if (f == Ids.WILDCARD_INDEX && sec != Ids.WILDCARD_INDEX) {
            for (long x : type) {
                if (Ids.isPair(x) && Ids.second(x) == sec) {
                    return true;
                }
            }
        }
        return false; // (*, *) is no record
    }

    /**
     * The record keys of {@link #recordKeys(long[])} written into {@code out} (at least
     * {@code 3 * type.length} long), ascending, each once, without allocating.
     *
     * @return how many
     */
    public static int recordKeys(long[] type, long[] out) {
        int n = 0;
        for (long x : type) {
            out[n++] = x;
            if (Ids.isPair(x)) {
                out[n++] = Ids.pairOfIndices(Ids.first(x), Ids.WILDCARD_INDEX);
                if (Ids.second(x) != Ids.WILDCARD_INDEX) { // a sparse marker (R, *) files under (R, *) only
                    out[n++] = Ids.pairOfIndices(Ids.WILDCARD_INDEX, Ids.second(x));
                }
            }
        }
        java.util.Arrays.sort(out, 0, n);
        int u = 0;
        for (int i = 0; i < n; i++) {
            if (u == 0 || out[u - 1] != out[i]) {
                out[u++] = out[i];
            }
        }
        return u;
    }
}
