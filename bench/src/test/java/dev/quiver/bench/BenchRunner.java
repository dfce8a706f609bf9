package dev.quiver.bench;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs {@code quiver-bench} in-process, the way {@link QuiverBench#main} does, capturing exit code and output. */
final class BenchRunner {
    private BenchRunner() {}

    /** The outcome of one run; line ends normalised to \n. */
    record Run(int exit, String out, String err) {
        List<String> errLines() {
            return err.isEmpty() ? List.of() : Arrays.asList(err.split("\n"));
        }

        /** Asserts exit 0 and an empty stderr. */
        Run ok() {
            assertEquals(0, exit, () -> "exit " + exit + "\nout: " + out + "\nerr: " + err);
            assertEquals("", err, "stderr");
            return this;
        }

        /** Asserts the exit code and exactly one stderr line {@code quiver-bench: ...} containing {@code fragment}. */
        Run fails(int code, String fragment) {
            assertEquals(code, exit, () -> "exit " + exit + "\nout: " + out + "\nerr: " + err);
            assertEquals(1, errLines().size(), () -> "one stderr line expected, got:\n" + err);
            assertTrue(err.startsWith(QuiverBench.PREFIX), err);
            assertTrue(err.contains(fragment), () -> "'" + fragment + "' not in: " + err);
            return this;
        }
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit;
        try (PrintWriter o = new PrintWriter(out); PrintWriter e = new PrintWriter(err)) {
            exit = QuiverBench.commandLine(o, e).execute(args);
        }
        return new Run(exit, out.toString().replace("\r\n", "\n"), err.toString().replace("\r\n", "\n"));
    }
}
