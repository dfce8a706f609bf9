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
 * Killing the recovering opener (issue 8, fault 3): a world whose writer died with a journaled but
 * unapplied transaction is recovered by a child that halts at each step of recovery in turn
 * (between copying, recovering and renaming a map file, after the replay, inside the checkpoint);
 * every time, the next open must succeed with the transaction in place and a clean check().
 */
class RecoveryCrashTest {
    @TempDir
    Path tmp;

    @AfterEach
    void uninstall() {
        Store.hooks = StoreHooks.NONE;
    }

    /**
     * Child: {@code journal DIR} commits entity b and halts after journaling it;
     * {@code recover DIR STEP} opens the world and halts when recovery reaches STEP.
     */
    public static void main(String[] args) {
        String mode = args[0];
        String step = args.length > 2 ? args[2] : "";
        Store.hooks = new StoreHooks() {
            @Override
            void afterJournal(long txSeq) {
                if (mode.equals("journal")) {
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
        try (World w = World.open(Path.of(args[1]))) {
            w.entity("b");
        }
        System.exit(3);
    }

    @Test
    void killingTheRecoveringOpenerAtAnyStepLosesNothing() throws Exception {
        Path crashed = tmp.resolve("crashed");
        try (World w = World.create(crashed)) {
            w.entity("a");
        }
        assertEquals(77, ChildJvm.run(RecoveryCrashTest.class, "journal", crashed));
        assertTrue(Files.exists(crashed.resolve("DIRTY")));
        List<String> steps = List.of("recovery start", "copied meta", "recovered entities", "renamed tables",
                "renamed names", "replayed", "checkpoint forced");
        int i = 0;
        for (String step : steps) {
            Path dir = tmp.resolve("w" + i++);
            ChildJvm.copyTree(crashed, dir);
            assertEquals(77, ChildJvm.run(RecoveryCrashTest.class, "recover", dir, step), step);
            if (i % 2 == 0) { // and once more, killed in another step of the next recovery
                String again = steps.get((i * 3) % steps.size());
                assertEquals(77, ChildJvm.run(RecoveryCrashTest.class, "recover", dir, again), step + ", " + again);
            }
            try (World w = World.openReadOnly(dir)) {
                assertEquals(List.of(), w.check(), step);
                assertNotEquals(0, w.lookup("a"), step);
                assertNotEquals(0, w.lookup("b"), step + ": the journaled transaction is replayed");
            }
            try (var s = Files.list(dir)) {
                assertTrue(s.noneMatch(p -> p.toString().endsWith(Recovery.SUFFIX)), step + ": no copy left");
            }
            NewWorld.deleteTree(dir);
        }
    }

    @Test
    void aRecoveryThatFailsKeepsTheJournalForTheNextOpen() throws Exception {
        Path dir = tmp.resolve("w");
        try (World w = World.create(dir)) {
            w.entity("a");
        }
        assertEquals(77, ChildJvm.run(RecoveryCrashTest.class, "journal", dir));
        for (String step : List.of("copied names", "replayed", "checkpoint forced")) {
            Store.hooks = new StoreHooks() {
                @Override
                void step(String name) {
                    if (name.equals(step)) {
                        throw new dev.quiver.error.StorageIOException("injected failure at " + step);
                    }
                }
            };
            assertThrows(dev.quiver.error.StorageIOException.class, () -> World.open(dir), step);
            assertTrue(Files.size(dir.resolve("journal")) > 0, step + ": the journal is kept");
            assertTrue(Files.exists(dir.resolve("DIRTY")), step);
        }
        Store.hooks = StoreHooks.NONE;
        try (World w = World.open(dir)) {
            assertEquals(List.of(), w.check());
            assertNotEquals(0, w.lookup("b"));
        }
    }
}
