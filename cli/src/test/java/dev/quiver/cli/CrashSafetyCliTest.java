package dev.quiver.cli;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static dev.quiver.cli.CliRunner.fingerprint;
import static dev.quiver.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The CLI side of issue 8 (storage that opens in place): a second restore into the same path is
 * refused and leaves the first world whole, a missing map file is reported (exit 1) and not
 * recreated, and {@code query}/{@code check} work on a world on read-only media. The storage
 * tests cover the rest (kills, injected faults, races).
 */
class CrashSafetyCliTest {
    @TempDir
    Path tmp;

    private String w;

    @BeforeEach
    void world() {
        w = tmp.resolve("w").toString();
        run("init", w).ok();
        run("add", w, "dog", "(KindOf, animal)").ok();
    }

    @Test
    void aSecondRestoreIntoTheSamePathIsRefusedAndLeavesTheFirstWhole() throws Exception {
        Path snap = tmp.resolve("w.qvsnap");
        run("snapshot", w, snap.toString()).ok();
        Path target = tmp.resolve("r");
        run("restore", snap.toString(), target.toString()).ok();
        var before = fingerprint(target);
        run("restore", snap.toString(), target.toString()).badInput("not empty");
        assertEquals(before, fingerprint(target));
        run("check", target.toString()).ok();
        assertTrue(Files.exists(target.resolve("FORMAT")));
        try (var s = Files.list(tmp)) {
            assertTrue(s.noneMatch(p -> p.getFileName().toString().startsWith(".r.new-")), "no temporary directory left");
        }
    }

    @Test
    void aMissingGenerationFileIsCorruptionAndIsNotRecreated() throws Exception {
        Path gen = dev.quiver.storage.file.Store.generationFiles(Path.of(w)).get(0);
        String name = gen.getFileName().toString();
        Files.delete(gen);
        run("query", w, "(KindOf, animal)", "--format", "count").fails(ExitCodes.FAILURE, name);
        run("check", w).fails(ExitCodes.FAILURE, name);
        assertFalse(Files.exists(gen));
    }

    @Test
    void queryAndCheckWorkOnAReadOnlyMount() throws Exception {
        Path mnt = Files.createDirectory(tmp.resolve("ro"));
        Assumptions.assumeTrue(sh("mount", "--bind", w, mnt.toString()) == 0, "cannot bind-mount here");
        try {
            Assumptions.assumeTrue(sh("mount", "-o", "remount,ro,bind", mnt.toString()) == 0, "cannot remount read-only");
            assertEquals("1\n", run("query", mnt.toString(), "(KindOf, animal)", "--format", "count").ok().out());
            run("check", mnt.toString()).ok();
            run("add", mnt.toString(), "cat", "(KindOf, animal)").fails(ExitCodes.FAILURE, "");
        } finally {
            assertEquals(0, sh("umount", mnt.toString()));
        }
        run("check", w).ok();
    }

    private static int sh(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getInputStream().transferTo(OutputStream.nullOutputStream());
        return p.waitFor(30, TimeUnit.SECONDS) ? p.exitValue() : -1;
    }
}
