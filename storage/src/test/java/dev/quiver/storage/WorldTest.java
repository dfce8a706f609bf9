package dev.quiver.storage;

import dev.quiver.index.Ids;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

class WorldTest {
    @TempDir
    Path tmp;
    World w;

    record Position(double x, double y) {}

    @AfterEach
    void closeWorld() {
        if (w != null) {
            assertEquals(List.of(), w.check());
            w.close();
        }
    }

    private World reopen() {
        w.close();
        w = World.open(tmp.resolve("w"));
        return w;
    }

    @Test
    void entitiesPairsAndNamesSurviveReopen() {
        w = World.create(tmp.resolve("w"));
        long likes = w.entity("Likes");
        long bob = w.entity("bob");
        long alice = w.entity("alice");
        w.add(bob, w.pair(likes, alice));
        long kitchen = w.entity("house.kitchen");
        assertEquals("house.kitchen", w.path(kitchen));
        assertEquals(w.lookup("house"), w.parent(kitchen));
        assertEquals(List.of(), w.check());
        reopen();
        bob = w.resolve("bob");
        alice = w.resolve("alice");
        assertTrue(w.has(bob, w.pair(w.resolve("Likes"), alice)));
        assertTrue(w.has(bob, w.pair(w.resolve("Likes"), Ids.WILDCARD)));
        assertEquals(kitchen, w.resolve("house.kitchen"));
        assertEquals(kitchen, w.resolve("house::kitchen"));
        long[] sources = new long[1];
        w.forEachSource(w.resolve("Likes"), alice, s -> sources[0] = s);
        assertEquals(bob, sources[0]);
        assertArrayEquals(new long[] {alice}, w.targets(bob, w.resolve("Likes")));
    }

    @Test
    void exclusiveReplacesTarget() {
        w = World.create(tmp.resolve("w"));
        long color = w.entity("Color");
        w.add(color, Builtin.EXCLUSIVE);
        long red = w.entity("red"), blue = w.entity("blue"), car = w.entity("car");
        w.add(car, w.pair(color, red));
        w.add(car, w.pair(color, blue));
        assertArrayEquals(new long[] {blue}, w.targets(car, color));
        assertEquals(0, w.tableAccess().sourceCount(red));
    }

    @Test
    void componentsSetGetAndReopen() {
        w = World.create(tmp.resolve("w"));
        long pos = w.component(Position.class);
        long label = w.component("Label", Schema.of("text", FieldType.STRING, "n", FieldType.I32));
        long e = w.entity("e");
        w.set(e, pos, new Position(1.5, 2));
        w.set(e, label, Map.of("text", "hello", "n", 7));
        long f = w.entity("f");
        w.set(f, pos, new Object[] {3.0, 4.0});
        w.add(e, w.entity("Tag"));
        reopen();
        e = w.resolve("e");
        assertEquals(new Position(1.5, 2), w.get(e, Position.class));
        assertEquals(Map.of("text", "hello", "n", 7), w.get(e, w.resolve("Label")));
        assertEquals(new Position(3, 4), w.get(w.resolve("f"), Position.class));
        long ee = e;
        assertThrows(ValueException.class, () -> w.set(ee, w.resolve("Label"), Map.of("nope", 1)));
        assertThrows(ValueException.class, () -> w.set(ee, w.resolve("Label"), Map.of("n", "x")));
        assertThrows(ValueException.class, () -> w.set(ee, w.resolve("Tag"), Map.of("n", 1)));
        assertEquals(Map.of("text", "hello", "n", 7), w.get(e, w.resolve("Label")));
    }

