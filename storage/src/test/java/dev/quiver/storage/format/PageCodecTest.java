package dev.quiver.storage.format;

import dev.quiver.error.CorruptionException;
import dev.quiver.index.ReverseIndex;
import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;
import dev.quiver.storage.World;
import dev.quiver.storage.WorldPages;
import dev.quiver.storage.WorldFormatException;
import dev.quiver.storage.entity.EntityIndex;
import dev.quiver.storage.entity.EntityNames;
import dev.quiver.storage.table.Schemas;
import dev.quiver.storage.table.TableSet;
import dev.quiver.storage.tx.Changes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The page codecs on a random world: every page read back and written again gives the same bytes
 * (both LZ4 and plain envelopes, every number-field mode, row pages, dead entities, free
 * indices), and damaged pages give a {@link CorruptionException}, never another exception, an
 * OutOfMemoryError or a hang. Seeded: reproduce with {@code -Dquiver.seed=N} (printed).
 */
class PageCodecTest {
    private static final long SEED = Long.getLong("quiver.seed", System.nanoTime());
    /** The pages of the random world: map id, key, blob. */
    private static final List<Object[]> PAGES = new ArrayList<>();

    @TempDir
    static Path tmp;

    @BeforeAll
    static void randomWorld() {
        System.out.println("PageCodecTest seed " + SEED + " (-Dquiver.seed=" + SEED + ")");
        Random rnd = new Random(SEED);
        try (World w = World.create(tmp.resolve("w"))) {
            long pos = w.component("Pos", Schema.of("x", FieldType.F64, "y", FieldType.F32, "n", FieldType.I32,
                    "big", FieldType.I64, "ok", FieldType.BOOL, "label", FieldType.STRING, "to", FieldType.ENTITY)
                    .withDefaults(java.util.Map.of("x", -1.5, "ok", true, "label", "none", "big", Long.MIN_VALUE)));
            long[] groups = new long[5];
            for (int g = 0; g < groups.length; g++) {
                groups[g] = w.entity("G" + g);
            }
            long rel = w.entity("Rel");
            List<Long> made = new ArrayList<>();
            w.transaction(tx -> {
                for (int i = 0; i < 3000; i++) {
                    long e = rnd.nextInt(8) == 0 ? tx.entity() : tx.entity((rnd.nextBoolean() ? "G1.child_" : "n") + i);
                    made.add(e);
                    // group 0 holds more than a row chunk: row pages, chunked and whole-number values
                    int g = i < 1400 ? 0 : 1 + rnd.nextInt(groups.length - 1);
                    tx.add(e, groups[g]);
                    if (g > 0 && rnd.nextInt(3) == 0) {
                        tx.add(e, tx.pair(rel, made.get(rnd.nextInt(made.size()))));
                    }
                    double x = switch (g) {
                        case 0 -> i;
                        case 1 -> i + 0.5;
                        case 2 -> rnd.nextDouble() * 1e6;
                        case 3 -> rnd.nextBoolean() ? -0.0 : -i;
                        default -> rnd.nextGaussian();
                    };
                    float y = g == 0 ? 7 : g == 2 ? rnd.nextFloat() : -i;
                    tx.set(e, pos, new Object[] {x, y, rnd.nextInt(), g == 4 ? rnd.nextLong() : i,
                            rnd.nextBoolean(), "label " + rnd.nextInt(50), made.get(rnd.nextInt(made.size()))});
                }
            });
            w.transaction(tx -> {
                for (int i = 0; i < 300; i++) {
                    long e = made.get(rnd.nextInt(made.size()));
                    if (tx.isAlive(e)) {
                        tx.delete(e);
                    }
                }
            });
            assertEquals(List.of(), w.check());
            WorldPages.forEach(w, (map, key, blob) -> PAGES.add(new Object[] {Arrays.asList(WorldFormat.MAP_NAMES).indexOf(map), key, blob}));
        }
    }

