package dev.quiver.bench;

import dev.quiver.index.ChronicleSupport;
import dev.quiver.error.BadInputException;
import dev.quiver.error.QuiverException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IExitCodeExceptionMapper;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/**
 * The {@code quiver-bench} command ({@code bench/target/quiver-bench.jar}): {@code rg1} runs the
 * RG-1 workload, {@code graph} loads and queries a real graph, {@code jmh} runs the JMH
 * micro-benchmarks.
 *
 * <p>Exit codes: 0 every check passed; 1 a count or sum differs from the expected one, or an
 * internal error; 2 bad input (unknown option, missing file, bad depth, unknown relationship or
 * name). Every error prints exactly one line, {@code quiver-bench: <message>}, on stderr.
 */
@Command(name = "quiver-bench",
        mixinStandardHelpOptions = true,
        versionProvider = QuiverBench.Version.class,
        header = "Quiver benchmarks: the RG-1 workload, real graphs and JMH micro-benchmarks.",
        description = {"Figures are printed, never asserted; counts and sums are checked.",
            "Exit codes: 0 ok, 1 a check failed (or an internal error), 2 bad input."},
        subcommands = {Rg1Command.class, GraphCommand.class, AnalyzeBenchCommand.class, JmhCommand.class, CommandLine.HelpCommand.class})
public final class QuiverBench implements Callable<Integer> {
    /** Exit code when every check passed. */
    public static final int OK = 0;
    /** Exit code when a count or sum differs, or on an internal error. */
    public static final int FAILURE = 1;
    /** Exit code for bad input. */
    public static final int BAD_INPUT = 2;
    /** The prefix of every error line. */
    public static final String PREFIX = "quiver-bench: ";

    @Spec
    CommandSpec spec;

    private QuiverBench() {}

    /** Without a subcommand: a one-line hint and exit code 2. */
    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "missing command (rg1, graph or jmh)");
    }

    /**
     * Builds the command line with this tool's error handling and exit codes.
     *
     * @param out standard output
     * @param err standard error: one line per error
     * @return a command line ready for {@link CommandLine#execute}
     */
    public static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        Errors errors = new Errors();
        CommandLine cl = new CommandLine(new QuiverBench());
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler(errors);
        cl.setParameterExceptionHandler(errors);
        cl.setExitCodeExceptionMapper(errors);
        // every argument after "jmh" belongs to JMH, options included
        cl.getSubcommands().get("jmh").setUnmatchedOptionsArePositionalParams(true);
        return cl;
    }

    /**
     * Runs {@code quiver-bench} and exits with its exit code. Chronicle's settings (analytics off)
     * are applied before any Chronicle class loads.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        ChronicleSupport.init();
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        int code;
        try {
            code = commandLine(out, err).execute(args);
        } catch (Throwable t) {
            // an Error (out of memory) escapes picocli's handlers
            out.flush();
            err.println(PREFIX + "internal error: " + t);
            code = FAILURE;
        }
        out.flush();
        err.flush();
        System.exit(code);
    }

    /** Errors become one stderr line and an exit code. */
    static final class Errors implements IExecutionExceptionHandler, IParameterExceptionHandler,
            IExitCodeExceptionMapper {
        @Override
        public int getExitCode(Throwable t) {
            if (t instanceof ParameterException || t instanceof BenchInputException || find(t, BadInputException.class) != null) {
                return BAD_INPUT;
            }
            return FAILURE;
        }

        @Override
        public int handleExecutionException(Exception ex, CommandLine cmd, ParseResult parseResult) {
            String message;
            if (ex instanceof BenchInputException || ex instanceof CheckFailedException) {
                message = ex.getMessage();
            } else if (find(ex, QuiverException.class) != null) {
                message = find(ex, QuiverException.class).getMessage();
            } else {
                message = "internal error: " + ex;
            }
            cmd.getOut().flush();
            cmd.getErr().println(PREFIX + oneLine(message));
            cmd.getErr().flush();
            return getExitCode(ex);
        }

        @Override
        public int handleParseException(ParameterException ex, String[] args) {
            CommandLine cmd = ex.getCommandLine();
            cmd.getErr().println(PREFIX + oneLine(ex.getMessage()) + " (see '"
                    + cmd.getCommandSpec().qualifiedName() + " --help')");
            cmd.getErr().flush();
            return BAD_INPUT;
        }

        private static <T extends Throwable> T find(Throwable t, Class<T> type) {
            for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
                if (type.isInstance(c)) {
                    return type.cast(c);
                }
            }
            return null;
        }

        private static String oneLine(String message) {
            return message == null ? "(no message)" : message.strip().replaceAll("\\s*\\R\\s*", "; ");
        }
    }

    /** The version from the jar manifest ({@code Implementation-Version}). */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = QuiverBench.class.getPackage().getImplementationVersion();
            return new String[] {"quiver-bench " + (v == null ? "(development build)" : v)};
        }
    }
}
