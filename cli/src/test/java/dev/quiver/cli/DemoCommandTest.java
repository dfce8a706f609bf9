package dev.quiver.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static dev.quiver.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The README's first command: loads WordNet once, answers, and reuses the world. */
class DemoCommandTest {
    @TempDir
    Path tmp;

    private static final String EXAMPLES = Path.of("..", "examples", "wordnet").toString();

    @Test
    void demoLoadsWordNetOnceAndAnswersEveryQueryAsExpected() {
        String world = tmp.resolve("wordnet").toString();
        String first = run("demo", "--world", world, "--examples", EXAMPLES).ok().out();
        assertTrue(first.contains("Creating a world at " + world), first);
        assertTrue(first.contains("wordnet_nouns.tsv.gz: 106614 lines"), first);
        assertTrue(first.contains("wordnet_noun_lexnames.tsv.gz: 82115 lines"), first);
        assertTrue(first.contains("(KindOf, dog_n_01)\n  189 results"), first);
        assertTrue(first.contains("KindOf(dog_n_01, $x)\n  14 results"), first);
        assertTrue(first.contains("(Lexname, noun_animal), !(KindOf, animal_n_01)\n  3516 results"), first);
        assertTrue(first.contains("every count as expected"), first);
        assertFalse(first.contains("MISMATCH"), first);

        String second = run("demo", "--world", world, "--examples", EXAMPLES).ok().out();
        assertTrue(second.contains("Reusing the world at " + world), second);
        assertFalse(second.contains("lines,"), second);
        assertTrue(second.contains("every count as expected"), second);
        run("check", world).ok();
    }

    @Test
    void aPartlyLoadedWorldIsCompletedAndWrongCountsFail() throws Exception {
        Path fake = Files.createDirectory(tmp.resolve("fake"));
        // every name the demo queries mention, in a graph far smaller than WordNet
        gzip(fake.resolve("wordnet_nouns.tsv.gz"), String.join("\n", "subject\trelationship\ttarget",
                "dog_n_01\tKindOf\tanimal_n_01", "animal_n_01\tKindOf\tentity_n_01",
                "toy_poodle_n_01\tKindOf\tdog_n_01", "paris_n_01\tPartOf\teurope_n_01",
                "city_n_01\tKindOf\tentity_n_01", ""));
        gzip(fake.resolve("wordnet_noun_lexnames.tsv.gz"), "dog_n_01\tLexname\tnoun_animal\n");
        String world = tmp.resolve("w").toString();
        run("load", world, fake.resolve("wordnet_nouns.tsv.gz").toString()).ok();

        CliRunner.Run r = run("demo", "--world", world, "--examples", fake.toString());
        r.fails(ExitCodes.FAILURE, "demo answers differ from the known counts");
        assertTrue(r.out().contains("Completing the world at " + world), r.out());
        assertTrue(r.out().contains("wordnet_noun_lexnames.tsv.gz: 1 lines"), r.out());
        assertFalse(r.out().contains("wordnet_nouns.tsv.gz:"), r.out());
        assertTrue(r.out().contains("(KindOf, dog_n_01)\n  1 result in "), r.out());
        assertTrue(r.out().contains("MISMATCH: expected 189"), r.out());

        r = run("demo", "--world", world, "--examples", fake.toString());
        assertTrue(r.out().contains("Reusing the world at " + world), r.out());
        run("check", world).ok();
    }

    @Test
    void aWorldOfAnotherFormatIsMovedAsideAndLoadedAgain() throws Exception {
        Path fake = Files.createDirectory(tmp.resolve("fake"));
        gzip(fake.resolve("wordnet_nouns.tsv.gz"), "dog_n_01\tKindOf\tanimal_n_01\n");
        gzip(fake.resolve("wordnet_noun_lexnames.tsv.gz"), "dog_n_01\tLexname\tnoun_animal\n");
        Path world = tmp.resolve("w");
        run("load", world.toString(), fake.resolve("wordnet_nouns.tsv.gz").toString()).ok();
        Files.writeString(world.resolve("FORMAT"), "quiver world format 3\n"); // as an older build wrote it

        CliRunner.Run r = run("demo", "--world", world.toString(), "--examples", fake.toString());
        assertTrue(r.out().contains("was written by another Quiver build"), r.out());
        assertTrue(r.out().contains("Creating a world at " + world), r.out());
        try (var s = Files.list(tmp)) {
            assertTrue(s.anyMatch(p -> p.getFileName().toString().startsWith("w.other-format-")), "the old world is kept aside");
        }
        run("check", world.toString()).ok();
    }

    private static void gzip(Path p, String text) throws java.io.IOException {
        try (var out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(p))) {
            out.write(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    @Test
    void missingExampleFilesAreBadInputAndCreateNothing() throws Exception {
        Path empty = Files.createDirectory(tmp.resolve("empty"));
        String world = tmp.resolve("w").toString();
        run("demo", "--world", world, "--examples", empty.toString()).badInput("does not exist");
        assertFalse(Files.exists(Path.of(world)));
    }

    @Test
    void theExamplesAreFoundFromTheCheckout() {
        assertTrue(Files.isRegularFile(DemoCommand.findExamples().resolve("wordnet_nouns.tsv.gz")));
    }
}
