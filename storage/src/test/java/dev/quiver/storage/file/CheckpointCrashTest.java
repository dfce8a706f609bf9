package dev.quiver.storage.file;

import dev.quiver.storage.World;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Killing the writer inside a checkpoint (issue 8, faults 1 and 3): a child commits entity b and
 * halts at each step of the checkpoint its close runs (generation written, manifest written,
 * CURRENT swapped, done), or right after the WAL append. Every time the next open, as reader or
 * writer, finds a and b, a clean check(), and no wait; and once a writer has opened it, no file
 * the live manifest does not need is left.
 */
class CheckpointCrashTest {
    @TempDir
    Path tmp;

    @AfterEach
    void uninstall() {
        Store.hooks = StoreHooks.NONE;
    }

    /** Child: {@code DIR STEP} commits entity b and halts at STEP ({@code wal}: after the WAL append). */
    public static void main(String[] args) {
        String step = args[1];
        Store.hooks = new StoreHooks() {
            @Override
            void afterJournal(long txSeq) {
                if (step.equals("wal")) {
                    Runtime.getRuntime().halt(77);
                }
            }

            @Override
            void step(String name) {
                if (name.equals(step)) {
                    Runtime.getRuntime().halt(77);
                }
            }
        };
        try (World w = World.open(Path.of(args[0]))) {
            w.entity("b");
        }
        System.exit(3);
    }

    @Test
    void killingTheWriterAtAnyCheckpointStepLosesNothing() throws Exception {
        Path clean = tmp.resolve("clean");
        try (World w = World.create(clean)) {
            w.entity("a");
        }
        int i = 0;
        for (String step : List.of("wal", "checkpoint written", "checkpoint manifest", "checkpoint current", "checkpoint done")) {
            Path dir = tmp.resolve("w" + i++);
            ChildJvm.copyTree(clean, dir);
            assertEquals(77, ChildJvm.run(CheckpointCrashTest.class, dir, step), step);
            try (World w = World.openReadOnly(dir)) {
                assertEquals(List.of(), w.check(), step);
                assertNotEquals(0, w.lookup("a"), step);
                assertNotEquals(0, w.lookup("b"), step + ": the committed transaction is there");
            }
            try (World w = World.open(dir)) {
                assertEquals(List.of(), w.check(), step);
                assertNotEquals(0, w.lookup("b"), step);
                w.entity("c");
            }
            try (World w = World.openReadOnly(dir)) {
                assertNotEquals(0, w.lookup("c"), step);
            }
            long cur = Manifest.current(dir);
            var needed = new java.util.HashSet<String>(List.of("FORMAT", Manifest.CURRENT, Locks.WRITER,
                    Manifest.fileName(cur), Manifest.walName(cur)));
            for (long g : Manifest.read(dir, cur).generations()) {
                needed.add(Generation.fileName(g));
            }
            try (var s = Files.list(dir)) {
                for (Path f : s.toList()) {
                    assertTrue(needed.contains(f.getFileName().toString()), step + ": leftover " + f.getFileName());
                }
            }
            NewWorld.deleteTree(dir);
        }
    }
}
