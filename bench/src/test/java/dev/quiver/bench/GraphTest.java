package dev.quiver.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code graph} loads pair files, follows Transitive relationships and checks answers files; counts only. */
class GraphTest {
    @TempDir
    Path tmp;

    private Path zoo() throws IOException {
        Path tsv = tmp.resolve("zoo.tsv");
        Files.writeString(tsv, "subject\trelationship\ttarget\n"
                + "dog\tKindOf\tmammal\ncat\tKindOf\tmammal\nmammal\tKindOf\tanimal\nsparrow\tKindOf\tbird\n"
                + "bird\tKindOf\tanimal\nrex\tInstanceOf\tdog\n");
        return tsv;
    }

    @Test
    void answersAreCheckedAndUnknownNamesSkipped() throws IOException {
        Path answers = tmp.resolve("answers.tsv");
        Files.writeString(answers, "query\texpected_count\n(KindOf, animal)\t5\nKindOf(dog, $x)\t2\n"
                + "(KindOf, unicorn_n_01)\t7\n(KindOf, mammal), !(KindOf, bird)\t2\n");
        Path json = tmp.resolve("g.json");
        BenchRunner.Run run = BenchRunner.run("graph", zoo().toString(), "--transitive", "KindOf", "--answers",
                answers.toString(), "--query", "(InstanceOf, dog)", "--repeat", "2", "--json", json.toString()).ok();
        assertTrue(run.out().contains("3 queries run, 1 skipped"), run.out());
        JsonNode j = new ObjectMapper().readTree(json.toFile());
        assertEquals(6, j.get("pairs").asLong());
        assertEquals(4, j.get("queries").size());
        assertEquals(1, j.get("queries").get(0).get("count").asLong());
        assertEquals(5, j.get("queries").get(1).get("count").asLong());
        assertEquals(2, j.get("queries").get(2).get("count").asLong());
    }

    @Test
    void aWrongExpectedCountFailsTheRun() throws IOException {
        Path answers = tmp.resolve("wrong.tsv");
        // without Transitive, (KindOf, animal) has only the 2 direct subjects
        Files.writeString(answers, "(KindOf, animal)\t5\n");
        BenchRunner.run("graph", zoo().toString(), "--answers", answers.toString(), "--repeat", "1")
                .fails(1, "1 query returned another count than expected");
    }

    @Test
    void malformedAnswersLineIsBadInput() throws IOException {
        Path answers = tmp.resolve("bad.tsv");
        Files.writeString(answers, "(KindOf, animal)\tfive\n");
        BenchRunner.run("graph", zoo().toString(), "--answers", answers.toString()).fails(2, "bad.tsv:1:");
    }
}