    /** Empty in-memory structures and a format over them. */
    private static WorldFormat fresh() {
        var changes = new Changes();
        var entities = new EntityIndex(null);
        var schemas = new Schemas(rel -> false);
        return new WorldFormat(new WorldParts(entities, new EntityNames(entities, changes),
                new TableSet(changes, schemas), schemas, new ReverseIndex(), new dev.quiver.storage.table.SparseStore()));
    }

    /** Loads {@code pages}, then reads every page the lazy structures left for later. */
    private static void loadWhole(List<Object[]> pages) {
        WorldFormat f = fresh();
        f.load(source(pages), "test");
        f.readEverything();
    }

    private static PageSource source(List<Object[]> pages) {
        return new PageSource() {
            @Override
            public byte[] get(int map, long key) {
                for (Object[] p : pages) {
                    if ((int) p[0] == map && (long) p[1] == key) {
                        return (byte[]) p[2];
                    }
                }
                return null;
            }

            @Override
            public void forEach(int map, PageVisitor visitor) {
                pages.stream().filter(p -> (int) p[0] == map).sorted(java.util.Comparator.comparingLong(p -> (long) p[1]))
                    .forEach(p -> visitor.visit((long) p[1], (byte[]) p[2]));
            }
        };
    }

    @Test
    void everyPageReadBackIsWrittenAgainByteForByte() {
        WorldFormat f = fresh();
        f.load(source(PAGES), "test");
        Map<Integer, TreeSet<Long>> keys = new HashMap<>();
        int lz4 = 0, plain = 0;
        for (Object[] p : PAGES) {
            int map = (int) p[0];
            byte[] blob = (byte[]) p[2];
            assertArrayEquals(blob, f.serialize(map, (long) p[1]), WorldFormat.MAP_NAMES[map] + " page " + p[1] + " seed " + SEED);
            keys.computeIfAbsent(map, m -> new TreeSet<>()).add((long) p[1]);
            if (map != WorldFormat.META) {
                lz4 += blob[0] == PageCompression.LZ4 ? 1 : 0;
                plain += blob[0] == PageCompression.PLAIN ? 1 : 0;
            }
        }
        for (int m = 0; m < WorldFormat.MAP_NAMES.length; m++) {
            var expected = new TreeSet<Long>();
            for (long k : f.statePages().expectedKeys(m)) {
                expected.add(k);
            }
            assertEquals(expected, keys.getOrDefault(m, new TreeSet<>()), WorldFormat.MAP_NAMES[m]);
        }
        assertTrue(lz4 > 0 && plain > 0, lz4 + " LZ4 pages, " + plain + " plain pages");
        assertTrue(keys.containsKey(WorldFormat.ROWS), "the world has row pages");
    }

    @Test
    void damagedPagesGiveCorruptionOrLoadNothingElse() {
        Random rnd = new Random(SEED + 1);
        int refused = 0, trials = 600;
        for (int t = 0; t < trials; t++) {
            int victim = rnd.nextInt(PAGES.size());
            Object[] page = PAGES.get(victim);
            int map = (int) page[0];
            if (map == WorldFormat.META) {
                continue; // its counts size the entity index: a damaged meta page is found by the checksum
            }
            byte[] blob = damage(rnd, map, (long) page[1], (byte[]) page[2]);
            var pages = new ArrayList<>(PAGES);
            pages.set(victim, new Object[] {map, page[1], blob});
            try {
                loadWhole(pages);
            } catch (CorruptionException e) {
                refused++;
            } catch (Throwable e) {
                fail("seed " + SEED + " trial " + t + ": " + WorldFormat.MAP_NAMES[map] + " page " + page[1]
                        + " damaged gave " + e, e);
            }
        }
        assertTrue(refused > trials / 3, refused + " of " + trials + " damaged worlds refused");
    }

