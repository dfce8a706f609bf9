package dev.quiver.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.quiver.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code -Dquiver.trace=true} ({@link Trace}): a {@code quiver query --format count} run in a JVM of
 * its own, through {@link Quiver#main}, prints the same answer and one more stderr line with the
 * main thread's CPU per phase; without the property, nothing more.
 */
class TraceTest {
    @TempDir
    Path tmp;

    @Test
    void aTracedCountPrintsItsPhasesAndTheSameAnswer() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/thread-self/schedstat")), "needs Linux's /proc/thread-self/schedstat");
        String w = tmp.resolve("w").toString();
        run("init", w).ok();
        run("add", w, "KindOf", "Transitive").ok();
        run("add", w, "dog", "(KindOf, mammal)").ok();
        run("add", w, "mammal", "(KindOf, animal)").ok();

        String[] plain = quiver(false, "query", w, "(KindOf, animal)", "--format", "count");
        assertEquals("2\n", plain[0]);
        assertEquals("", plain[1], "no trace line without the property");

        String[] traced = quiver(true, "query", w, "(KindOf, animal)", "--format", "count");
        assertEquals("2\n", traced[0], "the same answer on stdout");
        String line = traced[1].strip();
        assertFalse(line.contains("\n"), "one stderr line: " + traced[1]);
        assertTrue(line.startsWith("quiver trace (main-thread cpu ms / wall ms):"), line);
        Matcher m = Pattern.compile(" (\\w+) (-?[0-9.]+)/([0-9.]+)").matcher(line);
        List<String> phases = new ArrayList<>();
        double cpu = 0;
        while (m.find()) {
            phases.add(m.group(1));
            double c = Double.parseDouble(m.group(2));
            assertTrue(c >= 0, "phase " + m.group(1) + " cpu " + c + " in: " + line);
            cpu += c;
        }
        assertEquals(List.of("jvm", "picocli", "open", "plan", "count", "exit"), phases, line);
        assertTrue(cpu > 0, line);
        Matcher process = Pattern.compile("; process cpu ([0-9.]+) ms;").matcher(line);
        assertTrue(process.find(), line);
    }

    /** Runs {@code Quiver.main} in a new JVM with this JVM's class path and flags: {stdout, stderr}. */
    private static String[] quiver(boolean trace, String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!a.startsWith("-agentlib:jdwp") && !a.startsWith("-Dquiver.trace")) {
                cmd.add(a);
            }
        }
        if (trace) {
            cmd.add("-Dquiver.trace=true");
        }
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(Quiver.class.getName());
        cmd.addAll(List.of(args));
        Path err = Files.createTempFile("quiver-trace", ".err");
        try {
            Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            p.getInputStream().transferTo(out);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the run ended");
            String e = Files.readString(err, StandardCharsets.UTF_8);
            assertEquals(0, p.exitValue(), e);
            return new String[] {out.toString(StandardCharsets.UTF_8), e};
        } finally {
            Files.deleteIfExists(err);
        }
    }
}
