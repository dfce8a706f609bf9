package dev.quiver.storage.file;

import dev.quiver.storage.World;
import dev.quiver.storage.WorldLockedException;

import dev.quiver.error.CorruptionException;
import dev.quiver.error.StorageIOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Who may open a world, and what an opener finds (issue 8): a reader killed while it held a
 * Chronicle lock does not block anyone (fault 2), readers open beside the writer and the second
 * writer's message names the writer (fault 5), read-only media are readable (fault 6), and a
 * missing generation file is corruption, never recreated empty (fault 7).
 */
class OpenerTest {
    @TempDir
    Path tmp;

    @AfterEach
    void uninstall() {
        Store.hooks = StoreHooks.NONE;
    }

    /**
     * Child: {@code hold DIR reader|writer} opens the world, prints "open" and waits for its
     * standard input to close; {@code die-in-lock DIR read|update} opens the world read-only and
     * halts holding a Chronicle read lock on the segment of its generation file's directory page, or
     * while it iterates that file (under Chronicle's iteration lock).
     */
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[1]);
        if (args[0].equals("hold")) {
            try (World w = args[2].equals("reader") ? World.openReadOnly(dir) : World.open(dir)) {
                System.out.println("open");
                System.out.flush();
                System.in.read();
            }
        } else {
            Store st = Store.open(dir, true, (family, key, base, deltas, familyDeltas) -> dev.quiver.storage.format.WorldFormat.applyDelta(family, key, base, deltas, familyDeltas));
            var f = Store.generationFiles(dir).get(0).toFile();
            var map = net.openhft.chronicle.map.ChronicleMap.of(byte[].class, byte[].class).createPersistedTo(f);
            byte[] directoryKey = {-1, -1, -1, -1, -1, -1, -1, -1, 0, 0}; // read by every open
            if (args[2].equals("read")) {
                var c = map.queryContext(directoryKey);
                c.readLock().lock();
            } else {
                map.forEachEntry(e -> Runtime.getRuntime().halt(3)); // dies iterating, under the segment's lock
            }
            Runtime.getRuntime().halt(3);
            st.close();
        }
    }

    private Path world() {
        Path dir = tmp.resolve("w");
        try (World w = World.create(dir)) {
            w.entity("a");
        }
        return dir;
    }

    @Test
    void aReaderKilledHoldingChronicleReadLocksDoesNotBlockTheWorld() throws Exception {
        killedHolding("read");
    }

    @Test
    void aProcessKilledHoldingChronicleUpdateLocksDoesNotBlockTheWorld() throws Exception {
        killedHolding("update");
    }

    private void killedHolding(String level) throws Exception {
        Path dir = world();
        assertEquals(3, ChildJvm.run(OpenerTest.class, "die-in-lock", dir, level));
        ChildJvm.within(50, "read after a dead reader", () -> {
            try (World w = World.openReadOnly(dir)) {
                assertNotEquals(0, w.lookup("a"));
                assertEquals(List.of(), w.check());
            }
            return null;
        });
        // without recovery the writer would wait 60 s on the dead reader's lock and then fail
        ChildJvm.within(50, "open after a dead reader", () -> {
            try (World w = World.open(dir)) {
                for (int i = 0; i < 50; i++) {
                    w.entity("e" + i);
                }
                assertEquals(List.of(), w.check());
            }
            return null;
        });
        try (World w = World.openReadOnly(dir)) {
            assertNotEquals(0, w.lookup("e49"));
            assertEquals(List.of(), w.check());
        }
    }

    private static Process hold(Path dir, String role) throws Exception {
        Process p = ChildJvm.start(OpenerTest.class, "hold", dir, role);
        var r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        assertEquals("open", r.readLine());
        return p;
    }

    private static void release(Process p) throws Exception {
        p.getOutputStream().close();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue());
    }

    @Test
    void readersOpenBesideTheWriterAndASecondWriterIsToldWhoWrites() throws Exception {
        Path dir = world();
        Files.writeString(dir.resolve(Locks.WRITER), "999999\n"); // left by a writer long gone
        Process reader = hold(dir, "reader");
        try (World w = World.open(dir)) {
            w.entity("b"); // the writer is not held up by the reader
        } finally {
            release(reader);
        }
        Process writer = hold(dir, "writer");
        try {
            try (World r = World.openReadOnly(dir)) {
                assertNotEquals(0, r.lookup("b"));
                assertEquals(List.of(), r.check());
            }
            var e = assertThrows(WorldLockedException.class, () -> World.open(dir));
            assertTrue(e.getMessage().contains("its writer, process " + writer.pid()), e.getMessage());
            assertFalse(e.getMessage().contains("999999"), e.getMessage());
        } finally {
            release(writer);
        }
        try (World w = World.open(dir)) {
            assertEquals(List.of(), w.check());
        }
    }

    /** Hooks that say nothing under {@code dir} may be written (the tests run as root, who may). */
    private static void readOnlyMedia(Path dir) {
        Store.hooks = new StoreHooks() {
            @Override
            boolean writable(Path path) {
                return !path.toAbsolutePath().startsWith(dir.toAbsolutePath());
            }
        };
    }

    @Test
    void aWorldOnReadOnlyMediaIsReadableThroughCopies() throws Exception {
        Path dir = world();
        readOnlyMedia(dir);
        List<String> before;
        try (var s = Files.list(dir)) {
            before = s.map(p -> p.getFileName().toString()).sorted().toList();
        }
        try (World w = World.openReadOnly(dir)) {
            assertNotEquals(0, w.lookup("a"));
            assertEquals(List.of(), w.check());
        }
        try (var s = Files.list(dir)) {
            assertEquals(before, s.map(p -> p.getFileName().toString()).sorted().toList());
        }
    }

    @Test
    void aWorldLeftByAKilledWriterIsReadableOnReadOnlyMedia() throws Exception {
        Path dir = world();
        try (World w = World.open(dir)) {
            w.entity("b");
            // the transaction is in the write-ahead log only; the store is left the way a killed
            // process leaves it (World keeps its store in its Persistence)
            var p = World.class.getDeclaredField("persistence");
            p.setAccessible(true);
            Object persistence = p.get(w);
            var f = persistence.getClass().getDeclaredField("store");
            f.setAccessible(true);
            ((Store) f.get(persistence)).abandon();
            f.set(persistence, null);
        }
        readOnlyMedia(dir);
        try (World w = World.openReadOnly(dir)) {
            assertNotEquals(0, w.lookup("b"), "the committed transaction is read from the WAL");
            assertEquals(List.of(), w.check());
        }
    }

    @Test
    void aWorldOnAReadOnlyBindMountIsReadable() throws Exception {
        Path dir = world();
        Path mnt = Files.createDirectory(tmp.resolve("ro"));
        boolean mounted = sh("mount", "--bind", dir.toString(), mnt.toString()) == 0;
        org.junit.jupiter.api.Assumptions.assumeTrue(mounted, "cannot bind-mount here; the hook test covers the path");
        try {
            org.junit.jupiter.api.Assumptions.assumeTrue(sh("mount", "-o", "remount,ro,bind", mnt.toString()) == 0,
                    "cannot remount read-only here");
            try (World w = World.openReadOnly(mnt)) {
                assertNotEquals(0, w.lookup("a"));
                assertEquals(List.of(), w.check());
            }
            assertThrows(StorageIOException.class, () -> World.open(mnt));
        } finally {
            assertEquals(0, sh("umount", mnt.toString()));
        }
    }

    private static int sh(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
        return p.waitFor(30, TimeUnit.SECONDS) ? p.exitValue() : -1;
    }

    @Test
    void aMissingGenerationFileIsCorruptionAndIsNotRecreated() throws Exception {
        Path dir = world();
        Path gen = Store.generationFiles(dir).get(0);
        Files.delete(gen);
        String name = gen.getFileName().toString();
        var e = assertThrows(CorruptionException.class, () -> World.openReadOnly(dir));
        assertTrue(e.getMessage().contains(name), e.getMessage());
        e = assertThrows(CorruptionException.class, () -> World.open(dir));
        assertTrue(e.getMessage().contains(name), e.getMessage());
        assertFalse(Files.exists(gen));
    }
}