    /** One kind of damage: a flipped byte, a cut, a damaged body re-sealed, random bytes, a lying length. */
    private static byte[] damage(Random rnd, int map, long key, byte[] blob) {
        byte[] b = blob.clone();
        switch (rnd.nextInt(5)) {
            case 0 -> b[rnd.nextInt(b.length)] ^= (byte) (1 << rnd.nextInt(8));
            case 1 -> b = Arrays.copyOf(b, rnd.nextInt(b.length));
            case 2 -> {
                byte[] body = PageCompression.open(WorldFormat.MAP_NAMES[map], key, blob);
                body[rnd.nextInt(body.length)] = (byte) rnd.nextInt(256);
                b = PageCompression.seal(body, rnd.nextBoolean() ? body.length : rnd.nextInt(body.length + 1));
            }
            case 3 -> {
                byte[] junk = new byte[rnd.nextInt(600)];
                rnd.nextBytes(junk);
                b = PageCompression.seal(junk, junk.length);
            }
            default -> {
                var w = new Bytes.Writer(16);
                w.u8(PageCompression.LZ4);
                w.varint(rnd.nextBoolean() ? PageCompression.MAX_BODY : 257 + rnd.nextInt(1 << 20));
                w.raw(b, 0, b.length);
                b = w.toBytes();
            }
        }
        return b;
    }

    @Test
    void aDamagedCompressedPageIsRefusedByName() {
        Object[] page = PAGES.stream().filter(p -> ((byte[]) p[2])[0] == PageCompression.LZ4 && (int) p[0] != WorldFormat.META)
                .findFirst().orElseThrow();
        String name = WorldFormat.MAP_NAMES[(int) page[0]] + " page " + page[1];
        byte[] blob = ((byte[]) page[2]).clone();
        // the body length claimed far beyond what the block can hold: refused before allocating
        var w = new Bytes.Writer(16);
        w.u8(PageCompression.LZ4);
        w.varint(PageCompression.MAX_BODY);
        w.raw(blob, 2, 40);
        var e = assertThrows(CorruptionException.class, () -> PageCompression.open(WorldFormat.MAP_NAMES[(int) page[0]], (long) page[1], w.toBytes()));
        assertTrue(e.getMessage().startsWith(name) && e.getMessage().contains("claims a body"), e.getMessage());
        // a cut block
        byte[] cut = Arrays.copyOf(blob, blob.length - 7);
        e = assertThrows(CorruptionException.class, () -> PageCompression.open(WorldFormat.MAP_NAMES[(int) page[0]], (long) page[1], cut));
        assertTrue(e.getMessage().startsWith(name), e.getMessage());
        // an unknown flag, an empty blob
        blob[0] = 7;
        e = assertThrows(CorruptionException.class, () -> PageCompression.open("tables", 3, blob));
        assertTrue(e.getMessage().contains("tables page 3") && e.getMessage().contains("flag 7"), e.getMessage());
        assertThrows(CorruptionException.class, () -> PageCompression.open("tables", 3, new byte[0]));
        // through the loader: the message names the page
        var pages = new ArrayList<>(PAGES);
        pages.replaceAll(p -> p == page ? new Object[] {p[0], p[1], cut} : p);
        e = assertThrows(CorruptionException.class, () -> loadWhole(pages));
        assertTrue(e.getMessage().contains(name), e.getMessage());
    }

    @Test
    void schemaPagesCarryDefaultsAndRefuseThemOutOfOrder() {
        Schema s = Schema.of("a", FieldType.F32, "b", FieldType.STRING, "c", FieldType.I32)
                .withDefaults(java.util.Map.of("c", -7, "b", "x"));
        var w = new Bytes.Writer(64);
        SchemaPage.write(s, w);
        assertEquals(s, SchemaPage.read(w.toBytes()));
        var bad = new Bytes.Writer(64);
        bad.varint(2);
        bad.vstr("a");
        bad.u8(FieldType.F32.code());
        bad.vstr("b");
        bad.u8(FieldType.F32.code());
        bad.varint(2);
        bad.varint(1);
        bad.varint(0);
        bad.varint(0);
        bad.varint(0);
        var e = assertThrows(dev.quiver.error.CorruptionException.class, () -> SchemaPage.read(bad.toBytes()));
        assertTrue(e.getMessage().contains("out of order"), e.getMessage());
    }

