package dev.quiver.storage.file;

import dev.quiver.storage.World;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Kills a child JVM (SIGKILL) in the middle of a multi-transaction load and checks that the world
 * reopens with every invariant holding and exactly a prefix of whole transactions in it
 * (DESIGN.md contract 1).
 */
class CrashTest {
    static final int TXS = 400, PER_TX = 50;

    /**
     * Child process: load TXS transactions, printing "committed i" after each commit returns; with
     * a second argument N, halts right after journaling the Nth commit of the opened world.
     */
    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        if (args.length > 1) {
            long haltAt = Long.parseLong(args[1]);
            Store.hooks = new StoreHooks() {
                @Override
                void afterJournal(long txSeq) {
                    if (txSeq == haltAt) {
                        Runtime.getRuntime().halt(77); // die between journal and map files
                    }
                }
            };
        }
        try (World w = World.openOrCreate(dir)) {
            long rel = w.entity("Next");
            for (int i = 0; i < TXS; i++) {
                final int tx = i;
                w.transaction(t -> {
                    long prev = 0;
                    for (int j = 0; j < PER_TX; j++) {
                        long e = t.entity("t" + tx + "_" + j);
                        if (prev != 0) {
                            t.add(e, t.pair(rel, prev));
                        }
                        prev = e;
                    }
                    t.entity("done" + tx);
                });
                System.out.println("committed " + i);
                System.out.flush();
            }
        }
    }

    private static Process child(Path dir, String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("--add-") || a.startsWith("-Dchronicle")) {
                cmd.add(a);
            }
        }
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(CrashTest.class.getName());
        cmd.add(dir.toString());
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectErrorStream(false).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }

    /** Every transaction is entirely present or absent, and the present ones are 0..n-1. */
    private static int committedPrefix(Path dir) {
        try (World w = World.open(dir)) {
            assertEquals(List.of(), w.check());
            int n = 0;
            while (n < TXS && w.lookup("done" + n) != 0) {
                n++;
            }
            for (int i = 0; i < TXS; i++) {
                int present = 0;
                for (int j = 0; j < PER_TX; j++) {
                    if (w.lookup("t" + i + "_" + j) != 0) {
                        present++;
                    }
                }
                boolean done = w.lookup("done" + i) != 0;
                assertEquals(done ? PER_TX : 0, present, "transaction " + i + " is partly there");
                assertEquals(i < n, done, "transaction " + i + " out of order");
            }
            return n;
        }
    }

    @Test
    void sigkillMidLoadKeepsExactlyTheCommittedTransactions() throws Exception {
        for (int round = 0; round < 3; round++) {
            Path dir = tmp.resolve("w" + round);
            Process p = child(dir);
            int seen = -1;
            int killAt = 20 + round * 37;
            try (var r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    seen = Integer.parseInt(line.substring("committed ".length()));
                    if (seen >= killAt) {
                        p.destroyForcibly(); // SIGKILL
                        break;
                    }
                }
            }
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            assertTrue(seen >= killAt, "child died before committing " + killAt + " transactions");
            int n = committedPrefix(dir);
            assertTrue(n >= seen + 1, "lost committed transactions: reopened with " + n + ", child reported " + (seen + 1));
        }
    }

    @Test
    void crashBetweenJournalAndMapFilesIsRecovered() throws Exception {
        Path dir = tmp.resolve("j");
        // commits of the opened world (the bootstrap commit is made while creating it): 1 the Next
        // entity, 2.. the transactions; die after journaling commit 9
        Process p = child(dir, "9");
        var out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(77, p.exitValue(), out);
        // transaction 7 (commit 9) was journaled but never reached the map files nor printed
        assertFalse(out.contains("committed 7"));
        assertEquals(8, committedPrefix(dir));
    }

    @TempDir
    Path tmp;
}
