package dev.quiver.cli;

import dev.quiver.storage.World;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.Map;

/** {@code quiver show WORLD ENTITY}: prints an entity's ids and component values. */
@Command(name = "show", header = "Show an entity: its ids and component values.",
        description = "Prints ENTITY's path and every id of its type, one per line, with the value of "
                + "each component (a pair disabled with quiver disable is printed as that pair, marked "
                + "'(disabled)'); then the ids it inherits through IsA ((OnInstantiate, Inherit) ids of "
                + "its bases), each marked 'inherited from BASE' with the value that base holds.")
final class ShowCommand extends BaseCommand {
    @Mixin
    ScopeOption scope = new ScopeOption();

    @Parameters(index = "0", paramLabel = "WORLD", description = "The world directory (must exist).")
    Path world;

    @Parameters(index = "1", paramLabel = "ENTITY", description = "The entity's name or path.")
    String entity;

    @Override
    public Integer call() {
        try (World w = openReader(world)) {
            scope.apply(w);
            long e = w.resolve(entity);
            out().println(w.path(e));
            for (long id : w.type(e)) {
                Map<String, Object> value = w.schema(id) == null ? null : w.get(e, id);
                long off = dev.quiver.index.Ids.isPair(id) ? w.toggling().disabledId(id) : 0;
                if (off != 0 && dev.quiver.index.Ids.isPair(off)) { // (R~, T): the pair (R, T) disabled
                    out().println("  " + w.idToString(off) + (value == null ? "" : " " + value) + " (disabled)");
                    continue;
                }
                out().println("  " + w.idToString(id) + (value == null ? "" : " " + value));
            }
            for (long id : w.inheritedIds(e)) {
                Map<String, Object> value = w.schema(id) == null ? null : w.get(e, id);
                long off = dev.quiver.index.Ids.isPair(id) ? w.toggling().disabledId(id) : 0;
                boolean disabledPair = off != 0 && dev.quiver.index.Ids.isPair(off);
                out().println("  " + w.idToString(disabledPair ? off : id) + (value == null ? "" : " " + value)
                        + (disabledPair ? " (disabled)" : "") + " (inherited from " + w.path(w.owner(e, id)) + ")");
            }
            if (w.tableAccess().sparse().isSparse(dev.quiver.index.Ids.index(e))) { // FEATURES TRT-16
                out().println("  (relationship stored sparse: its pairs do not fragment tables"
                        + (w.has(e, dev.quiver.storage.Builtin.DONT_FRAGMENT) ? ")" : "; switched automatically)"));
            }
        }
        return ExitCodes.OK;
    }
}
