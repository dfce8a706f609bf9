package dev.quiver.index;

/**
 * The 64-bit id layout shared by every module.
 *
 * <p>An <b>entity id</b> holds the entity index in bits 0..31 and its generation in bits 32..47;
 * bits 48..63 are zero. A <b>pair id</b> {@code (relationship, target)} has bit 63 set, the
 * relationship's entity index in bits 32..62 and the target's entity index in bits 0..31
 * (Flecs v4 pair encoding, ECS_PAIR; generations are not part of a pair, so an entity index used
 * in a pair must stay below 2^31). Index 0 is the null entity. Index {@link #WILDCARD_INDEX}
 * is the wildcard {@code *} and {@link #ANY_INDEX} the any-wildcard {@code _}.
 */
public final class Ids {
    private Ids() {}

    /** Bit 63: the id is a pair. */
    public static final long PAIR_FLAG = 1L << 63;
    /** Mask of the entity index (bits 0..31). */
    public static final long INDEX_MASK = 0xFFFF_FFFFL;
    /** Largest generation value (16 bits); it wraps to 0. */
    public static final int MAX_GENERATION = 0xFFFF;
    /** Largest entity index that can appear in a pair. */
    public static final int MAX_PAIR_INDEX = Integer.MAX_VALUE;

    /** The null entity. */
    public static final long NULL = 0;
    /** Entity index of the wildcard {@code *}. */
    public static final int WILDCARD_INDEX = 1;
    /** Entity index of the any-wildcard {@code _}. */
    public static final int ANY_INDEX = 2;
    /** The wildcard {@code *} as an entity id. */
    public static final long WILDCARD = WILDCARD_INDEX;
    /** The any-wildcard {@code _} as an entity id. */
    public static final long ANY = ANY_INDEX;

    /** Builds an entity id from its index and generation. */
    public static long entity(int index, int generation) {
        return ((long) (generation & MAX_GENERATION) << 32) | (index & INDEX_MASK);
    }

    /** Entity index of an entity id (bits 0..31). */
    public static int index(long entity) {
        return (int) (entity & INDEX_MASK);
    }

    /** Generation of an entity id (bits 32..47). */
    public static int generation(long entity) {
        return (int) ((entity >>> 32) & MAX_GENERATION);
    }

    /** True when {@code id} is a pair. */
    public static boolean isPair(long id) {
        return id < 0;
    }

    /**
     * The pair {@code (relationship, target)}; both are entity ids (or wildcards), whose
     * generations are dropped.
     *
     * @throws IllegalArgumentException when either element is itself a pair or its index is 0
     */
    public static long pair(long relationship, long target) {
        if (isPair(relationship) || isPair(target)) {
            throw new IllegalArgumentException("a pair element cannot be a pair");
        }
        int r = index(relationship), t = index(target);
        if (r <= 0 || r > MAX_PAIR_INDEX) {
            throw new IllegalArgumentException("bad pair relationship index " + r);
        }
        return PAIR_FLAG | ((long) r << 32) | (t & INDEX_MASK);
    }

    /** The pair from raw entity indices (no checks). */
    public static long pairOfIndices(int relationshipIndex, int targetIndex) {
        return PAIR_FLAG | ((long) relationshipIndex << 32) | (targetIndex & INDEX_MASK);
    }

    /** Entity index of a pair's relationship (first element). */
    public static int first(long pair) {
        return (int) ((pair >>> 32) & 0x7FFF_FFFFL);
    }

    /** Entity index of a pair's target (second element). */
    public static int second(long pair) {
        return (int) (pair & INDEX_MASK);
    }

    /** True when the id is {@code *}, {@code _}, or a pair with {@code *} or {@code _} in it. */
    public static boolean isWildcard(long id) {
        if (isPair(id)) {
            int f = first(id), s = second(id);
            return f == WILDCARD_INDEX || f == ANY_INDEX || s == WILDCARD_INDEX || s == ANY_INDEX;
        }
        int i = index(id);
        return i == WILDCARD_INDEX || i == ANY_INDEX;
    }

    /** Hex form, for diagnostics. */
    public static String toHex(long id) {
        return "0x" + Long.toHexString(id);
    }
}
