package dev.quiver.snapshots;

import dev.quiver.storage.World;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A snapshot of the previous format version (3, written by an earlier build: see
 * {@code src/test/resources/snapshots/README.md}) restores into a world of the current format with
 * the same content: format 3 stored the component index in {@code components} pages, which the
 * reader drops because the index is rebuilt from the tables.
 */
class PreviousFormatTest {
    @TempDir
    Path tmp;

    @Test
    void aFormat3SnapshotRestoresWithTheSameContent() throws Exception {
        Path snap = tmp.resolve("format3-small.snap");
        try (InputStream in = PreviousFormatTest.class.getResourceAsStream("/snapshots/format3-small.snap")) {
            Files.copy(in, snap);
        }
        assertEquals(3, java.nio.ByteBuffer.wrap(Files.readAllBytes(snap)).getInt(6), "the file is of format 3");
        Path dir = tmp.resolve("w");
        Snapshots.restore(snap, dir);
        try (World w = World.open(dir)) {
            assertEquals(List.of(), w.check());
            long kindOf = w.lookup("KindOf"), animal = w.lookup("animal"), cat = w.lookup("cat");
            assertTrue(w.has(w.lookup("dog"), w.pair(kindOf, w.lookup("mammal"))));
            assertTrue(w.has(cat, w.lookup("Pet")));
            assertEquals(Map.of("x", 1.5, "y", 2.0), w.get(cat, w.lookup("Position")));
            assertNotEquals(0, w.lookup("cat.whiskers"));
            assertEquals(3, w.tables(w.pair(kindOf, dev.quiver.index.Ids.WILDCARD)).stream().mapToInt(t -> t.count()).sum());
            assertNotEquals(0, animal);
        }
        // and what it restored snapshots again in the current format
        Path again = tmp.resolve("again.snap");
        try (World w = World.openReadOnly(dir)) {
            Snapshots.write(w, again);
        }
        assertEquals(Snapshots.FORMAT_VERSION, java.nio.ByteBuffer.wrap(Files.readAllBytes(again)).getInt(6));
    }
}
