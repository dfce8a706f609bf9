package dev.quiver.cli;

import dev.quiver.storage.World;
import picocli.CommandLine.Option;

/**
 * The {@code --scope PATH} option (Flecs v4 scope, FEATURES ENT-07, {@link World#setScope}): the
 * command's entity paths are read below the scope entity, entities it creates are made below it,
 * and a name not found there is looked up in the scope's ancestors, then from the root.
 */
final class ScopeOption {
    @Option(names = "--scope", paramLabel = "PATH", description = "Read entity paths below this entity and create "
            + "new entities below it (Flecs scope); names not found there are looked up in its ancestors, then the root.")
    String scope;

    /**
     * Sets the scope on an open world, if one was given.
     *
     * @throws dev.quiver.storage.UnknownNameException when the scope entity does not exist
     */
    void apply(World w) {
        if (scope != null) {
            w.setScope(w.resolve(scope));
        }
    }
}
