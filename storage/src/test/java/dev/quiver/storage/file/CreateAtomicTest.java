package dev.quiver.storage.file;

import dev.quiver.storage.World;
import dev.quiver.storage.WorldPages;
import dev.quiver.storage.WorldExistsException;

import dev.quiver.error.StorageIOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Creating and restoring a world is atomic (issue 8, fault 4): a failure or a kill never leaves a
 * half-made world, a retry succeeds, and of two restores racing for one path the loser gets
 * {@link WorldExistsException} and leaves the winner's world alone.
 */
class CreateAtomicTest {
    @TempDir
    Path tmp;

    @AfterEach
    void uninstall() {
        Store.hooks = StoreHooks.NONE;
    }

    private static List<String> siblings(Path dir) throws Exception {
        try (var s = Files.list(dir.getParent())) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("." + dir.getFileName() + ".new-"))
                    .toList();
        }
    }

    private static List<WorldPages.Page> pagesOf(Path source) {
        var pages = new ArrayList<WorldPages.Page>();
        try (World w = World.openReadOnly(source)) {
            WorldPages.forEach(w, (m, k, b) -> pages.add(new WorldPages.Page(m, k, b)));
        }
        return pages;
    }

    private Path source() {
        Path src = tmp.resolve("src");
        try (World w = World.create(src)) {
            w.entity("house.kitchen");
            w.add(w.entity("bob"), w.pair(w.entity("Likes"), w.entity("alice")));
        }
        return src;
    }

    private static void assertRestored(Path dir) {
        try (World w = World.openReadOnly(dir)) {
            assertEquals(List.of(), w.check());
            assertNotEquals(0, w.lookup("house.kitchen"));
            assertNotEquals(0, w.lookup("alice"));
        }
    }

    @Test
    void aFailureWhileCreatingLeavesNothing() throws Exception {
        Path dir = tmp.resolve("w");
        for (String step : List.of("create format", "create filled", "create built")) {
            Store.hooks = new StoreHooks() {
                @Override
                void step(String name) {
                    if (name.equals(step)) {
                        throw new StorageIOException("injected failure at " + step);
                    }
                }
            };
            assertThrows(StorageIOException.class, () -> World.create(dir), step);
            assertFalse(Files.exists(dir), step);
            assertEquals(List.of(), siblings(dir), step);
        }
        Store.hooks = StoreHooks.NONE;
        World.create(dir).close();
        assertTrue(World.exists(dir));
    }

    /** Child: {@code create TARGET STEP} or {@code restore TARGET STEP SOURCE}, halting at STEP. */
    public static void main(String[] args) {
        Store.hooks = new StoreHooks() {
            @Override
            void step(String name) {
                if (name.equals(args[2])) {
                    Runtime.getRuntime().halt(77);
                }
            }
        };
        Path target = Path.of(args[1]);
        if (args[0].equals("create")) {
            World.create(target).close();
        } else {
            WorldPages.restore(target, pagesOf(Path.of(args[3]))).close();
        }
        System.exit(3);
    }

    @Test
    void aKilledCreateOrRestoreLeavesNoWorldAndIsRetried() throws Exception {
        Path src = source();
        int i = 0;
        for (String step : List.of("create format", "create filled", "create built")) {
            for (String mode : List.of("create", "restore")) {
                Path dir = tmp.resolve("w" + i++);
                assertEquals(77, ChildJvm.run(CreateAtomicTest.class, mode, dir, step, src), mode + " " + step);
                assertFalse(Files.exists(dir), mode + " " + step + ": no half-made world");
                assertEquals(1, siblings(dir).size(), "the killed process's temporary directory");
                if (mode.equals("create")) {
                    World.create(dir).close();
                } else {
                    WorldPages.restore(dir, pagesOf(src)).close();
                    assertRestored(dir);
                }
                assertEquals(List.of(), siblings(dir), "a dead process's leftover is removed");
            }
        }
    }

    @Test
    void twoRestoresRacingForOnePathHaveOneWinner() throws Exception {
        Path src = source();
        List<WorldPages.Page> pages = pagesOf(src);
        Path dir = Files.createDirectory(tmp.resolve("r")); // an empty directory may be restored into
        var built = new CyclicBarrier(2);
        Store.hooks = new StoreHooks() {
            @Override
            void step(String name) {
                if (name.equals("create built")) {
                    try {
                        built.await(60, TimeUnit.SECONDS); // both built: both rename now
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }
            }
        };
        var wins = new AtomicInteger();
        var losses = new ArrayList<Throwable>();
        Runnable restore = () -> {
            try {
                WorldPages.restore(dir, pages).close();
                wins.incrementAndGet();
            } catch (Throwable t) {
                synchronized (losses) {
                    losses.add(t);
                }
            }
        };
        Thread a = new Thread(restore), b = new Thread(restore);
        a.start();
        b.start();
        a.join(120_000);
        b.join(120_000);
        assertEquals(1, wins.get(), "losses: " + losses);
        assertEquals(1, losses.size());
        assertInstanceOf(WorldExistsException.class, losses.get(0));
        assertTrue(losses.get(0).getMessage().contains("another process created it"), losses.get(0).getMessage());
        Store.hooks = StoreHooks.NONE;
        assertRestored(dir);
        assertEquals(List.of(), siblings(dir));
        var e = assertThrows(WorldExistsException.class, () -> WorldPages.restore(dir, pages));
        assertTrue(e.getMessage().contains("not empty"), e.getMessage());
        assertRestored(dir);
    }
}
