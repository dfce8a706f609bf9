package dev.quiver.snapshots;

import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;
import dev.quiver.storage.World;
import dev.quiver.storage.WorldPages;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SnapshotsTest {
    @TempDir
    Path tmp;

    private Path worldDir;
    private Path snap;

    /** A small world with names, a hierarchy, pairs, traits and a component value. */
    @BeforeEach
    void makeWorld() {
        worldDir = tmp.resolve("w");
        snap = tmp.resolve("w.qvsnap");
        try (World w = World.create(worldDir)) {
            w.transaction(tx -> {
                long likes = tx.entity("Likes");
                long bob = tx.entity("bob");
                long alice = tx.entity("alice");
                tx.add(tx.entity("KindOf"), tx.id("Transitive"));
                tx.add(bob, tx.pair(likes, alice));
                tx.add(tx.entity("house.kitchen"), tx.ensureId("(KindOf, room)"));
                long pos = tx.component("Position", Schema.of("x", FieldType.F64, "y", FieldType.F64));
                tx.set(alice, pos, Map.of("x", 1.5, "y", -2.0));
            });
            assertEquals(List.of(), w.check());
        }
    }

    private static Map<String, byte[]> pages(Path dir) {
        var out = new TreeMap<String, byte[]>();
        try (World w = World.openReadOnly(dir)) {
            WorldPages.forEach(w, (map, key, blob) -> out.put(map + "/" + key, blob.clone()));
        }
        return out;
    }

    @Test
    void roundTripRestoresEveryPageAndValue() {
        SnapshotInfo info;
        try (World w = World.openReadOnly(worldDir)) {
            info = Snapshots.write(w, snap);
        }
        assertTrue(info.pages() > 0);
        assertEquals(info.bytes(), snap.toFile().length());
        assertEquals(info.pages(), Snapshots.verify(snap).pages());

        Path restored = tmp.resolve("restored");
        assertEquals(info.pages(), Snapshots.restore(snap, restored).pages());

        Map<String, byte[]> before = pages(worldDir);
        Map<String, byte[]> after = pages(restored);
        assertEquals(before.keySet(), after.keySet());
        before.forEach((k, v) -> assertArrayEquals(v, after.get(k), k));

        try (World w = World.open(restored)) {
            assertEquals(List.of(), w.check());
            long bob = w.resolve("bob");
            assertTrue(w.has(bob, w.id("(Likes, alice)")));
            assertTrue(w.has(w.resolve("house.kitchen"), w.id("(KindOf, room)")));
            assertTrue(w.has(w.resolve("KindOf"), w.id("Transitive")));
            Map<String, Object> pos = w.get(w.resolve("alice"), w.id("Position"));
            assertEquals(1.5, ((Number) pos.get("x")).doubleValue());
            assertEquals(-2.0, ((Number) pos.get("y")).doubleValue());
            // the restored world is a normal writable world
            w.add(bob, w.ensureId("(Likes, carol)"));
            assertEquals(List.of(), w.check());
        }
    }

    @Test
    void restoreIntoAnEmptyExistingDirectoryWorks() throws IOException {
        write();
        Path target = Files.createDirectory(tmp.resolve("empty"));
        Snapshots.restore(snap, target);
        assertTrue(World.exists(target));
    }

    @Test
    void writeReplacesAnExistingFileAndLeavesNoTemporaryFile() throws IOException {
        Files.writeString(snap, "old contents");
        write();
        Snapshots.verify(snap);
        try (var files = Files.list(tmp)) {
            assertEquals(List.of("w", "w.qvsnap"), files.map(p -> p.getFileName().toString()).sorted().toList());
        }
    }

    @Test
    void writeIntoAMissingDirectoryFails() {
        try (World w = World.openReadOnly(worldDir)) {
            Path bad = tmp.resolve("no/such/dir/x.qvsnap");
            var e = assertThrows(SnapshotException.class, () -> Snapshots.write(w, bad));
            assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
            assertFalse(Files.exists(tmp.resolve("no")));
        }
    }

    @Test
    void restoreRefusesANonEmptyTarget() throws IOException {
        write();
        Path target = Files.createDirectory(tmp.resolve("busy"));
        Files.writeString(target.resolve("keep.txt"), "mine");
        var e = assertThrows(SnapshotException.class, () -> Snapshots.restore(snap, target));
        assertTrue(e.getMessage().contains("not empty"), e.getMessage());
        try (var files = Files.list(target)) {
            assertEquals(1, files.count());
        }
        assertThrows(SnapshotException.class, () -> Snapshots.restore(snap, worldDir));
        assertEquals(List.of(), checkWorld(worldDir));
    }

    @Test
    void missingSnapshotFileIsAnError() {
        var e = assertThrows(SnapshotException.class, () -> Snapshots.restore(tmp.resolve("nope"), tmp.resolve("r")));
        assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
        assertFalse(Files.exists(tmp.resolve("r")));
    }

    @Test
    void aFlippedByteAnywhereIsDetectedBeforeAnythingIsCreated() throws IOException {
        write();
        byte[] good = Files.readAllBytes(snap);
        // every byte of the header, the first records and the trailer, and a stride through the rest
        for (int i = 0; i < good.length; i += (i < 96 || i >= good.length - 32) ? 1 : 1 + good.length / 128) {
            byte[] bad = good.clone();
            bad[i] ^= 0x01;
            Files.write(snap, bad);
            Path target = tmp.resolve("r" + i);
            assertThrows(CorruptSnapshotException.class, () -> Snapshots.restore(snap, target), "byte " + i);
            assertFalse(Files.exists(target), "byte " + i);
        }
    }

    @Test
    void everyTruncationIsDetected() throws IOException {
        write();
        byte[] good = Files.readAllBytes(snap);
        for (int len = 0; len < good.length; len += Math.max(1, len < 64 ? 1 : good.length / 97)) {
            Files.write(snap, Arrays.copyOf(good, len));
            Path target = tmp.resolve("t" + len);
            var e = assertThrows(CorruptSnapshotException.class, () -> Snapshots.restore(snap, target), "length " + len);
            assertFalse(Files.exists(target), "length " + len);
            assertTrue(e.getMessage().startsWith("snapshot " + snap), e.getMessage());
        }
        Files.write(snap, Arrays.copyOf(good, good.length - 1));
        var e = assertThrows(CorruptSnapshotException.class, () -> Snapshots.verify(snap));
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());
    }

    @Test
    void trailingBytesAreCorruption() throws IOException {
        write();
        byte[] good = Files.readAllBytes(snap);
        Files.write(snap, Arrays.copyOf(good, good.length + 3));
        var e = assertThrows(CorruptSnapshotException.class, () -> Snapshots.restore(snap, tmp.resolve("r")));
        assertTrue(e.getMessage().contains("after the trailer"), e.getMessage());
    }

    @Test
    void notASnapshotIsCorrupt() throws IOException {
        Files.writeString(snap, "subject\trelationship\ttarget\n");
        var e = assertThrows(CorruptSnapshotException.class, () -> Snapshots.restore(snap, tmp.resolve("r")));
        assertTrue(e.getMessage().contains("not a Quiver snapshot"), e.getMessage());
    }

    @Test
    void anIntactSnapshotOfAnotherVersionNamesBothVersions() throws IOException {
        write();
        byte[] bytes = Files.readAllBytes(snap);
        ByteBuffer.wrap(bytes).putInt(6, 1);
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - 4);
        ByteBuffer.wrap(bytes).putInt(bytes.length - 4, (int) crc.getValue());
        Files.write(snap, bytes);
        Path target = tmp.resolve("r");
        var e = assertThrows(SnapshotFormatException.class, () -> Snapshots.restore(snap, target));
        assertEquals(1, e.fileVersion());
        assertEquals(Snapshots.FORMAT_VERSION, e.supportedVersion());
        assertTrue(e.getMessage().contains("version 1") && e.getMessage().contains("version " + Snapshots.FORMAT_VERSION), e.getMessage());
        assertFalse(Files.exists(target));
    }

    @Test
    void theHeaderIsMagicThenVersion() throws IOException {
        write();
        byte[] bytes = Files.readAllBytes(snap);
        assertEquals("QVSNAP", new String(bytes, 0, 6, java.nio.charset.StandardCharsets.US_ASCII));
        assertEquals(Snapshots.FORMAT_VERSION, ByteBuffer.wrap(bytes).getInt(6));
        assertEquals('E', bytes[bytes.length - 13]);
    }

    @Test
    void anEmptyWorldRoundTrips() {
        Path empty = tmp.resolve("empty");
        try (World w = World.create(empty)) {
            Snapshots.write(w, snap);
        }
        Snapshots.restore(snap, tmp.resolve("r"));
        assertEquals(List.of(), checkWorld(tmp.resolve("r")));
    }

    private void write() {
        try (World w = World.openReadOnly(worldDir)) {
            Snapshots.write(w, snap);
        }
    }

    private static List<String> checkWorld(Path dir) {
        try (World w = World.openReadOnly(dir)) {
            return w.check();
        }
    }
}
