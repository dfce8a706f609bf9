package dev.quiver.storage;

import dev.quiver.storage.rules.Toggles;

/**
 * Disabling and enabling ids on an entity without removing them (Flecs v4 CanToggle,
 * {@code ecs_enable_id}), through {@link World#toggling()}: a disabled id stays on the entity with
 * its value but queries skip it and {@link World#has}, {@link World#get} and
 * {@link World#targets} do not see it ({@link Toggles} keeps the stored form). Each change is one
 * transaction unless it runs inside {@link World#transaction}.
 */
public final class Toggling {
    private final World world;
    private final WorldModel m;

    Toggling(World world, WorldModel m) {
        this.world = world;
        this.m = m;
    }

    /**
     * Disables a component, tag or pair on an entity without removing it (Flecs v4
     * {@code ecs_enable_id}), for an id with {@link Builtin#CAN_TOGGLE} (a pair: its relationship):
     * the entity holds {@code (Disabled, id)}, or {@code (R~, T)} for a pair {@code (R, T)} (R's
     * toggle companion), in its place with its value ({@link Toggles}), so queries skip it and
     * {@link World#has}, {@link World#get}, {@link World#targets} do not see it. Removing the id
     * (or {@code (R, *)}) removes it disabled too; adding or setting it meanwhile is refused.
     *
     * @throws ToggleException when the id lacks CanToggle, is a wildcard, or the entity does not own it
     * @throws SparseStorageException when the pair's relationship is stored sparse (DontFragment)
     * @throws BuiltinException when the entity is a builtin
     */
    public void disable(long e, long id) {
        toggle(e, id, false);
    }

    /**
     * Enables a component or tag disabled with {@link #disable}: the id and its value are back.
     * Enabling an enabled id changes nothing.
     *
     * @throws ToggleException when the id lacks CanToggle, is a wildcard, or the entity does not own it
     * @throws BuiltinException when the entity is a builtin
     */
    public void enable(long e, long id) {
        toggle(e, id, true);
    }

    private void toggle(long e, long id, boolean enabled) {
        int idx = world.aliveIndex(e);
        m.rules.checkNotBuiltin(idx);
        m.toggles.check(idx, id);
        world.mutate(() -> m.toggles.set(idx, id, enabled));
    }

    /** True when the entity holds {@code id} (a component, tag or pair) disabled ({@link #disable}). */
    public boolean isDisabled(long e, long id) {
        return m.toggles.isDisabled(world.aliveIndex(e), id);
    }

    /**
     * The id an id of a type stands for when it holds one disabled: C for {@code (Disabled, C)},
     * {@code (R, T)} for {@code (R~, T)}; 0 for any other id.
     */
    public long disabledId(long id) {
        return m.toggles.enabledForm(id);
    }
}
