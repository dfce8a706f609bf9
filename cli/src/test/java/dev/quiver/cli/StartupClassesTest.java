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

import static dev.quiver.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a short command's JVM loads: picocli's built-in converters of java.sql and java.time are
 * left out ({@link Quiver#CONVERTER_EXCLUDES}), so a {@code query --format count} run through
 * {@link Quiver#main} in a JVM of its own loads no java.sql class (picocli looked each of them up
 * by reflection in every {@code new CommandLine}), and answers as before.
 */
class StartupClassesTest {
    @TempDir
    Path tmp;

    @Test
    void aCountLoadsNoJavaSqlClass() throws Exception {
        String w = tmp.resolve("w").toString();
        run("init", w).ok();
        run("add", w, "KindOf", "Transitive").ok();
        run("add", w, "dog", "(KindOf, mammal)").ok();
        run("add", w, "mammal", "(KindOf, animal)").ok();
        Path classes = tmp.resolve("classes.log");

        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!a.startsWith("-agentlib:jdwp") && !a.startsWith("-Dpicocli.converters.excludes")) {
                cmd.add(a);
            }
        }
        cmd.add("-Xlog:class+load=info:file=" + classes);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Quiver.class.getName(),
                "query", w, "(KindOf, animal)", "--format", "count"));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        p.getInputStream().transferTo(out);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the run ended");
        assertEquals(0, p.exitValue(), out.toString(StandardCharsets.UTF_8));
        assertEquals("2\n", out.toString(StandardCharsets.UTF_8));

        List<String> loaded = Files.readAllLines(classes);
        assertTrue(loaded.stream().anyMatch(l -> l.contains(" picocli.CommandLine ")), "the log lists the classes loaded");
        List<String> sql = loaded.stream().filter(l -> l.contains(" java.sql.")).toList();
        assertEquals(List.of(), sql, "no java.sql class");
    }
}
