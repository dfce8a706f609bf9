package dev.quiver.cli;

import dev.quiver.storage.World;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

import static dev.quiver.cli.CliRunner.fingerprint;
import static dev.quiver.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LoadCommandTest {
    @TempDir
    Path tmp;

    private Path tsv(String name, String text) throws IOException {
        return Files.writeString(tmp.resolve(name), text);
    }

    private Path gz(String name, String text) throws IOException {
        Path p = tmp.resolve(name);
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(p))) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return p;
    }

    @Test
    void loadCreatesTheWorldAndLoadsPlainAndGzipFiles() throws IOException {
        Path a = tsv("a.tsv", "subject\trelationship\ttarget\ndog\tKindOf\tcanine\ncanine\tKindOf\tanimal\n");
        Path b = gz("b.tsv.gz", "dog\tLexname\tnoun_animal\n");
        Path w = tmp.resolve("w");
        String out = run("load", w.toString(), a.toString(), b.toString()).ok().out();
        assertTrue(out.contains("a.tsv: 2 lines"), out);
        assertTrue(out.contains("b.tsv.gz: 1 lines"), out);
        assertTrue(out.contains("created world"), out);
        assertTrue(out.contains("loaded 3 lines from 2 files"), out);
        try (World world = World.openReadOnly(w)) {
            assertTrue(world.has(world.resolve("dog"), world.id("(Lexname, noun_animal)")));
            assertTrue(world.has(world.resolve("canine"), world.id("(KindOf, animal)")));
        }
        run("check", w.toString()).ok();
        // loading into an existing world adds to it
        Path c = tsv("c.tsv", "cat\tKindOf\tanimal\n");
        assertFalse(run("load", w.toString(), c.toString()).ok().out().contains("created"));
        run("query", w.toString(), "(KindOf, animal)", "--format", "count").ok();
    }

    @Test
    void aMalformedLineNamesFileAndLineAndAFreshWorldIsNotLeftBehind() throws IOException {
        Path bad = tsv("bad.tsv", "dog\tKindOf\tcanine\ncanine\tKindOf\n");
        Path w = tmp.resolve("w");
        run("load", w.toString(), bad.toString()).badInput(bad + ":2: expected 3 tab-separated fields");
        assertFalse(Files.exists(w));
    }

    @Test
    void aBadFileLoadsNothingOfItselfButEarlierFilesStay() throws IOException {
        Path w = tmp.resolve("w");
        run("init", w.toString()).ok();
        run("add", w.toString(), "cat", "Pet").ok();
        Map<String, String> before = fingerprint(w);
        Path bad = tsv("bad.tsv", "dog\tKindOf\tcanine\ncanine\tKind Of\tanimal\n");
        run("load", w.toString(), bad.toString()).badInput(bad + ":2: relationship 'Kind Of' is not a name");
        assertEquals(before, fingerprint(w));

        Path good = tsv("good.tsv", "bird\tKindOf\tanimal\n");
        run("load", w.toString(), good.toString(), bad.toString()).badInput(bad + ":2:");
        try (World world = World.openReadOnly(w)) {
            assertTrue(world.has(world.resolve("bird"), world.id("(KindOf, animal)")));
            assertEquals(0, world.lookup("dog"));
        }
        run("check", w.toString()).ok();
    }

    @Test
    void digitsOnlyNamesAreRenamedAndTheRenamingIsPrinted() throws IOException {
        Path f = tsv("games.tsv", "2048\tDependsOn\tlibc6\n");
        Path w = tmp.resolve("w");
        String out = run("load", w.toString(), f.toString()).ok().out();
        assertTrue(out.contains("2048 -> _2048"), out);
        assertEquals("1\n", run("query", w.toString(), "(DependsOn, libc6)", "--format", "count").ok().out());
        assertTrue(run("show", w.toString(), "_2048").ok().out().contains("(DependsOn,libc6)"));
    }

    @Test
    void aMissingFileIsReportedBeforeAnythingChanges() throws IOException {
        Path good = tsv("good.tsv", "bird\tKindOf\tanimal\n");
        Path w = tmp.resolve("w");
        run("load", w.toString(), good.toString(), tmp.resolve("nope.tsv").toString()).badInput("nope.tsv does not exist");
        assertFalse(Files.exists(w));
        run("load", w.toString(), tmp.toString()).badInput("is not a regular file");
        run("load", w.toString()).badInput("FILE");
    }
}