    @Test
    void deleteCascadesChildrenAndRemovesReferences() {
        w = World.create(tmp.resolve("w"));
        long parent = w.entity("p");
        long c1 = w.entity("p.c1");
        long c2 = w.entity("p.c1.c2");
        long likes = w.entity("Likes");
        long fan = w.entity("fan");
        w.add(fan, w.pair(likes, c2));
        w.add(fan, w.pair(likes, fan));
        w.delete(parent);
        assertFalse(w.isAlive(parent));
        assertFalse(w.isAlive(c1));
        assertFalse(w.isAlive(c2));
        assertEquals(0, w.lookup("p.c1"));
        assertTrue(w.isAlive(fan));
        assertArrayEquals(new long[] {fan}, w.targets(fan, likes));
        assertEquals(List.of(), w.check());
        reopen();
        assertEquals(0, w.lookup("p"));
        long again = w.entity("p");
        assertNotEquals(parent, again);
    }

    @Test
    void deletingATagOrRelationshipStripsItFromHolders() {
        w = World.create(tmp.resolve("w"));
        long tag = w.entity("Marked"), likes = w.entity("Likes");
        long a = w.entity("a"), b = w.entity("b");
        w.add(a, tag);
        w.add(b, w.pair(likes, a));
        w.add(b, tag);
        w.delete(tag);
        w.delete(likes);
        assertEquals(0, w.type(a).length);
        assertEquals(0, w.type(b).length);
        assertTrue(w.tableAccess().tables(w.pair(Ids.WILDCARD, a)).isEmpty());
        assertEquals(List.of(), w.check());
    }

    @Test
    void onDeleteTargetDeleteAndPanic() {
        w = World.create(tmp.resolve("w"));
        long loc = w.entity("LocatedIn");
        w.add(loc, w.pair(Builtin.ON_DELETE_TARGET, Builtin.DELETE));
        long earth = w.entity("earth"), eu = w.entity("europe"), fr = w.entity("france");
        w.add(eu, w.pair(loc, earth));
        w.add(fr, w.pair(loc, eu));
        long owes = w.entity("Owes");
        w.add(owes, w.pair(Builtin.ON_DELETE_TARGET, Builtin.PANIC));
        long bank = w.entity("bank"), me = w.entity("me");
        w.add(me, w.pair(owes, bank));
        CleanupPanicException ex = assertThrows(CleanupPanicException.class, () -> w.delete(bank));
        assertTrue(ex.getMessage().contains("Panic"), ex.getMessage());
        assertTrue(w.isAlive(bank));
        assertTrue(w.has(me, w.pair(owes, bank)));
        w.delete(earth);
        assertFalse(w.isAlive(eu));
        assertFalse(w.isAlive(fr));
        // a panic deep in a cascade changes nothing
        long planet = w.entity("planet");
        long city = w.entity("city");
        w.add(city, w.pair(loc, planet));
        w.add(me, w.pair(owes, city));
        assertThrows(CleanupPanicException.class, () -> w.delete(planet));
        assertTrue(w.isAlive(city));
        assertTrue(w.isAlive(planet));
    }

    @Test
    void cyclesWithDeleteTerminate() {
        w = World.create(tmp.resolve("w"));
        long dep = w.entity("DependsOn");
        w.add(dep, w.pair(Builtin.ON_DELETE_TARGET, Builtin.DELETE));
        long a = w.entity("a"), b = w.entity("b"), c = w.entity("c"), d = w.entity("d");
        w.add(a, w.pair(dep, b));
        w.add(b, w.pair(dep, a));
        w.add(c, w.pair(dep, a));
        w.delete(a);
        assertFalse(w.isAlive(b));
        assertFalse(w.isAlive(c));
        assertTrue(w.isAlive(d));
    }

    @Test
    void childOfAndIsACyclesAreRefused() {
        w = World.create(tmp.resolve("w"));
        long a = w.entity("a"), b = w.entity("a.b");
        assertThrows(ConstraintException.class, () -> w.add(a, w.pair(Builtin.CHILD_OF, b)));
        long x = w.entity("x"), y = w.entity("y");
        w.add(y, w.pair(Builtin.IS_A, x));
        assertThrows(ConstraintException.class, () -> w.add(x, w.pair(Builtin.IS_A, y)));
        long f = w.entity("f");
        w.add(f, Builtin.FINAL);
        assertThrows(ConstraintException.class, () -> w.add(y, w.pair(Builtin.IS_A, f)));
        assertEquals("a.b", w.path(b));
    }

