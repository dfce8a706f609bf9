package dev.quiver.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static dev.quiver.cli.CliRunner.fingerprint;
import static dev.quiver.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SnapshotCommandTest {
    @TempDir
    Path tmp;

    private String w;
    private Path snap;

    @BeforeEach
    void world() {
        w = tmp.resolve("w").toString();
        snap = tmp.resolve("w.qvsnap");
        run("init", w).ok();
        run("add", w, "KindOf", "Transitive").ok();
        run("add", w, "dog", "(KindOf, canine)").ok();
        run("add", w, "canine", "(KindOf, animal)").ok();
        run("component", w, "Weight", "kg:f64").ok();
        run("set", w, "dog", "Weight", "{\"kg\": 30}").ok();
    }

    @Test
    void snapshotThenRestoreGivesTheSameWorld() {
        String out = run("snapshot", w, snap.toString()).ok().out();
        assertTrue(out.startsWith("snapshot " + snap + ": "), out);
        Path restored = tmp.resolve("restored");
        assertTrue(run("restore", snap.toString(), restored.toString()).ok().out().startsWith("restored "));
        assertEquals(fingerprint(Path.of(w)), fingerprint(restored));
        run("check", restored.toString()).ok();
        assertEquals("2\n", run("query", restored.toString(), "(KindOf, animal)", "--format", "count").ok().out());
        assertTrue(run("show", restored.toString(), "dog").ok().out().contains("Weight {kg=30.0}"));
    }

    @Test
    void aFlippedByteIsRefusedAndNothingIsCreated() throws Exception {
        run("snapshot", w, snap.toString()).ok();
        byte[] good = Files.readAllBytes(snap);
        for (int at : new int[] {0, 7, 20, good.length / 2, good.length - 14, good.length - 1}) {
            byte[] bad = good.clone();
            bad[at] ^= 0x40;
            Files.write(snap, bad);
            Path target = tmp.resolve("r" + at);
            run("restore", snap.toString(), target.toString()).badInput("snapshot " + snap);
            assertFalse(Files.exists(target), "offset " + at);
        }
    }

    @Test
    void aTruncatedSnapshotIsRefusedAndNothingIsCreated() throws Exception {
        run("snapshot", w, snap.toString()).ok();
        byte[] good = Files.readAllBytes(snap);
        for (int len : new int[] {0, 3, 10, good.length / 2, good.length - 4, good.length - 1}) {
            Files.write(snap, Arrays.copyOf(good, len));
            Path target = tmp.resolve("t" + len);
            run("restore", snap.toString(), target.toString()).badInput("snapshot " + snap);
            assertFalse(Files.exists(target), "length " + len);
        }
    }

    @Test
    void restoreNeverOverwrites() throws Exception {
        run("snapshot", w, snap.toString()).ok();
        var before = fingerprint(Path.of(w));
        run("restore", snap.toString(), w).badInput("not empty");
        assertEquals(before, fingerprint(Path.of(w)));
        run("restore", tmp.resolve("missing.qvsnap").toString(), tmp.resolve("r").toString()).badInput("does not exist");
        assertFalse(Files.exists(tmp.resolve("r")));
        run("snapshot", w, tmp.resolve("no/dir/x.qvsnap").toString()).badInput("does not exist");
    }
}
