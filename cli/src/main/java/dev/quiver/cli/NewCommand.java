package dev.quiver.cli;

import dev.quiver.storage.Builtin;
import dev.quiver.storage.World;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code quiver new WORLD [NAME] [--isa P]... [--child-of Q] [--ensure] [--count N]}: creates an
 * entity, optionally as an IsA instance of bases (Flecs v4 instantiation: Override components
 * copied, a prefab's children instantiated under it) and under a parent; with {@code --count},
 * N anonymous instances of one base in one transaction ({@link World#instantiate}).
 */
@Command(name = "new", header = "Create an entity, optionally instantiating bases or prefabs.",
        description = {"Creates NAME (a name or path; anonymous when left out) in one transaction. With "
                + "--child-of Q it is created under Q. Each --isa P adds (IsA, P): P's Override components "
                + "are copied with their values, and when P is a prefab its children get counterparts "
                + "under the new entity, with their names. An existing NAME is an error unless --ensure "
                + "is given (then the bases are added to it). "
                + "With --count N, N anonymous instances of the one --isa base are made in one transaction "
                + "(no NAME, no --ensure), under Q with --child-of; the output is their count, then the first "
                + "and last id.",
            "Example: quiver new w inst1 --isa Ship; quiver new w turret --child-of inst1; "
                + "quiver new w --isa Ship --count 1000"})
final class NewCommand extends BaseCommand {
    @Mixin
    ScopeOption scope = new ScopeOption();

    @Parameters(index = "0", paramLabel = "WORLD", description = "The world directory (must exist).")
    Path world;

    @Parameters(index = "1", arity = "0..1", paramLabel = "NAME",
            description = "The new entity's name or path; anonymous when left out.")
    String name;

    @Option(names = "--isa", paramLabel = "P", description = "A base to instantiate (repeatable): adds (IsA, P).")
    List<String> bases = new ArrayList<>();

    @Option(names = "--child-of", paramLabel = "Q", description = "The parent: the entity is created under Q.")
    String parent;

    @Option(names = "--ensure", description = "Accept an existing NAME instead of failing.")
    boolean ensure;

    @Option(names = "--count", paramLabel = "N",
            description = "Make N anonymous instances of the one --isa base in one transaction (0 or more).")
    Integer count;

    @Override
    public Integer call() {
        if (count != null) {
            return batch();
        }
        try (World w = openWriter(world)) {
            scope.apply(w);
            long created = w.transactionResult(tx -> {
                long q = parent == null ? 0 : tx.resolve(parent);
                long[] isa = new long[bases.size()];
                for (int i = 0; i < isa.length; i++) {
                    isa[i] = tx.resolve(bases.get(i));
                }
                long e;
                if (name == null) {
                    e = tx.entity();
                    if (q != 0) {
                        tx.add(e, tx.pair(Builtin.CHILD_OF, q));
                    }
                } else {
                    long under = q != 0 ? q : tx.scope(); // --child-of, else the --scope, else the root
                    long found = tx.lookup(under, name);
                    if (found != 0 && !ensure) {
                        String path = under == 0 ? name : tx.path(under) + "." + name;
                        throw new CliInputException("entity '" + path + "' exists (use --ensure to accept it)");
                    }
                    long[] made = {found};
                    if (found == 0) {
                        tx.inScope(under, () -> made[0] = tx.entity(name));
                    }
                    e = made[0];
                }
                for (long b : isa) {
                    tx.add(e, tx.pair(Builtin.IS_A, b));
                }
                return e;
            });
            StringBuilder line = new StringBuilder(w.path(created));
            for (String b : bases) {
                line.append(" (IsA, ").append(w.path(w.resolve(b))).append(')');
            }
            out().println(line);
        }
        return ExitCodes.OK;
    }

    /** {@code --count N}: N instances of one base through {@link World#instantiate}, under --child-of if given. */
    private Integer batch() {
        if (bases.size() != 1) {
            throw new CliInputException("--count needs exactly one --isa base (given " + bases.size() + ")");
        }
        if (name != null || ensure) {
            throw new CliInputException("--count makes anonymous instances: give no NAME and no --ensure");
        }
        try (World w = openWriter(world)) {
            scope.apply(w);
            long[] made = w.transactionResult(tx -> {
                long q = parent == null ? 0 : tx.resolve(parent);
                long[] es = tx.instantiate(tx.resolve(bases.get(0)), count);
                if (q != 0) {
                    long childOf = tx.pair(Builtin.CHILD_OF, q);
                    for (long e : es) {
                        tx.add(e, childOf);
                    }
                }
                return es;
            });
            StringBuilder line = new StringBuilder().append(made.length).append(made.length == 1 ? " instance" : " instances")
                .append(" of ").append(w.path(w.resolve(bases.get(0))));
            if (made.length > 0) {
                line.append(": ").append(w.path(made[0])).append(" .. ").append(w.path(made[made.length - 1]));
            }
            out().println(line);
        }
        return ExitCodes.OK;
    }
}
