package dev.quiver.storage.file;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Test support: starts a child JVM running a test class's {@code main}, with the JVM flags Chronicle
 * Map needs (the {@code --add-*} and {@code -Dchronicle*} arguments this JVM got from surefire's
 * argLine, property {@code quiver.jvm.flags} of the root pom) and this JVM's class path; and runs an
 * action with a time limit, so that a wedged open fails the test instead of hanging it.
 */
final class ChildJvm {
    private ChildJvm() {}

    static Process start(Class<?> main, Object... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("--add-") || a.startsWith("-Dchronicle")) {
                cmd.add(a);
            }
        }
        cmd.add("-Xmx512m");
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(main.getName());
        for (Object a : args) {
            cmd.add(a.toString());
        }
        return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    /** Runs a child to its end and returns its exit code. */
    static int run(Class<?> main, Object... args) throws Exception {
        Process p = start(main, args);
        p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("child " + main.getSimpleName() + " did not finish");
        }
        return p.exitValue();
    }

    /**
     * Runs {@code action} in another thread and waits at most {@code seconds} (longer than Chronicle
     * Map's own 60 s lock timeout, so that a wedge shows as that failure rather than this one).
     */
    static <T> T within(int seconds, String what, Callable<T> action) throws Exception {
        var ex = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, what);
            t.setDaemon(true);
            return t;
        });
        try {
            return ex.submit(action).get(seconds, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError(what + " did not finish in " + seconds + " s: the world is wedged", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception) {
                throw (Exception) e.getCause();
            }
            throw new AssertionError(e.getCause());
        } finally {
            ex.shutdownNow();
        }
    }

    /** Copies a directory tree (a world with its sessions/ folder). */
    static void copyTree(Path from, Path to) throws java.io.IOException {
        try (var files = java.nio.file.Files.walk(from)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Path t = to.resolve(from.relativize(f).toString());
                if (java.nio.file.Files.isDirectory(f)) {
                    java.nio.file.Files.createDirectories(t);
                } else {
                    java.nio.file.Files.copy(f, t);
                }
            }
        }
    }
}
