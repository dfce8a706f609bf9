package dev.quiver.storage;

import dev.quiver.index.Ids;

/**
 * The builtin entities every world has, at fixed indices with generation 0 (Flecs v4 builtins:
 * traits, cleanup conditions and actions, ChildOf, IsA, Prefab, ...). They are named root
 * entities and cannot be deleted.
 *
 * <p>Tecs relationship keys (FEATURES TEC-01) map onto these: {@code exclusive} is
 * {@link #EXCLUSIVE}; {@code cascadeDelete} is the pair {@code (OnDeleteTarget, Delete)} (without
 * Tecs' requirement of exclusive, CLN-18); {@code reverseIndex} is always on (every relationship
 * has one, TRT-17), so it needs no trait; {@code transient} is {@link #TRANSIENT}; {@code sparse}
 * is Flecs' {@link #DONT_FRAGMENT}.
 *
 * <p>Indices 28 (CanToggle) and 29 (Transient) came with page format 4, 30 (DontFragment) and 31
 * (Union) with page format 5, 32 (DisabledRelationship) with page format 7
 * ({@code format.WorldFormat#VERSION}): older worlds, which lack them, are refused by version. A new
 * builtin takes a free index below {@link #FIRST_USER_INDEX}, so user entity ids never move.
 */
public final class Builtin {
    private Builtin() {}

    public static final long WILDCARD = Ids.WILDCARD;
    public static final long ANY = Ids.ANY;
    public static final long CHILD_OF = 3;
    public static final long IS_A = 4;
    public static final long TRANSITIVE = 5;
    public static final long REFLEXIVE = 6;
    public static final long EXCLUSIVE = 7;
    public static final long SYMMETRIC = 8;
    public static final long ACYCLIC = 9;
    public static final long TRAVERSABLE = 10;
    public static final long WITH = 11;
    public static final long ONE_OF = 12;
    public static final long FINAL = 13;
    public static final long PAIR_IS_TAG = 14;
    public static final long ON_DELETE = 15;
    public static final long ON_DELETE_TARGET = 16;
    public static final long REMOVE = 17;
    public static final long DELETE = 18;
    public static final long PANIC = 19;
    public static final long PREFAB = 20;
    public static final long DISABLED = 21;
    public static final long COMPONENT = 22;
    public static final long SINGLETON = 23;
    public static final long ON_INSTANTIATE = 24;
    public static final long OVERRIDE = 25;
    public static final long INHERIT = 26;
    public static final long DONT_INHERIT = 27;
    /**
     * Flecs v4 CanToggle: a component or tag with this trait can be disabled on an entity without
     * being removed ({@code World.disable}); a disabled id {@code C} is held as the pair
     * {@code (Disabled, C)}, which carries C's value, so queries for C skip the entity.
     */
    public static final long CAN_TOGGLE = 28;
    /**
     * Tecs {@code transient}: pairs of a relationship with this trait live in the world (they
     * survive a close and reopen) but are left out of snapshots and exports (FEATURES TEC-23).
     */
    public static final long TRANSIENT = 29;
    /**
     * Flecs v4.1 DontFragment (Tecs {@code sparse}, FEATURES TRT-16): pairs of a relationship with
     * this trait are stored without fragmenting, by source entity, beside the reverse index; the
     * holder's table holds only the marker {@code (R, *)}. A structural trait. Only user
     * relationships whose pairs carry no data may have it ({@code rules.SparsePairs}).
     */
    public static final long DONT_FRAGMENT = 30;
    /**
     * Flecs Union (FEATURES TRT-07): Exclusive plus DontFragment. Adding Union to a relationship
     * adds both ({@code (With, Exclusive)} and {@code (With, DontFragment)} on Union).
     */
    public static final long UNION = 31;
    /**
     * The marker of a toggle companion (Flecs v4 CanToggle on a relationship, {@code rules.Toggles}):
     * a relationship R with CanToggle gets, on the first disable of one of its pairs, a hidden
     * companion relationship R~, a child of R named {@code ~} (outside the name grammar, so no user
     * entity can take that name) carrying this tag and R's schema. A disabled pair {@code (R, T)} is
     * held as {@code (R~, T)} with its value. Companions are protected like builtins.
     */
    public static final long DISABLED_RELATIONSHIP = 32;

    /** First entity index handed to user entities. */
    public static final int FIRST_USER_INDEX = 256;

    /** Names by index; null where unused. Index 1 and 2 are the wildcards. */
    private static final String[] NAMES = new String[FIRST_USER_INDEX];

    static {
        String[] n = {null, "*", "_", "ChildOf", "IsA", "Transitive", "Reflexive", "Exclusive", "Symmetric",
            "Acyclic", "Traversable", "With", "OneOf", "Final", "PairIsTag", "OnDelete", "OnDeleteTarget",
            "Remove", "Delete", "Panic", "Prefab", "Disabled", "Component", "Singleton", "OnInstantiate",
            "Override", "Inherit", "DontInherit", "CanToggle", "Transient", "DontFragment", "Union",
            "DisabledRelationship"};
        System.arraycopy(n, 0, NAMES, 0, n.length);
    }

    /** The name of builtin index {@code i}, or null where the index is unused. */
    public static String name(int i) {
        return i > 0 && i < FIRST_USER_INDEX ? NAMES[i] : null;
    }

    /** Older spellings accepted as input (FEATURES.md 0.3): OnDeleteObject, Tag, Wildcard, Any; 0 for others. */
    public static long alias(String name) {
        switch (name) {
            case "OnDeleteObject": return ON_DELETE_TARGET;
            case "Tag": return PAIR_IS_TAG;
            case "Wildcard": return WILDCARD;
            case "Any": return ANY;
            default: return 0;
        }
    }

    /** True for the builtin entity indices (below {@link #FIRST_USER_INDEX}). */
    public static boolean isBuiltin(long entity) {
        int i = Ids.index(entity);
        return i > 0 && i < FIRST_USER_INDEX && !Ids.isPair(entity);
    }
}
