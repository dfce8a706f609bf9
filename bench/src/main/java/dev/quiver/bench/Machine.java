package dev.quiver.bench;

import dev.quiver.snapshots.Snapshots;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;
import java.util.stream.Stream;

/**
 * What the figures were measured on, and the process-level measurements: peak resident memory
 * (Linux {@code /proc/self/status}), bytes on disk, the JVM and the machine.
 */
public final class Machine {
    private Machine() {}

    /**
     * Peak resident set size of this process ({@code VmHWM} in {@code /proc/self/status}), in bytes;
     * -1 where that file does not exist (not Linux).
     */
    public static long peakRssBytes() {
        return toBytes(procStatusKiB("VmHWM:"));
    }

    /**
     * The part of the resident set that maps files ({@code RssFile}: the world's mapped generation
     * files, the JVM's own jars and libraries), in bytes; -1 where unknown.
     */
    public static long rssFileBytes() {
        return toBytes(procStatusKiB("RssFile:"));
    }

    /**
     * The garbage collections since the JVM started, per collector: {@code "Copy 120 in 1.52 s,
     * MarkSweepCompact 31 in 9.80 s"} (the harness's own {@code System.gc()} calls included).
     */
    public static String gcSummary() {
        StringBuilder b = new StringBuilder();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            b.append(b.length() == 0 ? "" : ", ").append(gc.getName()).append(' ').append(gc.getCollectionCount())
                    .append(String.format(Locale.ROOT, " in %.2f s", gc.getCollectionTime() / 1e3));
        }
        return b.toString();
    }

    /**
     * Milliseconds every collector has spent collecting since the JVM started (the sum of
     * {@link GarbageCollectorMXBean#getCollectionTime()}; a collector that does not report it
     * counts 0): the difference over an operation is the collection time inside it.
     */
    public static long gcMillis() {
        long ms = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            ms += Math.max(0, gc.getCollectionTime());
        }
        return ms;
    }

    /** Current resident set size ({@code VmRSS}), in bytes; -1 where unknown. */
    public static long rssBytes() {
        return toBytes(procStatusKiB("VmRSS:"));
    }

    private static long toBytes(long kib) {
        return kib < 0 ? -1 : kib * 1024;
    }

    private static long procStatusKiB(String key) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith(key)) {
                    // "VmHWM:	  123456 kB"
                    String v = line.substring(key.length()).trim();
                    return Long.parseLong(v.substring(0, v.indexOf(' ')).trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or an unexpected format: unknown
        }
        return -1;
    }

    /**
     * The sum of the sizes of the regular files under {@code dir} (their apparent sizes, as
     * {@code du --apparent-size -b}; Chronicle Map files are sparse, so fewer blocks may be
     * allocated), in bytes.
     */
    public static long directoryBytes(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The disk space the files under {@code dir} occupy (allocated blocks, as {@code du -s -B1}),
     * in bytes; -1 where {@code du} is not available.
     */
    public static long allocatedBytes(Path dir) {
        try {
            Process p = new ProcessBuilder("du", "-s", "-B1", dir.toString()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            if (p.waitFor() != 0) {
                return -1;
            }
            return Long.parseLong(out.trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** Deletes a directory tree (or a file); a missing path is no error, nor is a file that cannot go. */
    public static void deleteTree(Path path) {
        Snapshots.undoCreate(path, path);
    }

    /** The JVM: vendor, version, maximum heap, collectors and the options it was started with. */
    public static String jvm() {
        var rt = ManagementFactory.getRuntimeMXBean();
        StringJoiner gcs = new StringJoiner("+");
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            gcs.add(gc.getName());
        }
        List<String> args = rt.getInputArguments().stream()
                .filter(a -> !a.startsWith("--add-opens") && !a.startsWith("--add-exports")
                        && !a.startsWith("-Dchronicle."))
                .toList();
        return String.format(Locale.ROOT, "%s %s (%s), max heap %s, GC %s, options %s",
                System.getProperty("java.vm.name"), System.getProperty("java.runtime.version"),
                System.getProperty("java.vendor"), bytes(Runtime.getRuntime().maxMemory()), gcs,
                args.isEmpty() ? "(none)" : String.join(" ", args));
    }

    /** The machine: CPU model, cores, memory, operating system. */
    public static String machine() {
        String cpu = firstValue(Path.of("/proc/cpuinfo"), "model name");
        String mem = firstValue(Path.of("/proc/meminfo"), "MemTotal");
        return String.format(Locale.ROOT, "%s, %d cores, %s RAM, %s %s %s",
                cpu == null ? System.getProperty("os.arch") : cpu, Runtime.getRuntime().availableProcessors(),
                mem == null ? "?" : bytes(Long.parseLong(mem.replace("kB", "").trim()) * 1024),
                System.getProperty("os.name"), System.getProperty("os.version"), System.getProperty("os.arch"));
    }

    /** CPU time the current thread has used, in nanoseconds (ThreadMXBean); wall time minus waiting for a core. */
    public static long threadCpuNanos() {
        return java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    }

    /** Bytes this thread has allocated so far (HotSpot's ThreadMXBean), or -1 where not supported. */
    public static long threadAllocatedBytes() {
        var mx = java.lang.management.ManagementFactory.getThreadMXBean();
        return mx instanceof com.sun.management.ThreadMXBean t ? t.getCurrentThreadAllocatedBytes() : -1;
    }

    /** The 1, 5 and 15 minute load averages ({@code /proc/loadavg}), or "?" where unknown. */
    public static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }

    private static String firstValue(Path file, String key) {
        try {
            for (String line : Files.readAllLines(file)) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equals(key)) {
                    return line.substring(colon + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            // unknown
        }
        return null;
    }

    /** A byte count in binary units, e.g. {@code 1.5 GiB}. */
    public static String bytes(long n) {
        if (n < 0) {
            return "?";
        }
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        double v = n;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return u == 0 ? n + " B" : String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }
}