    @Test
    void failedTransactionChangesNothing() {
        w = World.create(tmp.resolve("w"));
        long a = w.entity("a");
        RuntimeException boom = new RuntimeException("boom");
        assertSame(boom, assertThrows(RuntimeException.class, () -> w.transaction(tx -> {
            tx.entity("b");
            tx.add(a, tx.entity("T"));
            throw boom;
        })));
        assertEquals(0, w.lookup("b"));
        assertEquals(0, w.lookup("T"));
        assertEquals(0, w.type(a).length);
        reopen();
        assertEquals(0, w.lookup("b"));
    }

    @Test
    void badInputs() {
        w = World.create(tmp.resolve("w"));
        assertThrows(UnknownNameException.class, () -> w.resolve("nope"));
        assertThrows(UnknownNameException.class, () -> w.id("(Likes, bob)"));
        assertThrows(IdException.class, () -> w.entity("bad name"));
        assertThrows(IdException.class, () -> w.ensureId("(a, b"));
        assertThrows(IdException.class, () -> w.add(w.entity("e"), w.pair(w.entity("R"), Ids.WILDCARD)));
        long dead = w.entity("dead");
        w.delete(dead);
        assertThrows(DeadEntityException.class, () -> w.add(dead, w.entity("T")));
        assertThrows(ConstraintException.class, () -> w.delete(Builtin.CHILD_OF));
        assertThrows(WorldExistsException.class, () -> World.create(tmp.resolve("w")));
        assertThrows(NoWorldException.class, () -> World.open(tmp.resolve("nothing")));
    }

    @Test
    void aNewWorldIsSmallOnDisk() {
        w = World.create(tmp.resolve("w"));
        w.entity("a");
        // Chronicle preallocates each map: the initial sizes keep an empty world near 8 MB
        long bytes = w.stats().bytesOnDisk();
        assertTrue(bytes < 16L << 20, "an empty world takes " + bytes + " bytes");
    }

    @Test
    void aWorldOfAnotherFormatIsRefusedByName() throws Exception {
        Path dir = tmp.resolve("old");
        try (World x = World.create(dir)) {
            x.entity("a");
        }
        Files.writeString(dir.resolve("FORMAT"), "quiver world format 1\n");
        WorldFormatException e = assertThrows(WorldFormatException.class, () -> World.open(dir));
        assertTrue(e.getMessage().contains("format 1") && e.getMessage().contains("format 5"), e.getMessage());
        assertEquals("quiver world format 1\n", Files.readString(dir.resolve("FORMAT")));
    }

    @Test
    void secondWriterIsRefusedAndReadOnlyCannotWrite() throws Exception {
        w = World.create(tmp.resolve("w"));
        WorldLockedException ex = assertThrows(WorldLockedException.class, () -> World.open(tmp.resolve("w")));
        assertTrue(ex.getMessage().contains(Long.toString(ProcessHandle.current().pid())), ex.getMessage());
        w.close();
        w = null;
        try (World r = World.openReadOnly(tmp.resolve("w"))) {
            assertThrows(ReadOnlyException.class, () -> r.entity("x"));
            assertEquals(List.of(), r.check());
        }
    }

    @Test
    void snapshotPagesRoundTrip() {
        w = World.create(tmp.resolve("w"));
        long pos = w.component(Position.class);
        for (int i = 0; i < 3000; i++) {
            long e = w.entity("n" + i);
            w.set(e, pos, new Position(i, -i));
            if (i > 0) {
                w.add(e, w.pair(w.entity("LocatedIn"), w.resolve("n" + (i - 1) / 10)));
            }
        }
        var pages = new java.util.ArrayList<WorldPages.Page>();
        WorldPages.forEach(w, (m, k, b) -> pages.add(new WorldPages.Page(m, k, b)));
        try (World r = WorldPages.restore(tmp.resolve("r"), pages)) {
            assertEquals(w.entityCount(), r.entityCount());
            assertEquals(new Position(2999, -2999), r.get(r.resolve("n2999"), Position.class));
            assertEquals(List.of(), r.check());
        }
    }

