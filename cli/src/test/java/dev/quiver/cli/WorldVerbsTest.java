package dev.quiver.cli;

import dev.quiver.index.PagedMap;
import dev.quiver.storage.World;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.quiver.cli.CliRunner.fingerprint;
import static dev.quiver.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** init, add, remove, component, set, show, delete, stats, check: happy paths and bad input. */
class WorldVerbsTest extends FreshWorldCliTest {
    private boolean has(String entity, String id) {
        try (World world = World.openReadOnly(Path.of(w))) {
            long e = world.lookup(entity);
            return e != 0 && world.has(e, world.id(id));
        }
    }

    @Test
    void initCreatesAnEmptyWorldOnceOnly() {
        assertTrue(World.exists(Path.of(w)));
        Map<String, String> before = fingerprint(Path.of(w));
        run("init", w).badInput("already exists");
        assertEquals(before, fingerprint(Path.of(w)));
    }

    @Test
    void addCreatesNamedEntitiesAndPairs() {
        run("add", w, "KindOf", "Transitive").ok();
        String out = run("add", w, "dog", "(KindOf, animal)", "Pet").ok().out();
        assertEquals("dog: added (KindOf,animal) Pet\n", out);
        assertTrue(has("dog", "(KindOf, animal)"));
        assertTrue(has("dog", "Pet"));
        assertTrue(has("KindOf", "Transitive"));
        assertTrue(run("add", w, "dog", "Pet").ok().out().contains("added nothing"));
    }

    @Test
    void addWithAMalformedIdChangesNothing() {
        run("add", w, "cat", "Pet").ok();
        Map<String, String> before = fingerprint(Path.of(w));
        run("add", w, "dog", "Pet", "(KindOf, animal").badInput("missing ')'");
        run("add", w, "dog", "(KindOf, *)").badInput("");
        run("add", w, "bad name", "Pet").badInput("invalid character");
        assertEquals(before, fingerprint(Path.of(w)));
        assertFalse(has("dog", "Pet"));
    }

    @Test
    void targetsAndSourcesListOwnedPairs() {
        run("add", w, "Eats", "Transitive").ok();
        run("add", w, "dog", "(Eats, meat)", "(Eats, bone)").ok();
        run("add", w, "cat", "(Eats, meat)").ok();
        run("add", w, "meat", "(Eats, grass)").ok();
        assertEquals("meat\nbone\n", run("targets", w, "dog", "Eats").ok().out(), "in id order: meat was made first");
        assertEquals("", run("targets", w, "cat", "Likes").badInput("unknown").out());
        run("add", w, "Likes", "Pet").ok();
        assertEquals("", run("targets", w, "cat", "Likes").ok().out());
        assertEquals("cat\ndog\n", run("sources", w, "Eats", "meat").ok().out(), "owned pairs only, sorted");
        run("sources", w, "Eats", "nowhere").badInput("unknown");
        run("sources", tmp.resolve("missing").toString(), "Eats", "meat").badInput("does not exist");
    }

    @Test
    void deleteWithAndRemoveAllReachEveryHolder() {
        run("add", w, "dog", "(Eats, meat)", "Pet").ok();
        run("add", w, "cat", "(Eats, meat)", "Pet").ok();
        run("add", w, "cow", "(Eats, grass)").ok();
        assertEquals("removed Pet from 2 entities\n", run("remove", w, "--all", "Pet").ok().out());
        assertFalse(has("dog", "Pet"));
        assertEquals("deleted 2 entities (holders of (Eats, meat) and what cleanup took with them)\n",
            run("delete", w, "--with", "(Eats, meat)").ok().out());
        assertTrue(has("cow", "(Eats, grass)"));
        Map<String, String> before = fingerprint(Path.of(w));
        run("delete", w, "cow", "--with", "Pet").badInput("not both");
        run("delete", w).badInput("ENTITY or --with");
        run("remove", w, "cow", "--all", "Pet").badInput("--all takes no ENTITY");
        run("remove", w, "cow").badInput("at least one ID");
        run("remove", w, "--all", "Exclusive").badInput("builtin");
        run("delete", w, "--with", "nosuch").badInput("nosuch");
        assertEquals(before, fingerprint(Path.of(w)));
    }

