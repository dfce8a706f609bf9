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
 * Chronicle lock does not block anyone (fault 2), the lock message names the real live holders
 * (fault 5), read-only media are readable (fault 6), and a missing map file is corruption, never
 * recreated empty (fault 7).
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
     * standard input to close; {@code die-in-lock DIR} opens it read-only and halts while it
     * iterates a map file, i.e. while it holds that map's Chronicle segment lock.
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
            Store st = Store.open(dir, true);
            st.maps[Store.ENTITIES].forEach((k, b) -> Runtime.getRuntime().halt(3));
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
    void aReaderKilledHoldingAChronicleLockDoesNotBlockTheWorld() throws Exception {
        Path dir = world();
        assertEquals(3, ChildJvm.run(OpenerTest.class, "die-in-lock", dir));
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
        try (var s = Files.list(dir.resolve(Sessions.DIR))) {
            assertEquals(0, s.count(), "the dead reader's registration is gone after recovery");
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
    void theLockMessageNamesTheLiveHolders() throws Exception {
        Path dir = world();
        Files.writeString(dir.resolve("owner"), "999999"); // a stale owner file of an older build
        Process reader = hold(dir, "reader");
        try {
            var e = assertThrows(WorldLockedException.class, () -> World.open(dir));
            assertTrue(e.getMessage().contains("a reader, process " + reader.pid()), e.getMessage());
            assertFalse(e.getMessage().contains("999999"), e.getMessage());
        } finally {
            release(reader);
        }
        Process writer = hold(dir, "writer");
        try {
            var e = assertThrows(WorldLockedException.class, () -> World.openReadOnly(dir));
            assertTrue(e.getMessage().contains("its writer, process " + writer.pid()), e.getMessage());
            e = assertThrows(WorldLockedException.class, () -> World.open(dir));
            assertTrue(e.getMessage().contains("its writer, process " + writer.pid()), e.getMessage());
        } finally {
            release(writer);
        }
        try (World w = World.open(dir)) {
            assertEquals(List.of(), w.check());
        }
    }

    @Test
    void aWorldOpenInThisProcessIsRefusedWithoutDroppingItsLock() throws Exception {
        Path dir = world();
        try (World w = World.open(dir)) {
            var e = assertThrows(WorldLockedException.class, () -> World.openReadOnly(dir));
            assertTrue(e.getMessage().contains("already open in this process"), e.getMessage());
            Process p = ChildJvm.start(OpenerTest.class, "hold", dir, "reader");
            p.getOutputStream().close();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            assertNotEquals(0, p.exitValue(), "the writer's lock still holds against another process");
            w.entity("b");
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
        try (var s = Files.list(dir.resolve(Sessions.DIR))) {
            assertEquals(0, s.count(), "nothing registered");
        }
        assertThrows(StorageIOException.class, () -> World.open(dir));
    }

    @Test
    void aWorldThatNeedsRecoveryIsRefusedOnReadOnlyMedia() {
        Path dir = world();
        Store st = Store.open(dir, false);
        st.abandon(); // as if the writer had been killed
        readOnlyMedia(dir);
        var e = assertThrows(StorageIOException.class, () -> World.openReadOnly(dir));
        assertTrue(e.getMessage().contains("needs recovery"), e.getMessage());
        Store.hooks = StoreHooks.NONE;
        try (World w = World.openReadOnly(dir)) {
            assertEquals(List.of(), w.check());
        }
    }

    @Test
    void aDeadReadersRegistrationMakesAWorldOnReadOnlyMediaNeedRecovery() throws Exception {
        Path dir = world();
        assertEquals(3, ChildJvm.run(OpenerTest.class, "die-in-lock", dir));
        readOnlyMedia(dir);
        var e = assertThrows(StorageIOException.class, () -> World.openReadOnly(dir));
        assertTrue(e.getMessage().contains("needs recovery"), e.getMessage());
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
    void aMissingMapFileIsCorruptionAndIsNotRecreated() throws Exception {
        Path dir = world();
        Files.delete(dir.resolve("reverse.cm"));
        var e = assertThrows(CorruptionException.class, () -> World.openReadOnly(dir));
        assertTrue(e.getMessage().contains("reverse.cm"), e.getMessage());
        e = assertThrows(CorruptionException.class, () -> World.open(dir));
        assertTrue(e.getMessage().contains("reverse.cm"), e.getMessage());
        assertFalse(Files.exists(dir.resolve("reverse.cm")));
    }
}
