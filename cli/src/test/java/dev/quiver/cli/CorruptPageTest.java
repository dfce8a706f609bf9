package dev.quiver.cli;

import dev.quiver.index.ChronicleSupport;
import net.openhft.chronicle.map.ChronicleMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static dev.quiver.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * A page whose bytes changed on disk is refused by every verb that reads it, {@code quiver check}
 * included: one line naming the generation file and the page, exit 1.
 */
class CorruptPageTest {
    @TempDir
    Path tmp;

    /** Flips one byte in the last byte of every page segment of a map file, through Chronicle itself. */
    private static void damageEveryPage(Path mapFile) throws IOException {
        ChronicleSupport.init();
        try (ChronicleMap<byte[], byte[]> raw = ChronicleMap.of(byte[].class, byte[].class)
                .constantKeySizeBySample(new byte[10]).averageValueSize(64).entries(64)
                .createPersistedTo(mapFile.toFile())) {
            List<byte[]> keys = new ArrayList<>();
            raw.forEachEntry(e -> keys.add(e.key().getUsing(null)));
            assertFalse(keys.isEmpty(), "pages in " + mapFile);
            for (byte[] k : keys) {
                byte[] v = raw.get(k);
                v[v.length - 1] ^= 0x20;
                raw.put(k, v);
            }
        }
    }

    @Test
    void checkQueryAndWritesRefuseADamagedPageByFileAndPage() throws IOException {
        String w = tmp.resolve("w").toString();
        run("init", w).ok();
        run("add", w, "dog", "(KindOf, animal)", "Pet").ok();
        run("check", w).ok();
        List<Path> gens = dev.quiver.storage.file.Store.generationFiles(Path.of(w));
        Path newest = gens.get(gens.size() - 1);
        damageEveryPage(newest);
        String where = "map file " + newest + " page -1 fails its checksum"; // its directory page, read first
        assertEquals("", run("check", w).fails(ExitCodes.FAILURE, where).out());
        run("query", w, "Pet").fails(ExitCodes.FAILURE, where);
        run("add", w, "cat", "Pet").fails(ExitCodes.FAILURE, where);
    }
}
