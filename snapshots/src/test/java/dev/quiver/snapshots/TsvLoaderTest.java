package dev.quiver.snapshots;

import dev.quiver.storage.ConstraintException;
import dev.quiver.storage.World;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TsvLoaderTest {
    @TempDir
    Path tmp;

    private World world;

    @BeforeEach
    void open() {
        world = World.create(tmp.resolve("w"));
    }

    @AfterEach
    void close() {
        assertEquals(List.of(), world.check());
        world.close();
    }

    private Path file(String name, String text) throws IOException {
        return Files.writeString(tmp.resolve(name), text);
    }

    private Path gzip(String name, String text) throws IOException {
        Path p = tmp.resolve(name);
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(p))) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return p;
    }

    @Test
    void loadsPairsCreatingNamesAndSkippingTheHeader() throws IOException {
        Path f = file("a.tsv", "subject\trelationship\ttarget\ndog\tKindOf\tcanine\ncanine\tKindOf\tanimal\ndog\tEats\tbone\n");
        TsvLoader.Result r = new TsvLoader(world).load(f);
        assertEquals(3, r.lines());
        assertEquals(6, r.names());
        long dog = world.resolve("dog");
        assertTrue(world.has(dog, world.id("(KindOf, canine)")));
        assertTrue(world.has(dog, world.id("(Eats, bone)")));
        assertTrue(world.has(world.resolve("canine"), world.id("(KindOf, animal)")));
        assertEquals(0, world.lookup("subject"));
    }

    @Test
    void gzipIsRecognisedByItsMagicBytesWhateverTheName() throws IOException {
        Path f = gzip("pairs.data", "a\tR\tb\r\nb\tR\tc\r\n");
        assertEquals(2, new TsvLoader(world).load(f).lines());
        assertTrue(world.has(world.resolve("b"), world.id("(R, c)")));
    }

    @Test
    void pathsCreateHierarchiesAndExistingEntitiesAreReused() throws IOException {
        long existing = world.entity("animal");
        file("p.tsv", "zoo.cage_1\tHolds\tanimal\n");
        new TsvLoader(world).load(tmp.resolve("p.tsv"));
        long cage = world.resolve("zoo.cage_1");
        assertEquals("zoo.cage_1", world.path(cage));
        assertTrue(world.has(cage, world.pair(world.resolve("Holds"), existing)));
    }

    @Test
    void anEmptyFileOrHeaderOnlyLoadsNothing() throws IOException {
        int before = world.entityCount();
        assertEquals(0, new TsvLoader(world).load(file("e.tsv", "")).lines());
        assertEquals(0, new TsvLoader(world).load(file("h.tsv", TsvLoader.HEADER + "\n")).lines());
        assertEquals(before, world.entityCount());
    }

    @Test
    void progressIsReported() throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            sb.append("n").append(i).append("\tR\tn").append(i + 1).append('\n');
        }
        Path f = file("big.tsv", sb.toString());
        long size = Files.size(f);
        List<Long> seen = new ArrayList<>();
        new TsvLoader(world).progress((read, total, lines) -> {
            assertEquals(size, total, "total");
            assertTrue(read <= total);
            seen.add(lines);
        }).load(f);
        assertEquals(20_000L, seen.get(seen.size() - 1));
        assertTrue(seen.size() >= 2);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "two fields              | a\\tR               | expected 3 tab-separated fields",
        "four fields             | a\\tR\\tb\\tc       | got 4 fields",
        "empty line              | ''                 | an empty line",
        "empty subject           | \\tR\\tb            | subject is empty",
        "empty target            | a\\tR\\t            | target is empty",
        "space in name           | a b\\tR\\tc         | character ' ' at column 2",
        "paren in relationship   | a\\t(R)\\tc         | character '(' at column 3",
        "wildcard target         | a\\tR\\t_           | Any wildcard",
        "empty path segment      | a..b\\tR\\tc        | empty path segment",
        "star                    | a\\t*\\tc           | character '*'",
    })
    void aMalformedLineNamesFileAndLineAndLoadsNothingOfTheFile(String what, String badLine, String message)
            throws IOException {
        String bad = badLine.replace("\\t", "\t");
        Path f = file("bad.tsv", "subject\trelationship\ttarget\nx\tR\ty\ny\tR\tz\n" + bad + "\nz\tR\tw\n");
        int before = world.entityCount();
        var e = assertThrows(TsvFormatException.class, () -> new TsvLoader(world).load(f));
        assertTrue(e.getMessage().startsWith(f + ":4: "), e.getMessage());
        assertTrue(e.getMessage().contains(message), e.getMessage());
        assertEquals(4, e.line());
        assertEquals(before, world.entityCount());
        assertEquals(0, world.lookup("x"));
        assertEquals(0, world.lookup("R"));
    }

    @Test
    void digitsOnlyNamesGetAnUnderscoreBecauseDigitsDenoteIds() throws IOException {
        Path f = file("d.tsv", "2048\tDependsOn\tlibc6\ngames\tRecommends\t2048\nv1.0\tIs\tx\n");
        TsvLoader.Result r = new TsvLoader(world).load(f);
        assertEquals(java.util.Map.of("2048", "_2048", "v1.0", "v1._0"), r.renamed());
        long game = world.resolve("_2048");
        assertTrue(world.has(game, world.id("(DependsOn, libc6)")));
        assertTrue(world.has(world.resolve("games"), world.pair(world.resolve("Recommends"), game)));
        assertTrue(world.has(world.resolve("v1._0"), world.id("(Is, x)")));
        assertEquals("_2048", TsvLoader.firstPair(f)[0]);
    }

    @Test
    void aDigitsOnlyNameAndItsRenamingInOneFileAreRefused() throws IOException {
        Path f = file("clash.tsv", "2048\tR\tx\n_2048\tR\ty\n");
        var e = assertThrows(TsvFormatException.class, () -> new TsvLoader(world).load(f));
        assertTrue(e.getMessage().startsWith(f + ":2: '2048'"), e.getMessage());
        Path g = file("clash2.tsv", "_2048\tR\tx\ny\tR\t2048\n");
        e = assertThrows(TsvFormatException.class, () -> new TsvLoader(world).load(g));
        assertTrue(e.getMessage().startsWith(g + ":2: "), e.getMessage());
        assertEquals(0, world.lookup("_2048"));
    }

    @Test
    void aPairTheWorldRefusesIsReportedWithItsLine() throws IOException {
        Path f = file("cycle.tsv", "a\tIsA\tb\nb\tIsA\ta\n");
        int before = world.entityCount();
        var e = assertThrows(TsvFormatException.class, () -> new TsvLoader(world).load(f));
        assertTrue(e.getMessage().startsWith(f + ":2: "), e.getMessage());
        assertInstanceOf(ConstraintException.class, e.getCause());
        assertEquals(before, world.entityCount());
        assertEquals(0, world.lookup("a"));
    }

    @Test
    void aRefusedPairInsideOneSubjectsRunIsReportedWithItsOwnLine() throws IOException {
        Path f = file("cycle3.tsv", "a\tIsA\tb\nb\tIsA\tc\nc\tR\tx\nc\tIsA\ta\nc\tR\ty\n");
        var e = assertThrows(TsvFormatException.class, () -> new TsvLoader(world).load(f));
        assertTrue(e.getMessage().startsWith(f + ":4: "), e.getMessage());
        assertEquals(0, world.lookup("c"));
    }

    @Test
    void textThatIsNotUtf8IsMalformed() throws IOException {
        Path f = tmp.resolve("latin1.tsv");
        Files.write(f, new byte[] {'a', '\t', 'R', '\t', (byte) 0xe9, '\n'});
        var e = assertThrows(TsvFormatException.class, () -> new TsvLoader(world).load(f));
        assertTrue(e.getMessage().contains("not UTF-8"), e.getMessage());
        assertEquals(0, world.lookup("a"));
    }

    @Test
    void aMissingFileIsAnErrorAndLoadsNothing() {
        var e = assertThrows(SnapshotException.class, () -> new TsvLoader(world).load(tmp.resolve("nope.tsv")));
        assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
    }

    @Test
    void eachFileIsItsOwnTransaction() throws IOException {
        Path good = file("good.tsv", "a\tR\tb\n");
        Path bad = file("bad.tsv", "c\tR\td\nbroken line\n");
        TsvLoader loader = new TsvLoader(world);
        loader.load(good);
        assertThrows(TsvFormatException.class, () -> loader.load(bad));
        assertTrue(world.has(world.resolve("a"), world.id("(R, b)")));
        assertEquals(0, world.lookup("c"));
    }

    @Test
    void theWordNetExampleLoadsCompletely() {
        Path dir = Path.of("..", "examples", "wordnet");
        TsvLoader loader = new TsvLoader(world);
        TsvLoader.Result nouns = loader.load(dir.resolve("wordnet_nouns.tsv.gz"));
        TsvLoader.Result lex = loader.load(dir.resolve("wordnet_noun_lexnames.tsv.gz"));
        assertEquals(106_614, nouns.lines());
        assertEquals(82_115, lex.lines());
        // 82,115 synsets, 26 lexnames, 6 relationships
        assertEquals(82_115 + 26 + 6, world.entityCount());
        assertTrue(world.has(world.resolve("dog_n_01"), world.id("(Lexname, noun_animal)")));
        System.out.printf("WordNet load: nouns %d ms, lexnames %d ms%n", nouns.millis(), lex.millis());
    }
}