    @Test
    void renameMovesThePathAndRefusesClashes() {
        run("add", w, "house.kitchen.lamp", "Pet").ok();
        run("add", w, "house.garage", "Pet").ok();
        assertEquals("house.kitchen: renamed to house.cuisine\n", run("rename", w, "house.kitchen", "cuisine").ok().out());
        assertTrue(run("show", w, "house.cuisine.lamp").ok().out().startsWith("house.cuisine.lamp\n"));
        Map<String, String> before = fingerprint(Path.of(w));
        run("rename", w, "house.garage", "cuisine").badInput("sibling");
        run("rename", w, "house.garage", "bad name").badInput("invalid character");
        run("rename", w, "ChildOf", "Parent").badInput("builtin");
        run("rename", w, "house.nothing", "x").badInput("nothing");
        assertEquals(before, fingerprint(Path.of(w)));
    }

    @Test
    void aSingletonOnAnotherEntityIsBadInputAndChangesNothing() {
        run("add", w, "TimeOfDay", "Singleton").ok();
        run("add", w, "TimeOfDay", "TimeOfDay").ok(); // on its own entity
        run("add", w, "e", "Pet").ok();
        Map<String, String> before = fingerprint(Path.of(w));
        run("add", w, "e", "TimeOfDay").badInput("Singleton");
        assertEquals(before, fingerprint(Path.of(w)));
    }

    @Test
    void removeTakesIdsAwayAndNeedsKnownNames() {
        run("add", w, "dog", "(Eats, bone)", "(Eats, meat)", "Pet").ok();
        assertEquals("dog: removed (Eats,bone)\n", run("remove", w, "dog", "(Eats, bone)").ok().out());
        assertFalse(has("dog", "(Eats, bone)"));
        assertTrue(has("dog", "(Eats, meat)"));
        Map<String, String> before = fingerprint(Path.of(w));
        run("remove", w, "cat", "Pet").badInput("unknown entity 'cat'");
        run("remove", w, "dog", "Pet", "(Eats, fish)").badInput("unknown entity 'fish'");
        assertEquals(before, fingerprint(Path.of(w)));
        assertTrue(has("dog", "Pet"));
    }

    @Test
    void componentSetAndShow() {
        run("component", w, "Position", "x:f64", "y:f64").ok();
        run("component", w, "Owner", "who:entity", "since:i32").ok();
        run("add", w, "alice", "Person").ok();
        run("set", w, "ship", "Position", "{\"x\": 1.5, \"y\": -2}").ok();
        run("set", w, "ship", "Owner", "[\"alice\", 1999]").ok();
        run("set", w, "ship", "Position", "{\"y\": 7}").ok();
        String show = run("show", w, "ship").ok().out();
        assertTrue(show.startsWith("ship\n"), show);
        assertTrue(show.contains("Position {x=1.5, y=7.0}"), show);
        assertTrue(show.contains("Owner {who="), show);
        assertTrue(show.contains("since=1999}"), show);
    }

    @Test
    void setWithBadInputChangesNothing() {
        run("component", w, "Position", "x:f64", "y:f64").ok();
        run("set", w, "ship", "Position", "{\"x\": 1, \"y\": 2}").ok();
        run("add", w, "ship", "Tagged").ok();
        Map<String, String> before = fingerprint(Path.of(w));
        run("set", w, "ship", "Position", "{\"x\": \"far\"}").badInput("field 'x' is a number");
        run("set", w, "ship", "Position", "{\"z\": 1}").badInput("no field 'z'");
        run("set", w, "ship", "Position", "{x: 1").badInput("malformed JSON");
        run("set", w, "ship", "Position", "42").badInput("JSON object or array");
        run("set", w, "ship", "Tagged", "{}").badInput("is a tag");
        run("set", w, "boat", "Velocity", "{\"x\": 1}").badInput("unknown entity 'Velocity'");
        run("set", w, "boat", "Position", "[1, 2, 3]").badInput("2 fields, got 3 values");
        run("component", w, "Position", "x:f32").badInput("already has schema");
        run("component", w, "Speed", "v:float").badInput("unknown member type 'float'");
        run("component", w, "Speed", "v").badInput("expected NAME:TYPE");
        assertEquals(before, fingerprint(Path.of(w)));
    }

    @Test
    void deleteAppliesCleanupAndPanicChangesNothing() {
        run("add", w, "ParentOf", "(OnDeleteTarget, Delete)").ok();
        run("add", w, "kid", "(ParentOf, mom)").ok();
        assertEquals("deleted mom and 1 more by cleanup\n", run("delete", w, "mom").ok().out());
        run("show", w, "kid").badInput("unknown entity 'kid'");

        run("add", w, "Guards", "(OnDeleteTarget, Panic)").ok();
        run("add", w, "dog", "(Guards, house)").ok();
        Map<String, String> before = fingerprint(Path.of(w));
        run("delete", w, "house").badInput("");
        run("delete", w, "nobody").badInput("unknown entity 'nobody'");
        run("delete", w, "ChildOf").badInput("builtin");
        assertEquals(before, fingerprint(Path.of(w)));
        assertTrue(has("dog", "(Guards, house)"));
    }

