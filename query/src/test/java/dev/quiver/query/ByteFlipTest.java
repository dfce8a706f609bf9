package dev.quiver.query;

import dev.quiver.error.QuiverException;
import dev.quiver.index.ChronicleSupport;
import dev.quiver.index.Ids;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;
import dev.quiver.storage.World;
import dev.quiver.storage.table.Column;
import dev.quiver.storage.table.Table;
import net.openhft.chronicle.map.ChronicleMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Damaged world files are refused, never read as a wrong answer (DESIGN.md contract 1: every page
 * is checksummed, a damaged one is refused by name).
 *
 * <p>A small world (entities with tags, pairs, component values of every field type, a transitive
 * relationship, names in a ChildOf hierarchy, a table of more than 64 rows, a deleted entity) is
 * built and closed. Then, for one byte offset of one world file at a time, the byte is flipped in a
 * copy of the world, which is opened and queried (a fixed set of queries, a dump of every entity,
 * path lookups) and checked ({@link World#check()}). Each trial must be refused (a
 * {@link QuiverException} at open, query or check, or a check violation) or give exactly the
 * answers of the intact world. A silently different answer, an Error or any other exception fails
 * the test. Deleting each map file is tried too.
 *
 * <p>Offsets: every byte of the small files (FORMAT, owner), flipped in all 8 bits or in one random
 * bit, alternately (the full sweep does both). In each Chronicle map file, three kinds of bytes:
 * page data (the Chronicle entries holding page segments), structure (Chronicle's header, segment
 * headers, hash slots and free lists: bytes within 16 of a non-zero byte that are not page data)
 * and zeroed free space. The default run samples 8 page-data bytes (two flips each), 4 structure
 * and 2 free-space bytes per map file, seeded ({@code -Dquiver.seed=N}), to stay well under a
 * minute (a flipped segment lock word costs Chronicle's lock timeout, 10 s, on its own).
 * {@code -Dquiver.byteflip.full=true} tries every byte of page data (once: all 8 bits or one random
 * bit, alternately), and 1,000 structure and 250 free-space bytes per map file. Trial copies go to
 * /dev/shm when it exists ({@code -Dquiver.byteflip.dir=DIR} to choose).
 */
class ByteFlipTest {
    private static final boolean FULL = Boolean.getBoolean("quiver.byteflip.full");
    /** Trials of the default run (the full sweep tries every byte near data instead). */
    private static final int SAMPLE_DATA = Integer.getInteger("quiver.byteflip.data", 8);
    private static final int SAMPLE_STRUCTURE = Integer.getInteger("quiver.byteflip.structure", 4);
    private static final int SAMPLE_FREE = Integer.getInteger("quiver.byteflip.free", 2);
    /** Per map file in the full sweep, besides every byte of page data. */
    private static final int FULL_STRUCTURE = Integer.getInteger("quiver.byteflip.fullStructure", 1000);
    private static final int FULL_FREE = Integer.getInteger("quiver.byteflip.fullFree", 250);

    private static final String[] QUERIES = {
        "Pet", "Wild", "Pet, !Wild", "Pet || Wild", "Position", "Label, Pet",
        "(KindOf, animal)", "(KindOf, mammal)", "KindOf($this, $x)", "KindOf(lion, $x)", "(KindOf, $x), Wild",
        "(Eats, *)", "(Eats, $prey), KindOf($prey, mammal)", "(ChildOf, zoo)", "(ChildOf, zoo.north)",
        "(ChildOf, $p), Position", "Fish", "Fish, Pet", "(Likes, *)", "Likes(fish_3, $x)",
    };

    @TempDir
    Path tmp;

    @Test
    void everyFlippedByteIsRefusedOrHarmless() throws IOException {
        long seed = Long.getLong("quiver.seed", System.nanoTime());
        System.out.println("ByteFlipTest seed " + seed + " (reproduce with -Dquiver.seed=" + seed
                + (FULL ? " -Dquiver.byteflip.full=true" : "") + ")");
        Random rnd = new Random(seed);
        Path pristine = tmp.resolve("pristine");
        build(pristine);
        List<String> expected;
        try (World w = World.openReadOnly(pristine)) {
            assertEquals(List.of(), w.check());
            expected = answers(w);
        }
        assertTrue(expected.size() > 150, "the answers cover the world: " + expected.size());

        // the trial copies go to a RAM disk when there is one: a trial copies about 9 MB, and the
        // writer trials force the files to disk at close
        String trialDir = System.getProperty("quiver.byteflip.dir",
                Files.isDirectory(Path.of("/dev/shm")) && Files.isWritable(Path.of("/dev/shm")) ? "/dev/shm" : null);
        Path trial = trialDir != null ? Files.createTempDirectory(Path.of(trialDir), "quiver-byteflip") : tmp.resolve("trial");
        Tally tally;
        try {
            tally = sweep(pristine, expected, trial, rnd);
        } finally {
            if (trialDir != null) {
                deleteTree(trial);
            }
        }
        assertEquals(List.of(), tally.failures, () -> tally.failures.size() + " trials failed (seed " + seed + ")");
    }

    private Tally sweep(Path pristine, List<String> expected, Path trial, Random rnd) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(pristine)) {
            files = s.filter(Files::isRegularFile).sorted().toList();
        }
        Tally tally = new Tally();
        long t0 = System.nanoTime();
        for (Path file : files) {
            byte[] bytes = Files.readAllBytes(file);
            String name = file.getFileName().toString();
            List<Integer> pageData = name.endsWith(".cm") ? pageData(file, bytes, tmp.resolve("scratch.cm")) : List.of();
            List<int[]> flips = flips(name, bytes, pageData, rnd);
            tally.files.add(String.format("%-16s %9d %7d %7d  %d trials", name, bytes.length, nearData(bytes).size(),
                    pageData.size(), flips.size()));
            for (int[] flip : flips) {
                copy(pristine, trial);
                byte[] damaged = bytes.clone();
                damaged[flip[0]] ^= (byte) flip[1];
                Files.write(trial.resolve(name), damaged);
                tally.add(name, flip[0], flip[1], attempt(trial, expected, flip[0] % 2 == 0));
            }
        }
        for (Path file : files) {
            if (file.getFileName().toString().endsWith(".cm")) {
                for (int mode = -1; mode >= -2; mode--) {
                    copy(pristine, trial);
                    Files.delete(trial.resolve(file.getFileName()));
                    tally.add(file.getFileName() + " deleted", mode, 0, attempt(trial, expected, mode == -1));
                }
            }
        }
        System.out.println(tally.report());
        System.out.printf("ByteFlipTest: %d trials in %.1f s%n", tally.trials, (System.nanoTime() - t0) / 1e9);
        return tally;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> s = Files.list(dir)) {
                for (Path p : s.toList()) {
                    Files.delete(p);
                }
            }
            Files.delete(dir);
        }
    }

    /**
     * The (offset, xor mask) pairs to try in one file: every byte of a small file; in a map file,
     * bytes of its page data (the Chronicle entries: key, size, value), of its structure (Chronicle's
     * header, segment headers, hash slots and free lists: bytes near non-zero bytes that are not page
     * data) and of its zeroed free space.
     */
    private static List<int[]> flips(String name, byte[] b, List<Integer> pageData, Random rnd) {
        List<int[]> out = new ArrayList<>();
        if (!name.endsWith(".cm")) {
            for (int i = 0; i < b.length; i++) {
                if (FULL || i % 2 == 0) {
                    out.add(new int[] {i, 0xFF});
                }
                if (FULL || i % 2 == 1) {
                    out.add(new int[] {i, 1 << rnd.nextInt(8)});
                }
            }
            return out;
        }
        boolean[] isData = new boolean[b.length];
        pageData.forEach(i -> isData[i] = true);
        List<Integer> structure = new ArrayList<>(), free = new ArrayList<>();
        boolean[] near = new boolean[b.length];
        nearData(b).forEach(i -> near[i] = true);
        for (int i = 0; i < b.length; i++) {
            if (!isData[i]) {
                (near[i] ? structure : free).add(i);
            }
        }
        List<Integer> data = new ArrayList<>(pageData);
        int nData = FULL ? data.size() : Math.min(data.size(), SAMPLE_DATA);
        if (!FULL) {
            Collections.shuffle(data, rnd);
        }
        for (int k = 0; k < nData; k++) {
            if (FULL) {
                // every byte once: all 8 bits or one random bit, alternately
                out.add(new int[] {data.get(k), k % 2 == 0 ? 0xFF : 1 << rnd.nextInt(8)});
            } else {
                out.add(new int[] {data.get(k), 0xFF});
                out.add(new int[] {data.get(k), 1 << rnd.nextInt(8)});
            }
        }
        int nStructure = FULL ? FULL_STRUCTURE : SAMPLE_STRUCTURE;
        for (int k = 0; k < nStructure && !structure.isEmpty(); k++) {
            out.add(new int[] {structure.get(rnd.nextInt(structure.size())), k % 2 == 0 ? 0xFF : 1 << rnd.nextInt(8)});
        }
        int nFree = FULL ? FULL_FREE : SAMPLE_FREE;
        for (int k = 0; k < nFree && !free.isEmpty(); k++) {
            out.add(new int[] {free.get(rnd.nextInt(free.size())), k % 2 == 0 ? 0xFF : 1 << rnd.nextInt(8)});
        }
        return out;
    }

    /**
     * The file offsets of the Chronicle entries of a map file (a page segment each), found by
     * reading the raw entries from a copy of the file and locating each value in the file's bytes:
     * the value, and the 24 bytes before it (key and sizes) and 8 after it (Chronicle's entry
     * checksum).
     */
    private static List<Integer> pageData(Path file, byte[] bytes, Path scratch) throws IOException {
        Files.copy(file, scratch, StandardCopyOption.REPLACE_EXISTING);
        List<byte[]> values = new ArrayList<>();
        ChronicleSupport.init();
        try (ChronicleMap<byte[], byte[]> raw = ChronicleMap.of(byte[].class, byte[].class)
                .constantKeySizeBySample(new byte[10]).averageValueSize(64).entries(64)
                .createPersistedTo(scratch.toFile())) {
            raw.forEachEntry(e -> values.add(e.value().getUsing(null)));
        }
        Files.delete(scratch);
        java.util.TreeSet<Integer> out = new java.util.TreeSet<>();
        for (byte[] v : values) {
            int at = indexOf(bytes, v);
            assertTrue(at >= 0, "an entry of " + file + " is not in its bytes");
            for (int i = Math.max(0, at - 24); i < Math.min(bytes.length, at + v.length + 8); i++) {
                out.add(i);
            }
        }
        return new ArrayList<>(out);
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** The offsets within 16 bytes of a non-zero byte, ascending. */
    private static List<Integer> nearData(byte[] b) {
        List<Integer> out = new ArrayList<>();
        int lastNonZero = Integer.MIN_VALUE / 2;
        int next = 0; // the next non-zero byte at or after i
        for (int i = 0; i < b.length; i++) {
            if (next < i) {
                next = i;
                while (next < b.length && b[next] == 0) {
                    next++;
                }
            }
            if (b[i] != 0) {
                lastNonZero = i;
            }
            if (i - lastNonZero <= 16 || (next < b.length && next - i <= 16)) {
                out.add(i);
            }
        }
        return out;
    }

    private enum Outcome { REFUSED, SAME, WRONG_ANSWER, UNEXPECTED }

    private record Result(Outcome outcome, String detail) {}

    /** Opens the damaged world (read-only or for writing), queries and checks it. */
    private static Result attempt(Path dir, List<String> expected, boolean readOnly) {
        try (World w = readOnly ? World.openReadOnly(dir) : World.open(dir)) {
            List<String> got = answers(w);
            List<String> violations = w.check();
            if (!violations.isEmpty()) {
                return new Result(Outcome.REFUSED, "check: " + violations.get(0));
            }
            if (!got.equals(expected)) {
                return new Result(Outcome.WRONG_ANSWER, firstDifference(expected, got));
            }
            return new Result(Outcome.SAME, "");
        } catch (QuiverException e) {
            return new Result(Outcome.REFUSED, e.getClass().getSimpleName() + ": " + e.getMessage());
        } catch (Throwable t) {
            return new Result(Outcome.UNEXPECTED, t.toString() + " at " + Arrays.toString(
                    Arrays.copyOf(t.getStackTrace(), Math.min(6, t.getStackTrace().length))));
        }
    }

    private static String firstDifference(List<String> expected, List<String> got) {
        for (int i = 0; i < Math.min(expected.size(), got.size()); i++) {
            if (!expected.get(i).equals(got.get(i))) {
                return "expected '" + expected.get(i) + "', got '" + got.get(i) + "'";
            }
        }
        return expected.size() + " answer lines expected, got " + got.size();
    }

    /** Counts outcomes per file; keeps the failing trials. */
    private static final class Tally {
        final Map<String, int[]> byFile = new TreeMap<>();
        final List<String> failures = new ArrayList<>();
        final Map<String, Integer> refusals = new TreeMap<>();
        final List<String> deletions = new ArrayList<>();
        final List<String> files = new ArrayList<>();

        int trials;

        void add(String file, int offset, int mask, Result r) {
            trials++;
            if (FULL && trials % 1000 == 0) {
                System.out.printf("ByteFlipTest: %d trials, at %s offset %d, %d failed%n", trials, file, offset, failures.size());
            }
            String key = file.endsWith(" deleted") ? "(deleted map files)" : file;
            byFile.computeIfAbsent(key, k -> new int[Outcome.values().length])[r.outcome().ordinal()]++;
            if (r.outcome() == Outcome.REFUSED) {
                String kind = r.detail().replaceAll("[0-9]+", "N");
                refusals.merge(kind.length() > 90 ? kind.substring(0, 90) : kind, 1, Integer::sum);
            }
            if (offset < 0) {
                deletions.add(file + (offset == -1 ? " (read-only)" : " (writer)") + ": " + r.outcome() + " "
                        + (r.detail().length() > 100 ? r.detail().substring(0, 100) : r.detail()));
            }
            if (r.outcome() == Outcome.WRONG_ANSWER || r.outcome() == Outcome.UNEXPECTED) {
                failures.add(file + " offset " + offset + " xor 0x" + Integer.toHexString(mask) + ": "
                        + r.outcome() + " " + r.detail());
            }
        }

        String report() {
            StringBuilder sb = new StringBuilder("ByteFlipTest: file, trials, refused, same answers, wrong, unexpected\n");
            int[] total = new int[Outcome.values().length];
            for (var en : byFile.entrySet()) {
                int[] c = en.getValue();
                sb.append(String.format("  %-22s %6d %6d %6d %4d %4d%n", en.getKey(), Arrays.stream(c).sum(),
                        c[0], c[1], c[2], c[3]));
                for (int i = 0; i < c.length; i++) {
                    total[i] += c[i];
                }
            }
            sb.append(String.format("  %-22s %6d %6d %6d %4d %4d%n", "total", Arrays.stream(total).sum(),
                    total[0], total[1], total[2], total[3]));
            sb.append("ByteFlipTest: refusals by kind\n");
            refusals.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue()).limit(25)
                    .forEach(en -> sb.append(String.format("  %6d %s%n", en.getValue(), en.getKey())));
            sb.append("ByteFlipTest: files (bytes, bytes within 16 of a non-zero byte, page data bytes)\n");
            files.forEach(f -> sb.append("  ").append(f).append('\n'));
            sb.append("ByteFlipTest: deleted map files\n");
            deletions.forEach(d -> sb.append("  ").append(d).append('\n'));
            failures.stream().limit(40).forEach(f -> sb.append("  FAILED ").append(f).append('\n'));
            return sb.toString();
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        if (Files.exists(to)) {
            try (Stream<Path> s = Files.list(to)) {
                for (Path p : s.toList()) {
                    Files.delete(p);
                }
            }
        } else {
            Files.createDirectories(to);
        }
        try (Stream<Path> s = Files.list(from)) {
            for (Path p : s.toList()) {
                Files.copy(p, to.resolve(p.getFileName()), StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
    }

    // ------------------------------------------------------------------ the world and its answers

    /** The small world, written in several transactions (so pages are rewritten and move), closed. */
    static void build(Path dir) {
        try (World w = World.create(dir)) {
            w.transaction(x -> {
                for (String r : new String[] {"KindOf", "Likes"}) {
                    x.add(x.entity(r), Builtin.TRANSITIVE);
                }
                x.component("Position", Schema.of("x", FieldType.F64, "y", FieldType.F64));
                x.component("Label", Schema.of("text", FieldType.STRING, "rank", FieldType.I32,
                        "weight", FieldType.F32, "big", FieldType.I64, "tame", FieldType.BOOL, "keeper", FieldType.ENTITY));
                String[][] kinds = {{"mammal", "animal"}, {"bird", "animal"}, {"fish", "animal"},
                    {"cat", "mammal"}, {"lion", "cat"}, {"tiger", "cat"}, {"dog", "mammal"}, {"wolf", "dog"},
                    {"eagle", "bird"}, {"penguin", "bird"}, {"zebra", "mammal"}, {"salmon", "fish"}};
                for (String[] k : kinds) {
                    x.add(x.entity(k[0]), x.pair(x.entity("KindOf"), x.entity(k[1])));
                }
            });
            w.transaction(x -> {
                long eats = x.entity("Eats");
                x.add(x.entity("lion"), x.pair(eats, x.entity("zebra")), x.entity("Wild"));
                x.add(x.entity("tiger"), x.pair(eats, x.entity("zebra")), x.entity("Wild"));
                x.add(x.entity("wolf"), x.pair(eats, x.entity("zebra")), x.entity("Wild"));
                x.add(x.entity("eagle"), x.pair(eats, x.entity("salmon")), x.entity("Wild"));
                x.add(x.entity("dog"), x.entity("Pet"));
                x.add(x.entity("cat"), x.entity("Pet"));
                long zoo = x.entity("zoo");
                for (String pen : new String[] {"north", "south"}) {
                    long p = x.entity("zoo." + pen);
                    x.set(p, x.id("Position"), Map.of("x", pen.length() * 1.5, "y", -2.0));
                }
                for (int i = 0; i < 6; i++) {
                    long e = x.entity("zoo." + (i % 2 == 0 ? "north" : "south") + ".enclosure_" + i);
                    x.set(e, x.id("Position"), Map.of("x", (double) i, "y", i * 0.25));
                    x.add(e, x.pair(x.entity("Likes"), x.entity("zoo")));
                }
                x.set(x.entity("lion"), x.id("Label"), Map.of("text", "Leo \u00e9", "rank", -7, "weight", 190.5f,
                        "big", 1L << 40, "tame", false, "keeper", x.entity("zoo.north")));
                x.set(x.entity("dog"), x.id("Label"), Map.of("text", "Rex", "rank", 3, "weight", 30.25f,
                        "big", -5L, "tame", true, "keeper", zoo));
            });
            // a table of more than 64 rows keeps its rows in row chunks (the rows map)
            w.transaction(x -> {
                long fish = x.entity("Fish");
                for (int i = 0; i < 100; i++) {
                    long e = x.entity("fish_" + i);
                    x.add(e, fish, x.pair(x.entity("KindOf"), x.entity("salmon")));
                    x.set(e, x.id("Position"), Map.of("x", i * 1.0, "y", i * -1.0));
                    if (i % 10 == 0) {
                        x.add(e, x.entity("Pet"));
                    }
                    if (i > 0 && i <= 5) {
                        x.add(e, x.pair(x.entity("Likes"), x.entity("fish_" + (i - 1))));
                    }
                }
            });
            w.transaction(x -> {
                x.delete(x.entity("penguin"));
                x.delete(x.entity("fish_99"));
                x.set(x.entity("zoo.south.enclosure_1"), x.id("Position"), Map.of("x", 100.0, "y", 200.0));
            });
        }
    }

    /** Every answer the tests compare: the fixed queries, a dump of every entity, path lookups. */
    static List<String> answers(World w) {
        List<String> out = new ArrayList<>();
        for (String q : QUERIES) {
            Query query = Query.parse(w, q);
            List<String> rows = new ArrayList<>();
            for (QueryRow r : query.rows(-1)) {
                StringBuilder sb = new StringBuilder(q).append(" -> ");
                sb.append(query.hasThis() ? w.path(r.thisEntity()) : "-");
                List<String> vars = new ArrayList<>(query.variableNames());
                Collections.sort(vars);
                for (String v : vars) {
                    long x = r.variable(v);
                    sb.append(" $").append(v).append('=').append(x == 0 ? "*" : w.path(x));
                }
                for (int f = 0; f < r.fieldCount(); f++) {
                    sb.append(' ').append(r.fieldSet(f) ? w.idToString(r.fieldId(f)) : "-");
                }
                rows.add(sb.toString());
            }
            Collections.sort(rows);
            out.add(q + " count " + query.count());
            out.addAll(rows);
        }
        List<String> dump = new ArrayList<>();
        for (Table t : w.tableAccess().allTables()) {
            for (int r = 0; r < t.count(); r++) {
                long e = t.entity(r);
                String path = w.path(e);
                StringBuilder sb = new StringBuilder("entity ").append(path).append(" #").append(Ids.index(e))
                        .append(" gen ").append(Ids.toHex(e)).append(" :");
                List<String> ids = new ArrayList<>();
                for (long id : w.type(e)) {
                    ids.add(w.idToString(id));
                }
                Collections.sort(ids);
                sb.append(ids);
                for (Column c : t.columns()) {
                    sb.append(' ').append(w.idToString(c.id())).append('=').append(new TreeMap<>(c.row(r)));
                }
                if (!path.isEmpty()) {
                    sb.append(" lookup=").append(w.lookup(path) == e);
                }
                dump.add(sb.toString());
            }
        }
        Collections.sort(dump);
        out.addAll(dump);
        out.add("entities " + w.entityCount());
        return out;
    }

    @Test
    void theAnswersSeeEveryPartOfTheWorld() throws IOException {
        Path dir = tmp.resolve("w");
        build(dir);
        try (World w = World.openReadOnly(dir)) {
            List<String> a = answers(w);
            String all = String.join("\n", a);
            for (String must : new String[] {"(KindOf, animal) -> fish_3", "KindOf(lion, $x) -> - $x=animal",
                "Label={big=1099511627776, keeper=", "text=Leo \u00e9", "weight=190.5", "zoo.south.enclosure_1",
                "{x=100.0, y=200.0}", "lookup=true", "Likes(fish_3, $x) -> - $x=fish_0"}) {
                assertTrue(all.contains(must), must + " not in\n" + all);
            }
            assertTrue(!all.contains("penguin") && !all.contains("fish_99"), "deleted entities are gone");
            assertTrue(w.tableAccess().allTables().stream().anyMatch(t -> t.count() > 64), "a table keeps its rows in row chunks");
        }
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.filter(p -> p.toString().endsWith(".cm")).toList()) {
                assertTrue(Files.size(p) > 0, p.toString());
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
