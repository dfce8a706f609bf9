package dev.quiver.storage.file;

import dev.quiver.storage.World;
import dev.quiver.storage.WorldLockedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * One process holding a world's writer and several of its readers at once (issue 8 section 4, for
 * library users): each reader keeps the state of its open through the writer's commits,
 * checkpoints and garbage collection, the writer's lock still holds against other processes while
 * readers of this process come and go, and a second writer of the same world in this process is
 * refused.
 */
class InProcessOpenersTest {
    @TempDir
    Path tmp;

    private Path world() {
        Path dir = tmp.resolve("w");
        try (World w = World.create(dir)) {
            w.entity("a");
        }
        return dir;
    }

    @Test
    void readersKeepTheirStateWhileTheWriterCommitsAndCheckpoints() {
        Path dir = world();
        World writer = World.open(dir);
        World first = World.openReadOnly(dir);
        World second = World.openReadOnly(dir); // the same manifest, pinned twice in this process
        try {
            writer.entity("b");
            World third = World.openReadOnly(dir); // the same manifest and the writer's WAL record
            assertNotEquals(0, third.lookup("b"));
            assertEquals(0, first.lookup("b"));
            third.close();
            writer.close(); // checkpoint: a new manifest; the pinned one must stay, with its files
            writer = World.open(dir);
            writer.entity("c");
            writer.close(); // another checkpoint, maybe a merge into a new base
            writer = World.open(dir);
            for (World r : List.of(first, second)) {
                assertNotEquals(0, r.lookup("a"));
                assertEquals(0, r.lookup("b"));
                assertEquals(List.of(), r.check());
            }
            first.close();
            assertEquals(List.of(), second.check(), "closing one reader keeps the other's pin");
            try (World late = World.openReadOnly(dir)) {
                assertNotEquals(0, late.lookup("c"));
                assertEquals(List.of(), late.check());
            }
        } finally {
            first.close();
            second.close();
            writer.close();
        }
        try (World w = World.open(dir)) {
            assertEquals(List.of(), w.check());
        }
        assertEquals(1, manifests(dir).size(), "once no reader pins an old manifest the writer retires it");
    }

    @Test
    void aSecondWriterInThisProcessIsRefusedAndReadersDoNotDropTheWritersLock() throws Exception {
        Path dir = world();
        try (World w = World.open(dir)) {
            var e = assertThrows(WorldLockedException.class, () -> World.open(dir));
            assertTrue(e.getMessage().contains("already open for writing in this process"), e.getMessage());
            for (int i = 0; i < 3; i++) {
                World.openReadOnly(dir).close(); // opens and closes the world's files in this process
            }
            Process p = ChildJvm.start(OpenerTest.class, "hold", dir, "writer");
            p.getOutputStream().close();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            assertNotEquals(0, p.exitValue(), "the writer's lock still holds against another process");
            w.entity("b");
        }
        try (World w = World.open(dir)) {
            assertNotEquals(0, w.lookup("b"));
        }
    }

    @Test
    void readersOnSeveralThreadsBesideTheWriter() throws Exception {
        Path dir = world();
        try (World w = World.open(dir)) {
            var errors = new ArrayList<Throwable>();
            var threads = new ArrayList<Thread>();
            for (int t = 0; t < 3; t++) {
                Thread th = new Thread(() -> {
                    try {
                        for (int i = 0; i < 20; i++) {
                            try (World r = World.openReadOnly(dir)) {
                                assertNotEquals(0, r.lookup("a"));
                                assertEquals(List.of(), r.check());
                            }
                        }
                    } catch (Throwable x) {
                        synchronized (errors) {
                            errors.add(x);
                        }
                    }
                });
                threads.add(th);
                th.start();
            }
            for (int i = 0; i < 20; i++) {
                w.entity("e" + i);
            }
            for (Thread th : threads) {
                th.join();
            }
            assertEquals(List.of(), errors);
        }
    }

    private static List<Path> manifests(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith("MANIFEST-")).toList();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