    @Test
    void schemaPagesCarryRangesAndRefuseAnInvertedOne() {
        Schema s = Schema.of("a", FieldType.F64, "b", FieldType.I64, "c", FieldType.STRING)
                .withRange("a", -1.5, Double.POSITIVE_INFINITY).withRange("b", 0, 100).withDefaults(java.util.Map.of("b", 7));
        var w = new Bytes.Writer(64);
        SchemaPage.write(s, w);
        Schema back = SchemaPage.read(w.toBytes());
        assertEquals(s, back);
        assertEquals(new Schema.Range(0, 100), back.range(1));
        assertEquals(null, back.range(2));
        var bad = new Bytes.Writer(64);
        bad.varint(1);
        bad.vstr("a");
        bad.u8(FieldType.F64.code());
        bad.varint(0); // no defaults
        bad.varint(1);
        bad.varint(0);
        bad.i64(Double.doubleToRawLongBits(5));
        bad.i64(Double.doubleToRawLongBits(1));
        var e = assertThrows(dev.quiver.error.CorruptionException.class, () -> SchemaPage.read(bad.toBytes()));
        assertTrue(e.getMessage().contains("min <= max"), e.getMessage());
    }

    @Test
    void aMetaPageOfAnotherVersionIsRefusedNamingBoth() {
        var w = new Bytes.Writer(16);
        w.i32(2);
        w.i32(100);
        w.i32(4);
        w.i32(0);
        var pages = new ArrayList<>(PAGES);
        pages.replaceAll(p -> (int) p[0] == WorldFormat.META ? new Object[] {p[0], p[1], w.toBytes()} : p);
        var e = assertThrows(WorldFormatException.class, () -> fresh().load(source(pages), "W"));
        assertTrue(e.getMessage().contains("format version 2") && e.getMessage().contains("reads " + WorldFormat.VERSION), e.getMessage());
    }

    @Test
    void aWorldOfPageFormat2IsRefusedNamingBothVersions() {
        Path dir = tmp.resolve("old");
        try (World w = World.create(dir)) {
            w.entity("a");
        }
        // a world of the previous build: its meta page starts with version 2 (fixed-width counts)
        var old = new Bytes.Writer(16);
        old.i32(2);
        old.i32(300);
        old.i32(10);
        old.i32(0);
        // put in place of the meta page (family 0, key 0) of the world's newest generation file
        var gens = dev.quiver.storage.file.Store.generationFiles(dir);
        Path gen = gens.get(gens.size() - 1);
        long metaKey = dev.quiver.storage.file.Store.generationKey(0, 0);
        try (var meta = dev.quiver.index.PagedMap.open(gen, "gen", 64, 256, false)) {
            meta.put(metaKey, old.toBytes());
        }
        var e = assertThrows(WorldFormatException.class, () -> World.open(dir));
        assertTrue(e.getMessage().contains("format version 2") && e.getMessage().contains("this build reads " + WorldFormat.VERSION),
                e.getMessage());
        try (var meta = dev.quiver.index.PagedMap.open(gen, "gen", 64, 256, false)) {
            assertArrayEquals(old.toBytes(), meta.get(metaKey), "the refused world is left as it was");
        }
    }

    @Test
    void sealKeepsTheSmallerForm() {
        byte[] small = new byte[PageCompression.MIN_COMPRESS];
        assertEquals(PageCompression.PLAIN, PageCompression.seal(small, small.length)[0]);
        byte[] zeros = new byte[5000];
        byte[] sealed = PageCompression.seal(zeros, zeros.length);
        assertEquals(PageCompression.LZ4, sealed[0]);
        assertTrue(sealed.length < 100, sealed.length + " bytes");
        assertArrayEquals(zeros, PageCompression.open("x", 0, sealed));
        byte[] noise = new byte[5000];
        new Random(SEED).nextBytes(noise);
        byte[] kept = PageCompression.seal(noise, noise.length);
        assertEquals(PageCompression.PLAIN, kept[0]);
        assertArrayEquals(noise, PageCompression.open("x", 0, kept));
    }

