package dev.quiver.cli;

import dev.quiver.error.BadInputException;
import dev.quiver.error.QuiverException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IExitCodeExceptionMapper;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

import java.io.PrintWriter;

/**
 * The one place where errors become exit codes and messages. Every error prints exactly one line,
 * {@code quiver: <message>}, on stderr; {@code --verbose} adds the stack trace.
 *
 * <ul>
 *   <li>a {@link BadInputException} anywhere in the cause chain (unknown name, malformed query,
 *       locked world, corrupt snapshot, ...) gives {@link ExitCodes#BAD_INPUT};</li>
 *   <li>any other {@link QuiverException} (an I/O failure, a corrupt world) gives
 *       {@link ExitCodes#FAILURE} with its own message;</li>
 *   <li>a picocli {@link ParameterException} (missing or unknown argument or option) gives
 *       {@link ExitCodes#BAD_INPUT};</li>
 *   <li>anything else is an internal failure, {@link ExitCodes#FAILURE}.</li>
 * </ul>
 */
final class Errors implements IExecutionExceptionHandler, IParameterExceptionHandler, IExitCodeExceptionMapper {

    @Override
    public int getExitCode(Throwable t) {
        if (t instanceof ParameterException || quiverCause(t) instanceof BadInputException) {
            return ExitCodes.BAD_INPUT;
        }
        return ExitCodes.FAILURE;
    }

    @Override
    public int handleExecutionException(Exception ex, CommandLine cmd, ParseResult parseResult) {
        PrintWriter err = cmd.getErr();
        QuiverException bad = quiverCause(ex);
        String message = bad != null ? bad.getMessage() : "internal error: " + ex;
        err.println("quiver: " + oneLine(message));
        if (verbose(parseResult)) {
            ex.printStackTrace(err);
        }
        err.flush();
        return getExitCode(ex);
    }

    @Override
    public int handleParseException(ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        PrintWriter err = cmd.getErr();
        String help = cmd.getCommandSpec().qualifiedName() + " --help";
        err.println("quiver: " + oneLine(ex.getMessage()) + " (see '" + help + "')");
        err.flush();
        return getExitCode(ex);
    }

    /** The first QuiverException in the cause chain of {@code t} (itself included), or null. */
    static QuiverException quiverCause(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof QuiverException) {
                return (QuiverException) c;
            }
        }
        return null;
    }

    /** The message on one line: line breaks become "; ". */
    static String oneLine(String message) {
        if (message == null) {
            return "(no message)";
        }
        return message.strip().replaceAll("\\s*\\R\\s*", "; ");
    }

    private static boolean verbose(ParseResult pr) {
        for (ParseResult r = pr; r != null; r = r.subcommand()) {
            if (r.hasMatchedOption("--verbose")) {
                return true;
            }
        }
        return false;
    }
}
