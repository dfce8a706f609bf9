package dev.quiver.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Start-up phases of one command, for measuring: with {@code -Dquiver.trace=true} (for instance
 * {@code JAVA_TOOL_OPTIONS=-Dquiver.trace=true ./quiver ...}, which keeps the launcher's own options;
 * {@code QUIVER_JAVA_OPTS} would replace them and so measure another start-up)
 * the command prints to stderr, before it exits, one line per phase: the CPU time the main thread
 * spent in it and the wall time since the previous mark, in milliseconds, then the CPU time of the
 * whole process (all threads, in 10 ms ticks). The first phase, {@code jvm}, is the main thread's CPU before {@code main}. CPU
 * times are read from Linux's {@code /proc/thread-self/schedstat} (nanoseconds on a CPU), which
 * needs no management classes and so does not change what it measures; elsewhere they print as -1.
 * Off by default: a mark is then one test of a constant.
 */
final class Trace {
    private Trace() {}

    /** True when {@code -Dquiver.trace=true}. */
    static final boolean ON = Boolean.getBoolean("quiver.trace");

    private static final List<String> NAMES = new ArrayList<>();
    private static final List<long[]> MARKS = new ArrayList<>();

    /** Ends the phase named {@code phase} here (the first mark names the phase before {@code main}). */
    static void mark(String phase) {
        if (ON) {
            synchronized (MARKS) {
                NAMES.add(phase);
                MARKS.add(new long[] {threadCpuNanos(), System.nanoTime()});
            }
        }
    }

    /** Prints the phases to {@code err} (nothing when tracing is off). */
    static void report(PrintStream err) {
        if (!ON) {
            return;
        }
        mark("exit");
        synchronized (MARKS) {
            StringBuilder b = new StringBuilder("quiver trace (main-thread cpu ms / wall ms):");
            long[] prev = null;
            for (int i = 0; i < MARKS.size(); i++) {
                long[] m = MARKS.get(i);
                double cpu = m[0] < 0 ? -1 : (m[0] - (prev == null ? 0 : prev[0])) / 1e6;
                double wall = prev == null ? 0 : (m[1] - prev[1]) / 1e6;
                b.append(String.format(java.util.Locale.ROOT, " %s %.1f/%.1f", NAMES.get(i), cpu, wall));
                prev = m;
            }
            b.append(String.format(java.util.Locale.ROOT, "; process cpu %.1f ms;", processCpuNanos() / 1e6));
            threads(b);
            err.println(b);
        }
    }

    private static long threadCpuNanos() {
        return schedstat(Path.of("/proc/thread-self/schedstat"));
    }

    /** Appends " name cpu-ms" for each live thread of the process that ran at least 1 ms. */
    private static void threads(StringBuilder b) {
        try (java.nio.file.DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path t : tasks) {
                long n = schedstat(t.resolve("schedstat"));
                if (n >= 1_000_000) {
                    b.append(String.format(java.util.Locale.ROOT, " [%s] %.0f", Files.readString(t.resolve("comm")).strip(), n / 1e6));
                }
            }
        } catch (IOException e) {
            b.append(" (no /proc/self/task)");
        }
    }

    /** utime + stime of /proc/self/stat (all threads, also ended ones), in ticks of 10 ms. */
    private static long processCpuNanos() {
        try {
            String s = Files.readString(Path.of("/proc/self/stat"));
            String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10_000_000L;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static long schedstat(Path file) {
        try {
            String s = Files.readString(file);
            return Long.parseLong(s.substring(0, s.indexOf(' ')));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
