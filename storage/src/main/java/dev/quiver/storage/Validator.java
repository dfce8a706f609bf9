package dev.quiver.storage;

import java.util.Map;

/**
 * Validates or refines the values set on one component or relationship: Tecs' {@code init}
 * (FEATURES TEC-06, adapted to a library callback; {@link RelationshipSpec#init}). Registered with
 * {@link World#validate}, it runs on every {@link World#set} of the component, or of a pair
 * {@code (R, target)} of the relationship, after defaults and before anything changes: throwing
 * refuses the set, returning a map refines the value stored.
 *
 * <p>Validators are code, not data: they live in the {@link World} instance that registered them
 * (register them again after each open) and run in the writer's thread, inside the transaction.
 * They must not touch the world. Besides every set, a validator runs on a value that enters an
 * entity by a data-less {@link World#add} (the schema's defaults, or the value an Inherit id
 * copies from a base) and on the Override values an IsA instantiation copies from the bases; a
 * refusal there refuses that add, a refinement is stored. On demand, {@link World#revalidate} runs
 * it on every value already stored, and a snapshot restore given validators runs them on every
 * restored value before the new world appears (FEATURES TEC-24). Not validated: a plain restore
 * (the new world has no validators until they are registered), values a {@code With} rule adds
 * beside the id added, and a {@code (Disabled, C)} copy.
 */
@FunctionalInterface
public interface Validator {
    /**
     * Checks the whole value a set would store.
     *
     * @param entity the entity the value is set on
     * @param id     the id set: the component, or a pair {@code (R, target)} of the relationship
     *               ({@code dev.quiver.index.Ids.second(id)} is the target's index)
     * @param value  the value after the set, in field order (fields the set leaves out hold the
     *               current value, or for a new id its default); read-only
     * @return the value to store: {@code value} itself, or a map of fields to change (the others
     *     keep what {@code value} holds)
     * @throws ValidationException to refuse the set; any other exception is reported as a
     *     ValidationException naming the validator's failure
     */
    Map<String, Object> validate(long entity, long id, Map<String, Object> value);
}
