package dev.quiver.cli;

import dev.quiver.index.ChronicleSupport;
import picocli.CommandLine;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ScopeType;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * The {@code quiver} command: one subcommand per verb. {@link #main} runs it on the process's
 * streams; {@link #commandLine} builds the same command on any writers, which is how the tests run
 * it in-process.
 *
 * <p>The model of this command and of {@code query} ({@link QueryCommand#spec}) is built through
 * picocli's programmatic API rather than read from annotations: reading annotations made the JVM
 * generate a proxy class per annotation type, which no class-data archive of JDK 17 can hold, and
 * that reflection was most of the start-up of a short query. The other subcommands are annotated.
 */
public final class Quiver implements Callable<Integer> {

    /**
     * The subcommands by name, in the order of the usage help. Registered programmatically, not
     * through {@code @Command(subcommands = ...)}, so that {@link #main} can build the model of
     * the one subcommand it runs: picocli reflects over every registered command class when the
     * command line is built, which was most of a short command's start-up. The names are written
     * out rather than read from each class's {@code @Command} (parsing 24 annotations cost a
     * short command about 10 ms); a test holds each name equal to its annotation's, or for
     * {@code query} to its programmatic model's ({@link QueryCommand#spec}).
     */
    static final Map<String, Class<?>> SUBCOMMANDS = subcommands(
            Map.entry("init", InitCommand.class), Map.entry("load", LoadCommand.class),
            Map.entry("add", AddCommand.class), Map.entry("remove", RemoveCommand.class),
            Map.entry("component", ComponentCommand.class), Map.entry("set", SetCommand.class),
            Map.entry("delete", DeleteCommand.class), Map.entry("show", ShowCommand.class),
            Map.entry("new", NewCommand.class), Map.entry("query", QueryCommand.class),
            Map.entry("stats", StatsCommand.class), Map.entry("check", CheckCommand.class),
            Map.entry("snapshot", SnapshotCommand.class), Map.entry("restore", RestoreCommand.class),
            Map.entry("analyze", AnalyzeCommand.class), Map.entry("export", ExportCommand.class),
            Map.entry("demo", DemoCommand.class), Map.entry("targets", TargetsCommand.class),
            Map.entry("sources", SourcesCommand.class), Map.entry("rename", RenameCommand.class),
            Map.entry("disable", ToggleCommand.Disable.class), Map.entry("enable", ToggleCommand.Enable.class),
            Map.entry("defrel", DefrelCommand.class), Map.entry("help", HelpCommand.class));

    /** picocli's system property of regular expressions (comma-separated) of built-in converters to leave out. */
    static final String CONVERTER_EXCLUDES_PROPERTY = "picocli.converters.excludes";

    /**
     * The built-in converters no option of Quiver's needs and each {@code new CommandLine} would
     * look up by reflection: those of java.sql and java.time (picocli loads each class and reads
     * its methods to find the parse method; about 6 ms of a short command's main-thread CPU).
     * Set by {@link #commandLine} unless already set.
     */
    static final String CONVERTER_EXCLUDES = "java\\.sql\\..*,java\\.time\\..*";

    /** The model of this command, set by {@link #spec}. */
    private CommandSpec spec;

    private final boolean interactive;

    private Quiver(boolean interactive) {
        this.interactive = interactive;
    }

    /**
     * The model of the root command for {@code root}, without subcommands: its name, version,
     * help texts and the options {@code -h}/{@code --help}, {@code -V}/{@code --version} (picocli's
     * standard help options, with their standard descriptions) and {@code -v}/{@code --verbose}
     * (inherited by every subcommand).
     */
    private static CommandSpec spec(Quiver root) {
        CommandSpec s = CommandSpec.wrapWithoutInspection(root).name("quiver").versionProvider(new Version());
        s.usageMessage()
                .header("Quiver: a persistent relational-graph store with ECS semantics (Flecs v4).")
                .description(
                        "A world is a directory. Entities carry tags, components and pairs (Relationship, Target);",
                        "queries use the Flecs query language, with transitive relationships followed.",
                        "Exit codes: 0 ok, 1 failure (check violation, internal error), 2 bad input.");
        s.addOption(BaseCommand.helpOption());
        s.addOption(OptionSpec.builder("-V", "--version").versionHelp(true).type(boolean.class)
                .description("Print version information and exit.").build());
        s.addOption(OptionSpec.builder("-v", "--verbose").scopeType(ScopeType.INHERIT).type(boolean.class)
                .description("Print the stack trace of an error, not just its message.").build());
        root.spec = s;
        return s;
    }

    /**
     * True when progress bars may be drawn: the process has a console, and the command writes to
     * the process's own streams (never in tests).
     */
    boolean interactive() {
        return interactive;
    }

    /** Without a subcommand: a one-line hint and exit code 2. */
    @Override
    public Integer call() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command");
    }

    /**
     * Builds the command line with the error handling and exit codes of {@link Errors}.
     *
     * @param out         standard output
     * @param err         standard error: one line per error
     * @param interactive true to allow progress bars on the process's stderr
     * @return a command line ready for {@link CommandLine#execute}
     */
    public static CommandLine commandLine(PrintWriter out, PrintWriter err, boolean interactive) {
        return commandLine(out, err, interactive, SUBCOMMANDS.values());
    }

    /**
     * Builds the command line for one run of {@code args}: with only the subcommand that
     * {@code args} names when it names one (after the inherited {@code -v}/{@code --verbose}),
     * with none for {@code --version}, else with every subcommand (help, a missing or unknown
     * subcommand), so that every message is the one the whole command line gives.
     *
     * @param out         standard output
     * @param err         standard error: one line per error
     * @param interactive true to allow progress bars on the process's stderr
     * @param args        the arguments the command line will execute
     * @return a command line ready for {@code execute(args)}
     */
    static CommandLine commandLineFor(PrintWriter out, PrintWriter err, boolean interactive, String[] args) {
        for (String a : args) {
            if (a.equals("-v") || a.equals("--verbose")) {
                continue;
            }
            if (a.equals("-V") || a.equals("--version")) {
                return commandLine(out, err, interactive, List.of());
            }
            Class<?> only = a.equals("help") ? null : SUBCOMMANDS.get(a);
            if (only != null) {
                return commandLine(out, err, interactive, List.of(only));
            }
            break;
        }
        return commandLine(out, err, interactive);
    }

    private static CommandLine commandLine(PrintWriter out, PrintWriter err, boolean interactive,
                                           Collection<Class<?>> subcommands) {
        if (System.getProperty(CONVERTER_EXCLUDES_PROPERTY) == null) {
            System.setProperty(CONVERTER_EXCLUDES_PROPERTY, CONVERTER_EXCLUDES);
        }
        Errors errors = new Errors();
        Quiver root = new Quiver(interactive);
        CommandLine cl = new CommandLine(spec(root));
        for (Class<?> c : subcommands) {
            if (c == QueryCommand.class) {
                cl.addSubcommand("query", new CommandLine(QueryCommand.spec(root)));
            } else {
                cl.addSubcommand(c);
            }
        }
        cl.setOut(out);
        cl.setErr(err);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setExecutionExceptionHandler(errors);
        cl.setParameterExceptionHandler(errors);
        cl.setExitCodeExceptionMapper(errors);
        return cl;
    }

    /**
     * Runs {@code quiver} and exits with its exit code. Chronicle's settings are applied before any
     * Chronicle class loads.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        Trace.mark("jvm");
        ChronicleSupport.init();
        String training = System.getProperty(ClassDataTraining.PROPERTY);
        if (training != null) { // the launcher's class-data training run, not a user command
            int code;
            try {
                code = ClassDataTraining.train(java.nio.file.Path.of(training),
                        System.getProperty(ClassDataTraining.SET_PROPERTY, ClassDataTraining.ALL));
            } catch (java.io.IOException | IllegalArgumentException e) {
                System.err.println("quiver: class-data training failed: " + e);
                code = ExitCodes.FAILURE;
            }
            System.exit(code);
        }
        if (namesSubcommand(args)) {
            // the Chronicle work of a map open that needs no file runs beside the command-line parse
            ChronicleSupport.warmUpInBackground();
        }
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), false);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        int code;
        try {
            code = commandLineFor(out, err, System.console() != null, args).execute(args);
        } catch (Throwable t) {
            // an Error (out of memory, a class missing from a broken jar) escapes picocli's handlers
            out.flush();
            err.println("quiver: internal error: " + t);
            if (java.util.Arrays.asList(args).contains("--verbose") || java.util.Arrays.asList(args).contains("-v")) {
                t.printStackTrace(err);
            }
            code = ExitCodes.FAILURE;
        }
        out.flush();
        err.flush();
        // a command that opened no world (help, a parse error) may end before the warm-up: exiting
        // under it races the JVM's shutdown (a NoClassDefFoundError trace on stderr, now and then)
        ChronicleSupport.awaitAllWarmUps();
        Trace.report(System.err);
        System.exit(code);
    }

    /** True when {@code args} names a subcommand other than help (after -v/--verbose). */
    static boolean namesSubcommand(String[] args) {
        for (String a : args) {
            if (!a.equals("-v") && !a.equals("--verbose")) {
                return !a.equals("help") && SUBCOMMANDS.containsKey(a);
            }
        }
        return false;
    }

    @SafeVarargs
    private static Map<String, Class<?>> subcommands(Map.Entry<String, Class<?>>... entries) {
        Map<String, Class<?>> byName = new LinkedHashMap<>();
        for (Map.Entry<String, Class<?>> e : entries) {
            byName.put(e.getKey(), e.getValue());
        }
        return Collections.unmodifiableMap(byName);
    }

    /** The version from the jar manifest ({@code Implementation-Version}). */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Quiver.class.getPackage().getImplementationVersion();
            return new String[] {"quiver " + (v == null ? "(development build)" : v)};
        }
    }
}
