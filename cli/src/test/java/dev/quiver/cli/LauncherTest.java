package dev.quiver.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import static dev.quiver.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The {@code quiver} launcher script (the repository's top-level {@code quiver}), run by bash from
 * a scratch copy of the checkout's layout: which class-data archive each command gets, when the
 * archives are recorded again, and that a missing, failed or unusable archive never fails the
 * command. Most tests put a stand-in {@code java} first on PATH that logs each call and writes the
 * files a training run and a dump would write; the last runs the real java on a jar of this build.
 */
class LauncherTest {
    @TempDir
    Path tmp;

    private Path home;
    private Path target;
    private Path log;
    private Path stubBin;

    /** The stand-in java: one log line per call, the class list and the archive files it is asked to write. */
    private static final String STUB_JAVA = String.join("\n",
            "#!/usr/bin/env bash",
            "printf '%s\\n' \"$*\" >> \"$STUB_LOG\"",
            "dump=; archive=",
            "for a in \"$@\"; do",
            "  case \"$a\" in",
            "    -XX:DumpLoadedClassList=*) [[ -n \"${STUB_TRAINING_FAILS-}\" ]] && exit 1; echo '# classes' > \"${a#*=}\" ;;",
            "    -XX:SharedArchiveFile=*) archive=\"${a#*=}\" ;;",
            "    -Xshare:dump) dump=1 ;;",
            "  esac",
            "done",
            "if [[ -n \"$dump\" ]]; then",
            "  [[ -n \"${STUB_DUMP_FAILS-}\" ]] && exit 1",
            "  echo archive > \"$archive\"",
            "  exit 0",
            "fi",
            "[[ -z \"$archive\" ]] || echo \"archive ${archive##*/}\"",
            "echo ran",
            "");

    @BeforeEach
    void layout() throws IOException {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/env")) && bash() != null, "needs bash");
        home = Files.createDirectories(tmp.resolve("home"));
        target = Files.createDirectories(home.resolve("cli/target"));
        Path launcher = Path.of(System.getProperty("user.dir")).resolveSibling("quiver");
        assertTrue(Files.isRegularFile(launcher), "the launcher at " + launcher);
        Files.copy(launcher, home.resolve("quiver"));
        home.resolve("quiver").toFile().setExecutable(true);
        Files.writeString(target.resolve("quiver.jar"), "a jar");
        stubBin = Files.createDirectories(tmp.resolve("bin"));
        Files.writeString(stubBin.resolve("java"), STUB_JAVA);
        stubBin.resolve("java").toFile().setExecutable(true);
        log = tmp.resolve("java.log");
    }

    private static Path bash() {
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, "bash"))) {
                return Path.of(d, "bash");
            }
        }
        return null;
    }

    /** Runs the launcher with the stand-in java: {exit code as text, stdout, stderr}. */
    private String[] launch(Map<String, String> env, String... args) throws Exception {
        return launch(stubBin, env, args);
    }

    private String[] launch(Path javaBin, Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(home.resolve("quiver").toString());
        cmd.addAll(Arrays.asList(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(tmp.toFile());
        pb.environment().remove("QUIVER_JAVA_OPTS");
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        pb.environment().put("PATH", javaBin + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        pb.environment().put("STUB_LOG", log.toString());
        pb.environment().put("TMPDIR", tmp.toString());
        pb.environment().putAll(env);
        Path out = tmp.resolve("out.txt"), err = tmp.resolve("err.txt");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the launcher ended");
        return new String[] {Integer.toString(p.exitValue()), Files.readString(out), Files.readString(err)};
    }

    /** The stand-in's calls since the last call of this method. */
    private List<String> calls() throws IOException {
        if (!Files.exists(log)) {
            return List.of();
        }
        List<String> lines = Files.readAllLines(log);
        Files.delete(log);
        return lines;
    }

    private static long count(List<String> calls, String fragment) {
        return calls.stream().filter(c -> c.contains(fragment)).count();
    }

    /** Asserts that the command itself ran (the last call) with archive {@code jsa}, or none when null. */
    private static void ranWith(String[] r, List<String> calls, String jsa) {
        assertEquals("0", r[0], r[2]);
        String last = calls.get(calls.size() - 1);
        assertTrue(last.contains(" -jar ") && !last.contains("-Xshare:dump") && !last.contains("DumpLoadedClassList"), last);
        assertEquals((jsa == null ? "" : "archive " + jsa + "\n") + "ran\n", r[1]);
        assertEquals(jsa != null, last.contains("-XX:SharedArchiveFile="), last);
    }

    @Test
    void readingVerbsWithoutJsonGetTheReadArchiveAndEveryOtherCommandTheGeneralOne() throws Exception {
        String[] r = launch(Map.of(), "query", "w", "(KindOf, d)", "--format", "count");
        List<String> c = calls();
        ranWith(r, c, "quiver-read.jsa");
        assertTrue(r[2].contains("recording a class-data archive"), r[2]);
        assertEquals(1, count(c, "-Dquiver.classDataTraining.set=read"), "one read training: " + c);
        assertEquals(2, count(c, "-Dquiver.classDataTraining="), "the general training leaves the world the read one runs on: " + c);
        assertEquals(2, count(c, "-Xshare:dump"), "both archives were missing, both are dumped: " + c);
        assertTrue(Files.isRegularFile(target.resolve("quiver-read.jsa")) && Files.isRegularFile(target.resolve("quiver.jsa")));
        String javaId = Files.readString(target.resolve("quiver-read.jsa.java")).strip();
        assertEquals(stubBin.resolve("java").toRealPath().toString(), javaId, "the resolved java that dumped it");

        String[][] reads = {{"query", "w", "q"}, {"query", "w", "q", "--format", "csv"}, {"-v", "query", "w", "q"},
                {"show", "w", "a"}, {"stats", "w"}, {"targets", "w", "a", "R"}, {"sources", "w", "R", "t"},
                {"query", "-h"}, {"--version"}, {"help"}};
        for (String[] args : reads) {
            r = launch(Map.of(), args);
            c = calls();
            assertEquals(1, c.size(), "no training once recorded: " + c);
            ranWith(r, c, "quiver-read.jsa");
        }
        String[][] general = {{"query", "w", "q", "--format", "json"}, {"query", "w", "q", "--format=JSONL"},
                {"-v", "query", "w", "q", "--format", "Json"}, {"load", "w", "f.tsv"}, {"init", "w"}, {"demo"},
                {"check", "w"}, {"add", "w", "a", "T"}};
        for (String[] args : general) {
            r = launch(Map.of(), args);
            c = calls();
            assertEquals(1, c.size(), "no training once recorded: " + c);
            ranWith(r, c, "quiver.jsa");
        }
        assertFalse(String.join(" ", c).contains("UseSerialGC"), "a writing command keeps G1: " + c);
    }

    @Test
    void aGeneralCommandRecordsOnlyTheGeneralArchive() throws Exception {
        String[] r = launch(Map.of(), "load", "w", "f.tsv");
        List<String> c = calls();
        ranWith(r, c, "quiver.jsa");
        assertEquals(0, count(c, "-Dquiver.classDataTraining.set=read"), c.toString());
        assertEquals(1, count(c, "-Xshare:dump"), c.toString());
        assertFalse(Files.exists(target.resolve("quiver-read.jsa")));

        r = launch(Map.of(), "query", "w", "q"); // the read archive is recorded now, the general one is kept
        c = calls();
        ranWith(r, c, "quiver-read.jsa");
        assertEquals(1, count(c, "-Xshare:dump"), c.toString());
        assertEquals(1, count(c, "-Dquiver.classDataTraining.set=read"), c.toString());
    }

    @Test
    void anArchiveIsRecordedAgainWhenTheJarIsNewerOrJavaIsAnother() throws Exception {
        launch(Map.of(), "query", "w", "q");
        calls();
        long jar = Files.getLastModifiedTime(target.resolve("quiver.jar")).toMillis();
        for (String name : List.of("quiver-read.jsa", "quiver.jsa")) { // recorded before the jar was built again
            Files.setLastModifiedTime(target.resolve(name), FileTime.fromMillis(jar - 5000));
        }
        String[] r = launch(Map.of(), "query", "w", "q");
        List<String> c = calls();
        ranWith(r, c, "quiver-read.jsa");
        assertEquals(2, count(c, "-Xshare:dump"), "a newer jar: both archives are stale: " + c);

        Files.writeString(target.resolve("quiver-read.jsa.java"), "/some/other/java\n");
        r = launch(Map.of(), "stats", "w");
        c = calls();
        ranWith(r, c, "quiver-read.jsa");
        assertEquals(1, count(c, "-Xshare:dump"), "another java: the read archive again, the general one kept: " + c);

        Files.delete(target.resolve("quiver.jsa.java"));
        r = launch(Map.of(), "init", "w");
        c = calls();
        ranWith(r, c, "quiver.jsa");
        assertEquals(1, count(c, "-Xshare:dump"), "no record of its java: recorded again: " + c);
        assertEquals(0, count(c, "-Dquiver.classDataTraining.set=read"), c.toString());
    }

    @Test
    void aFailedTrainingOrDumpLeavesNoArchiveAndTheCommandStillRuns() throws Exception {
        String[] r = launch(Map.of("STUB_TRAINING_FAILS", "1"), "query", "w", "q", "--format", "count");
        List<String> c = calls();
        ranWith(r, c, null);
        assertFalse(Files.exists(target.resolve("quiver-read.jsa")));

        r = launch(Map.of("STUB_DUMP_FAILS", "1"), "query", "w", "q");
        c = calls();
        ranWith(r, c, null);
        assertEquals(2, count(c, "-Xshare:dump"), c.toString());
        assertFalse(Files.exists(target.resolve("quiver-read.jsa")) || Files.exists(target.resolve("quiver.jsa")));
        try (var leftovers = Files.list(tmp)) {
            assertEquals(0, leftovers.filter(p -> p.getFileName().toString().startsWith("quiver-train.")).count(),
                    "the scratch directory is removed");
        }
    }

    /**
     * The real java, on a jar of this build (its manifest's Class-Path names this test's class
     * path): an archive file that is garbage, or a truncated archive of another class path, is
     * passed to java as it is recorded (newer than the jar, by this java) and java starts without
     * it: the answer and an empty stderr, as without an archive.
     */
    @Test
    void anUnusableArchiveFallsBackSilentlyWithTheRealJava() throws Exception {
        Path javaBin = Path.of(System.getProperty("java.home"), "bin");
        Path jar = target.resolve("quiver.jar");
        writeJarOfThisClassPath(jar);
        String w = tmp.resolve("w").toString();
        run("init", w).ok();
        run("add", w, "KindOf", "Transitive").ok();
        run("add", w, "dog", "(KindOf, mammal)").ok();
        run("add", w, "mammal", "(KindOf, animal)").ok();

        byte[] garbage = new byte[64 * 1024];
        new java.util.Random(8).nextBytes(garbage);
        Path jdkArchive = javaBin.resolveSibling("lib").resolve("server").resolve("classes.jsa");
        byte[] truncated = Files.isRegularFile(jdkArchive)
                ? Arrays.copyOf(Files.readAllBytes(jdkArchive), 256 * 1024) : new byte[0];
        for (byte[] content : List.of(garbage, truncated, new byte[0])) {
            for (String name : List.of("quiver-read.jsa", "quiver.jsa")) {
                Path jsa = target.resolve(name);
                Files.deleteIfExists(jsa);
                Files.write(jsa, content);
                Files.writeString(target.resolve(name + ".java"), javaBin.resolve("java").toRealPath() + "\n");
                Files.setLastModifiedTime(jsa, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 5000));
            }
            String[] r = launch(javaBin, Map.of(), "query", w, "(KindOf, animal)", "--format", "count");
            assertEquals("0", r[0], r[2]);
            assertEquals("2\n", r[1]);
            assertEquals("", r[2], "nothing on stderr: no training, no warning");
            r = launch(javaBin, Map.of(), "query", w, "(KindOf, animal)", "--format", "jsonl");
            assertEquals("0", r[0], r[2]);
            assertEquals(2, r[1].split("\n").length, r[1]);
            assertEquals("", r[2]);
        }
    }

    /** A jar with no classes whose manifest runs {@link Quiver} on this JVM's class path, with the shaded jar's Add-Opens. */
    private static void writeJarOfThisClassPath(Path jar) throws IOException {
        Manifest m = new Manifest();
        Attributes a = m.getMainAttributes();
        a.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        a.put(Attributes.Name.MAIN_CLASS, Quiver.class.getName());
        StringBuilder cp = new StringBuilder();
        for (String e : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            if (!e.isEmpty()) {
                cp.append(cp.length() == 0 ? "" : " ").append(Path.of(e).toUri());
            }
        }
        a.put(Attributes.Name.CLASS_PATH, cp.toString());
        a.putValue("Add-Opens", "java.base/java.lang java.base/java.lang.reflect java.base/java.io java.base/java.util "
                + "java.base/java.nio java.base/sun.nio.ch jdk.compiler/com.sun.tools.javac");
        a.putValue("Add-Exports", "java.base/jdk.internal.ref java.base/sun.nio.ch jdk.unsupported/sun.misc "
                + "jdk.compiler/com.sun.tools.javac.file");
        Files.deleteIfExists(jar);
        try (OutputStream o = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(o, m)) {
            j.flush();
        }
    }
}
