package dev.quiver.cli;

import dev.quiver.storage.World;
import dev.quiver.storage.WorldPages;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs {@code quiver} in-process, the way {@link Quiver#main} does (the command line built for the arguments), capturing exit code, stdout and stderr. */
final class CliRunner {
    private CliRunner() {}

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

        /** Asserts exit 2 and exactly one stderr line {@code quiver: ...} that contains {@code fragment}. */
        Run badInput(String fragment) {
            return fails(ExitCodes.BAD_INPUT, fragment);
        }

        /** Asserts the exit code and exactly one stderr line {@code quiver: ...} that contains {@code fragment}. */
        Run fails(int code, String fragment) {
            assertEquals(code, exit, () -> "exit " + exit + "\nout: " + out + "\nerr: " + err);
            assertEquals(1, errLines().size(), () -> "one stderr line expected, got:\n" + err);
            assertTrue(err.startsWith("quiver: "), err);
            assertTrue(err.contains(fragment), () -> "'" + fragment + "' not in: " + err);
            return this;
        }
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit;
        try (PrintWriter o = new PrintWriter(out); PrintWriter e = new PrintWriter(err)) {
            exit = Quiver.commandLineFor(o, e, false, args).execute(args);
        }
        return new Run(exit, out.toString().replace("\r\n", "\n"), err.toString().replace("\r\n", "\n"));
    }

    /**
     * Every persistent page of a world, by map and key: equal fingerprints mean equal committed
     * states, which is how the tests check that bad input changed nothing.
     */
    static Map<String, String> fingerprint(Path world) {
        Map<String, String> pages = new TreeMap<>();
        try (World w = World.openReadOnly(world)) {
            WorldPages.forEach(w, (map, key, blob) -> pages.put(map + "/" + key, Integer.toHexString(Arrays.hashCode(blob))
                    + ":" + blob.length));
        }
        return pages;
    }
}
