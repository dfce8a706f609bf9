package dev.quiver.storage;

/**
 * A Tecs relationship definition (FEATURES TEC-01, TEC-05, TEC-06, TEC-13, TEC-23) spelled as Quiver
 * traits, for {@link #define}. Key by key:
 * <ul>
 *   <li>{@code name}: the relationship entity's path (created when missing);</li>
 *   <li>{@code exclusive}: {@link Builtin#EXCLUSIVE};</li>
 *   <li>{@code sparse}: Flecs' DontFragment (non-fragmenting storage, TRT-16), which this build
 *       does not have yet: refused with {@link IdException}, as the name DontFragment is;</li>
 *   <li>{@code reverseIndex}: always on here (TRT-17), so there is no key;</li>
 *   <li>{@code cascadeDelete}: {@code (OnDeleteTarget, Delete)} (without Tecs' requirement of
 *       exclusive, CLN-18);</li>
 *   <li>{@code transient}: {@link Builtin#TRANSIENT};</li>
 *   <li>{@code fields} and {@code defaults}: the {@link Schema} (null for a tag relationship; a
 *       schema's defaults are the Tecs defaults, so defaults cannot come without fields);</li>
 *   <li>{@code init}: a {@link Validator} run on every set of a pair of the relationship (null for
 *       none); it needs {@code fields}, as in Tecs;</li>
 *   <li>{@code container}, {@code serialize}: Lua representation and codec hooks, which have no
 *       Quiver counterpart (values are typed fields; snapshots use the page codecs).</li>
 * </ul>
 *
 * @param name          the relationship's path
 * @param exclusive     at most one target per entity (TEC-08)
 * @param sparse        non-fragmenting storage: DontFragment (TEC-07, FEATURES TRT-16)
 * @param cascadeDelete deleting a target deletes its sources (TEC-13)
 * @param transientPairs the pairs are left out of snapshots and exports (TEC-23)
 * @param fields        the value schema with its defaults, or null
 * @param init          the validator, or null
 */
public record RelationshipSpec(String name, boolean exclusive, boolean sparse, boolean cascadeDelete,
                               boolean transientPairs, Schema fields, Validator init) {

    /** A tag relationship with no traits; add them with the other constructor. */
    public RelationshipSpec(String name) {
        this(name, false, false, false, false, null, null);
    }

    /**
     * Creates (or finds) the relationship and gives it the spec's traits, schema and validator, in
     * one transaction: an error leaves the world unchanged. Defining again adds what the spec adds
     * and removes nothing; the validator replaces the previous one.
     *
     * @return the relationship entity
     * @throws IdException when the name is bad
     * @throws SparseStorageException when {@code sparse} comes with {@code fields} (sparse pairs
     *         carrying data are not supported in this build)
     * @throws ValidationException when {@code init} comes without {@code fields}
     * @throws SchemaConflictException when the relationship already has other fields
     * @throws StructuralTraitException when Exclusive or DontFragment is added to a relationship already in use
     */
    public long define(World w) {
        if (sparse && fields != null) {
            throw new SparseStorageException("cannot define " + name + " sparse with fields: sparse (DontFragment) pairs carrying data are not supported in this build");
        }
        if (init != null && fields == null) {
            throw new ValidationException("cannot define " + name + " with an init validator and no fields (Tecs: init requires fields)");
        }
        long r = w.transactionResult(x -> {
            long e = x.entity(name);
            if (exclusive) {
                x.add(e, Builtin.EXCLUSIVE);
            }
            if (sparse) {
                x.add(e, Builtin.DONT_FRAGMENT);
            }
            if (cascadeDelete) {
                x.add(e, x.pair(Builtin.ON_DELETE_TARGET, Builtin.DELETE));
            }
            if (transientPairs) {
                x.add(e, Builtin.TRANSIENT);
            }
            if (fields != null) {
                x.component(name, fields);
            }
            return e;
        });
        if (init != null) {
            w.validate(r, init);
        }
        return r;
    }
}