    @Test
    void statsPrintsTheCounts() {
        run("add", w, "dog", "(KindOf, animal)").ok();
        String out = run("stats", w).ok().out();
        assertTrue(out.contains("entities: 3\n"), out);
        assertTrue(out.contains("pairs: "), out);
        assertTrue(out.contains("bytes on disk: "), out);
    }

    @Test
    void checkReportsOk() {
        run("add", w, "dog", "(KindOf, animal)").ok();
        assertTrue(run("check", w).ok().out().startsWith("ok: "));
    }

    /** Appends one WAL record removing pages {@code keys} of {@code family}: [magic][len][seq][n] n x ([map][key][-1]) [crc]. */
    private static void appendWalRecord(Path dir, int family, List<Long> keys) {
        try {
            String cur = Files.readString(dir.resolve("CURRENT")).trim();
            Path wal = dir.resolve("wal-" + cur.substring("MANIFEST-".length()));
            var payload = java.nio.ByteBuffer.allocate(12 + keys.size() * 13);
            payload.putLong(1).putInt(keys.size());
            for (long k : keys) {
                payload.put((byte) family).putLong(k).putInt(-1);
            }
            var crc = new java.util.zip.CRC32C();
            crc.update(payload.array());
            var rec = java.nio.ByteBuffer.allocate(12 + payload.capacity());
            rec.putInt(0x51564A31).putInt(payload.capacity()).put(payload.array()).putInt((int) crc.getValue());
            Files.write(wal, rec.array(), java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void checkExitsOneOnTheFirstViolation() {
        run("add", w, "dog", "(KindOf, animal)").ok();
        // damage the persisted reverse index behind the world's back: a well-formed write-ahead log
        // record (format in Journal's Javadoc) that removes every reverse-index page (family 6)
        List<Long> keys = new ArrayList<>();
        for (Path gen : dev.quiver.storage.file.Store.generationFiles(Path.of(w))) {
            try (PagedMap m = PagedMap.open(gen, "gen", 64, 64, false)) {
                m.forEach((k, v) -> {
                    if (k >>> 56 == 6) {
                        keys.add(k & ((1L << 56) - 1));
                    }
                });
            }
        }
        assertFalse(keys.isEmpty());
        appendWalRecord(Path.of(w), 6, keys);
        CliRunner.Run r = run("check", w).fails(ExitCodes.FAILURE, "check failed: ");
        assertEquals("", r.out());
        // leave a consistent world for the after-each check
        Loads.undoCreate(Path.of(w), false);
    }

    @Test
    void aMissingWorldIsBadInputForEveryVerbAndIsNotCreated() {
        String missing = tmp.resolve("nowhere").toString();
        run("add", missing, "dog", "Pet").badInput("does not exist");
        run("remove", missing, "dog", "Pet").badInput("does not exist");
        run("set", missing, "dog", "Position", "{}").badInput("does not exist");
        run("component", missing, "Position", "x:f64").badInput("does not exist");
        run("delete", missing, "dog").badInput("does not exist");
        run("show", missing, "dog").badInput("does not exist");
        run("query", missing, "Pet").badInput("does not exist");
        run("stats", missing).badInput("does not exist");
        run("check", missing).badInput("does not exist");
        run("snapshot", missing, tmp.resolve("s").toString()).badInput("does not exist");
        assertFalse(Files.exists(Path.of(missing)));
        assertFalse(Files.exists(tmp.resolve("s")));
    }

    @Test
    void aDirectoryThatIsNotAWorldIsBadInput() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("plain"));
        Files.writeString(dir.resolve("notes.txt"), "mine");
        run("add", dir.toString(), "dog", "Pet").badInput("is not a Quiver world");
        run("init", dir.toString()).badInput("");
        assertEquals(1, Files.list(dir).count());
    }

    @Test
    void aLockedWorldIsBadInputAndUnchanged() throws Exception {
        run("add", w, "dog", "Pet").ok();
        Path tsv = Files.writeString(tmp.resolve("x.tsv"), "cat\tKindOf\tanimal\n");
        Map<String, String> before = fingerprint(Path.of(w));
        try (World holder = World.open(Path.of(w))) {
            assertTrue(holder.entityCount() > 0);
            run("add", w, "cat", "Pet").badInput("pid");
            run("load", w, tsv.toString()).badInput("pid");
            run("delete", w, "dog").badInput("pid");
        }
        assertEquals(before, fingerprint(Path.of(w)));
    }
}
