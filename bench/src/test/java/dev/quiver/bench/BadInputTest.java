package dev.quiver.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Bad input gives one line {@code quiver-bench: <message>} on stderr and exit code 2, before any work. */
class BadInputTest {
    @TempDir
    Path tmp;

    @Test
    void unknownOption() {
        BenchRunner.run("rg1", "--depht", "4").fails(2, "'--depht'");
        BenchRunner.run("graph", "x.tsv", "--bogus").fails(2, "Unknown option: '--bogus'");
    }

    @Test
    void missingCommand() {
        BenchRunner.run().fails(2, "missing command");
        BenchRunner.run("rg2").fails(2, "rg2");
    }

    @Test
    void depthOutOfRange() {
        BenchRunner.run("rg1", "--depth", "0").fails(2, "depth must be from 1 to 7, got 0");
        BenchRunner.run("rg1", "--depth", "8").fails(2, "depth must be from 1 to 7, got 8");
        BenchRunner.run("rg1", "--depth", "six").fails(2, "'six' is not an int");
        BenchRunner.run("rg1", "--depth", "4", "--repeat", "0").fails(2, "--repeat must be at least 1");
    }

    @Test
    void negativeWarmup() {
        BenchRunner.run("graph", "../examples/wordnet/wordnet_noun_lexnames.tsv.gz", "--warmup", "-1")
                .fails(2, "--warmup must be at least 0");
    }

    @Test
    void nonEmptyDirOrBadJsonTarget() throws IOException {
        Files.writeString(tmp.resolve("precious.txt"), "keep me");
        BenchRunner.run("rg1", "--depth", "1", "--dir", tmp.toString()).fails(2, "is not empty");
        BenchRunner.run("rg1", "--depth", "1", "--json", tmp.resolve("no/such/dir/x.json").toString())
                .fails(2, "does not exist");
    }

    @Test
    void missingFile() {
        BenchRunner.run("graph", tmp.resolve("nope.tsv.gz").toString()).fails(2, "nope.tsv.gz does not exist");
        BenchRunner.run("graph").fails(2, "Missing required parameter");
    }

    @Test
    void unknownRelationshipOrName() throws IOException {
        Path tsv = tmp.resolve("zoo.tsv");
        Files.writeString(tsv, "dog\tKindOf\tmammal\nmammal\tKindOf\tanimal\n");
        BenchRunner.run("graph", tsv.toString(), "--transitive", "KindOf,PartOf")
                .fails(2, "unknown relationship 'PartOf'");
        // a name that exists but is no relationship of the file
        BenchRunner.run("graph", tsv.toString(), "--transitive", "dog").fails(2, "unknown relationship 'dog'");
        BenchRunner.run("graph", tsv.toString(), "--transitive", "KindOf", "--query", "(KindOf, unicorn)")
                .fails(2, "unicorn");
        BenchRunner.run("graph", tsv.toString(), "--query", "(KindOf, ").fails(2, "column");
    }
}