    /**
     * A world whose stored pages another LZ4 compressor sealed (an earlier build's lz4-java, or this
     * build's fallback on a platform aircompressor refuses) reads back the same and passes the
     * check: the check compares page bodies, not envelopes.
     */
    @Test
    void pagesSealedByAnotherCompressorReadAndCheckTheSame() {
        Path dir = tmp.resolve("resealed");
        try (World w = World.create(dir)) {
            long c = w.transactionResult(t -> t.component("Pos", Schema.of("x", FieldType.F64)));
            w.transaction(t -> {
                for (int i = 0; i < 3_000; i++) {
                    long e = t.entity("entity" + i);
                    t.set(e, c, new Object[] {(double) (i % 7)});
                }
            });
        }
        var other = net.jpountz.lz4.LZ4Factory.safeInstance().highCompressor(); // seals differently from the fast one
        int resealed = 0;
        for (Path gen : dev.quiver.storage.file.Store.generationFiles(dir)) {
            var blobs = new HashMap<Long, byte[]>();
            try (var map = dev.quiver.index.PagedMap.open(gen, "gen", 64, 256, false)) {
                map.forEach(blobs::put);
                for (var en : blobs.entrySet()) {
                    long k = en.getKey();
                    byte[] blob = en.getValue();
                    if (k == -1L || (int) (k >>> 56) == WorldFormat.META || blob[0] != PageCompression.LZ4) {
                        continue; // the directory, the meta page (never enveloped), plain pages
                    }
                    byte[] body = PageCompression.open("x", k, blob);
                    byte[] out = new byte[16 + other.maxCompressedLength(body.length)];
                    var w = new Bytes.Writer(8);
                    w.u8(PageCompression.LZ4);
                    w.varint(body.length);
                    byte[] head = w.toBytes();
                    System.arraycopy(head, 0, out, 0, head.length);
                    int n = other.compress(body, 0, body.length, out, head.length, out.length - head.length);
                    byte[] again = Arrays.copyOf(out, head.length + n);
                    if (!Arrays.equals(again, blob)) {
                        map.put(k, again);
                        resealed++;
                    }
                    assertArrayEquals(body, PageCompression.open("x", k, again));
                }
            }
        }
        assertTrue(resealed > 0, "no page was sealed differently");
        try (World r = World.openReadOnly(dir)) {
            assertEquals(List.of(), r.check());
            assertTrue(r.lookup("entity2999") != 0 && r.lookup("entity0") != 0);
            assertEquals(2998 % 7, r.getDouble(r.lookup("entity2998"), r.lookup("Pos"), 0));
        }
        try (World w = World.open(dir)) {
            assertEquals(List.of(), w.check());
        }
    }

    /**
     * Sealing keeps its compressor's hash table between pages: sealing many small pages allocates
     * about their blobs, not a 16 KiB table each (lz4-java's compressor allocates one per call).
     */
    @Test
    void sealingSmallPagesAllocatesAboutTheirBlobs() {
        var rnd = new Random(SEED);
        byte[] body = new byte[600];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) (rnd.nextInt(4) == 0 ? rnd.nextInt() : i / 8); // compressible
        }
        var mx = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        for (int i = 0; i < 2_000; i++) {
            PageCompression.seal(body, body.length); // warm-up: the thread's buffers, the JIT
        }
        long before = mx.getCurrentThreadAllocatedBytes();
        int pages = 2_000;
        long blobs = 0;
        for (int i = 0; i < pages; i++) {
            blobs += PageCompression.seal(body, body.length).length;
        }
        long perPage = (mx.getCurrentThreadAllocatedBytes() - before) / pages;
        assertTrue(perPage < blobs / pages + 1_024, perPage + " bytes allocated per sealed page of " + (blobs / pages) + " bytes");
    }
}
