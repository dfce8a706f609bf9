package dev.quiver.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The launcher's class-data training run ({@link ClassDataTraining}): every command it runs exits as
 * expected, so a change to the command line that breaks one fails here instead of the launcher
 * silently keeping no archive; and what it leaves is a world the CLI reads.
 */
class ClassDataTrainingTest {
    @TempDir
    Path tmp;

    @Test
    void everyTrainingCommandExitsAsExpectedAndLeavesAReadableWorld() throws Exception {
        assertEquals(ExitCodes.OK, ClassDataTraining.train(tmp.resolve("train")));
        CliRunner.Run r = CliRunner.run("query", tmp.resolve("train/world").toString(), "(KindOf, $x)", "--format", "count");
        assertEquals(0, r.exit(), r.err());
        assertEquals("6", r.out().trim(), "the three KindOf lines, transitive: a-b, a-c, a-d, b-c, b-d, c-d");
    }

    @Test
    void theReadSetRunsOnTheWorldTheGeneralSetLeftAndFailsWithoutOne() throws Exception {
        Path dir = tmp.resolve("train");
        assertEquals(ExitCodes.FAILURE, ClassDataTraining.train(dir, ClassDataTraining.READ), "no world yet");
        assertEquals(ExitCodes.OK, ClassDataTraining.train(dir, ClassDataTraining.ALL));
        assertEquals(ExitCodes.OK, ClassDataTraining.train(dir, ClassDataTraining.READ));
        CliRunner.Run r = CliRunner.run("query", dir.resolve("world").toString(), "(PartOf, $x)", "--format", "count");
        assertEquals(ClassDataTraining.TREE_NODES - 1, Integer.parseInt(r.out().trim()), "the read set changed nothing");
        assertThrows(IllegalArgumentException.class, () -> ClassDataTraining.train(dir, "reads"));
    }

    @Test
    void aCommandThatFailsFailsTheTraining() throws Exception {
        java.nio.file.Files.createDirectories(tmp.resolve("broken"));
        java.nio.file.Files.writeString(tmp.resolve("broken/world"), "not a world"); // load cannot make a world here
        assertEquals(ExitCodes.FAILURE, ClassDataTraining.train(tmp.resolve("broken")));
        assertTrue(java.nio.file.Files.isRegularFile(tmp.resolve("broken/world")));
    }
}
