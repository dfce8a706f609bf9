package dev.quiver.storage.file;

import dev.quiver.storage.World;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Readers beside one writer (issue 8, section 4): a child JVM writes transactions in a loop (the
 * workload of {@link CrashTortureTest}: creations, cascading deletes, and a close and reopen, so a
 * checkpoint, every 5 to 15 transactions) while this JVM opens the world read-only again and again
 * and another child reads it in a loop too. Every state a reader opens must be exactly the state
 * after some committed transaction, between the last one the writer reported before the open and
 * the first one it reported after it, with a clean {@link World#check()}; and the writer must
 * never be refused or slowed to a stop by the readers.
 *
 * <p>{@code -Dquiver.seed=N} reproduces the writer's choices (printed); the run lasts about
 * {@code -Dquiver.readers.seconds} seconds (default 12).
 */
class ReadersBesideWriterTest {
    @TempDir
    Path tmp;

    private static String storeOf(World w) {
        try {
            var p = World.class.getDeclaredField("persistence");
            p.setAccessible(true);
            Object persistence = p.get(w);
            var f = persistence.getClass().getDeclaredField("store");
            f.setAccessible(true);
            return String.valueOf(f.get(persistence));
        } catch (ReflectiveOperationException e) {
            return e.toString();
        }
    }

    @Test
    void everyReaderSeesExactlyOneCommittedState() throws Exception {
        long seed = Long.getLong("quiver.seed", System.nanoTime());
        int seconds = Integer.getInteger("quiver.readers.seconds", 12);
        System.out.println("ReadersBesideWriterTest seed " + seed + " (-Dquiver.seed=" + seed + ")");
        Path dir = tmp.resolve("w");
        int baseCount;
        try (World w = World.create(dir)) {
            baseCount = w.entityCount();
        }
        AtomicInteger reported = new AtomicInteger();
        var regressions = new java.util.concurrent.CopyOnWriteArrayList<String>();
        Process writer = ChildJvm.start(CrashTortureTest.class, "load", dir, seed);
        Process reader = ChildJvm.start(CrashTortureTest.class, "read", dir, seed);
        Thread pump = new Thread(() -> {
            try (var r = new BufferedReader(new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    if (line.startsWith("committed ")) {
                        int k = Integer.parseInt(line.substring(10));
                        if (k != reported.get() + 1) {
                            regressions.add(reported.get() + " -> " + k);
                        }
                        reported.set(k);
                    }
                }
            } catch (java.io.IOException ignored) {
                // the writer was killed
            }
        });
        pump.setDaemon(true);
        pump.start();
        int opens = 0, distinct = 0, last = -1;
        try {
            long end = System.nanoTime() + seconds * 1_000_000_000L;
            // on a loaded machine the children start slowly: past 'seconds', keep reading until the
            // writer has made progress and the readers saw it, up to a hard limit (no timing asserted)
            long hardEnd = System.nanoTime() + Math.max(seconds, 180) * 1_000_000_000L;
            while (System.nanoTime() < end
                    || ((reported.get() <= 3 || distinct <= 1) && System.nanoTime() < hardEnd)) {
                int lo = reported.get();
                int k;
                try (World w = World.openReadOnly(dir)) {
                    int hi = Integer.MAX_VALUE; // commits are reported a moment after they are durable
                    String files;
                    try (var ls = Files.list(dir)) {
                        files = ls.map(f -> f.getFileName().toString()).sorted().toList().toString();
                    }
                    k = CrashTortureTest.verify(w, lo, hi, baseCount, "seed " + seed + " open " + opens + " " + files + " " + Manifest.current(dir) + " regressions " + regressions + " " + storeOf(w));
                }
                assertTrue(writer.isAlive(), "the writer died (exit " + (writer.isAlive() ? "" : writer.exitValue()) + ")");
                opens++;
                if (k != last) {
                    distinct++;
                    last = k;
                }
            }
            assertTrue(reader.isAlive(), "the reading child died");
            if (reported.get() <= 3) { // diagnostics for the assertion below: the writer's threads
                try {
                    Process js = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jstack").toString(),
                            Long.toString(writer.pid())).redirectErrorStream(true).start();
                    System.out.println(new String(js.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
                } catch (java.io.IOException e) {
                    System.out.println("no jstack for diagnostics: " + e.getMessage());
                }
            }
            assertEquals(java.util.List.of(), regressions, "the writer's own reopen went back in time");
        } finally {
            writer.toHandle().destroyForcibly();
            reader.toHandle().destroyForcibly();
            writer.waitFor(30, TimeUnit.SECONDS);
            reader.waitFor(30, TimeUnit.SECONDS);
        }
        System.out.println("ReadersBesideWriterTest seed " + seed + ": " + opens + " reader opens saw " + distinct
                + " distinct committed states; the writer reached transaction " + reported.get());
        // progress only (a busy machine's fsyncs are slow; timings are never asserted)
        assertTrue(reported.get() > 3, "the writer made no progress beside the readers: " + reported.get());
        assertTrue(distinct > 1, "the readers saw only " + distinct + " states");
        try (World w = World.open(dir)) {
            assertEquals(java.util.List.of(), w.check());
        }
        try (var s = Files.list(dir)) {
            assertTrue(s.count() < 20, "old generations are retired once no reader pins them");
        }
    }
}