    @Test
    void aCleanCloseLeavesAnEmptyWriteAheadLog() throws Exception {
        w = World.create(tmp.resolve("w"));
        w.entity("kept");
        w.close();
        w = null;
        try (var s = Files.list(tmp.resolve("w"))) {
            assertTrue(s.filter(f -> f.getFileName().toString().startsWith("wal-")).allMatch(f -> f.toFile().length() == 0));
        }
        w = World.open(tmp.resolve("w"));
        assertNotEquals(0, w.lookup("kept"));
    }

    /** Flecs v4 delete_with / remove_all: every holder of an id (wildcards allowed), one transaction. */
    @Test
    void deleteWithAndRemoveAllReachEveryHolderAtOnce() throws Exception {
        w = World.create(tmp.resolve("w"));
        long eats = w.entity("Eats"), meat = w.entity("meat"), grass = w.entity("grass");
        long dog = w.entity("dog"), cow = w.entity("cow"), cat = w.entity("cat"), pet = w.entity("Pet");
        w.add(dog, w.pair(eats, meat));
        w.add(dog, pet);
        w.add(cat, w.pair(eats, meat));
        w.add(cat, pet);
        w.add(cow, w.pair(eats, grass));
        long kennel = w.entity("dog.kennel"); // deleted with its parent (ChildOf cleanup)
        w.removeAll(pet);
        assertFalse(w.has(dog, pet) || w.has(cat, pet));
        assertTrue(w.isAlive(pet), "the id itself stays");
        int before = w.entityCount();
        w.deleteWith(w.pair(eats, meat));
        assertFalse(w.isAlive(dog) || w.isAlive(cat) || w.isAlive(kennel));
        assertTrue(w.isAlive(cow));
        assertEquals(before - 3, w.entityCount());
        w.removeAll(w.pair(eats, Ids.WILDCARD));
        assertFalse(w.has(cow, w.pair(eats, grass)));
        // a builtin holding the id: refused, nothing changed
        long[] childOf = w.type(Builtin.CHILD_OF);
        assertThrows(ConstraintException.class, () -> w.removeAll(Builtin.EXCLUSIVE));
        assertThrows(ConstraintException.class, () -> w.deleteWith(Builtin.TRAVERSABLE));
        assertArrayEquals(childOf, w.type(Builtin.CHILD_OF));
        assertEquals(List.of(), w.check());
    }

    /** Rename and reparent: paths and the name index follow; a clash, a bad name or a builtin changes nothing. */
    @Test
    void renameAndReparentKeepPathsAndNamesInStep() throws Exception {
        w = World.create(tmp.resolve("w"));
        long kitchen = w.entity("house.kitchen");
        long lamp = w.entity("house.kitchen.lamp");
        long garage = w.entity("house.garage");
        w.rename(kitchen, "cuisine");
        assertEquals("house.cuisine.lamp", w.path(lamp));
        assertEquals(lamp, w.lookup("house.cuisine.lamp"));
        assertEquals(0, w.lookup("house.kitchen"));
        w.add(lamp, w.pair(Builtin.CHILD_OF, garage)); // reparent: ChildOf is Exclusive
        assertEquals("house.garage.lamp", w.path(lamp));
        assertEquals(0, w.lookup("house.cuisine.lamp"));
        assertThrows(ConstraintException.class, () -> w.rename(garage, "cuisine"));
        assertThrows(IdException.class, () -> w.rename(garage, "bad name"));
        assertThrows(IdException.class, () -> w.rename(garage, "123"));
        assertThrows(ConstraintException.class, () -> w.rename(Builtin.CHILD_OF, "Parent"));
        assertEquals("house.garage", w.path(garage));
        assertEquals(List.of(), w.check());
        w.close();
        w = World.open(tmp.resolve("w"));
        assertEquals(lamp, w.lookup("house.garage.lamp"));
        assertEquals(kitchen, w.lookup("house.cuisine"));
        assertEquals(List.of(), w.check());
    }
}
