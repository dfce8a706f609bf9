package dev.quiver.storage;

import dev.quiver.error.BadInputException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * IsA inheritance and prefabs through the public API (Flecs v4; FEATURES ISA, TRT-12/13/14, ENT-10,
 * acceptance examples A-12 to A-17): OnInstantiate policies, nearest owner first, own copies,
 * Final and cycles refused (the world unchanged), prefab children, and all of it after reopening.
 */
class InheritanceTest {
    @TempDir
    Path tmp;
    World w;

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

    /** Every persistent page of the committed world, as text: equal lists mean equal worlds. */
    static List<String> state(World w) {
        var out = new ArrayList<String>();
        WorldPages.forEach(w, (map, key, blob) -> out.add(map + ":" + key + ":" + Base64.getEncoder().encodeToString(blob)));
        out.sort(null);
        return out;
    }

    private long value(long e, long comp) {
        Map<String, Object> v = w.get(e, comp);
        return v == null ? -1 : ((Number) v.get("value")).longValue();
    }

    private long valueComponent(String name, OnInstantiate policy) {
        long c = w.component(name, Schema.of("value", FieldType.I64));
        if (policy == OnInstantiate.INHERIT) {
            w.add(c, w.pair(Builtin.ON_INSTANTIATE, Builtin.INHERIT));
        } else if (policy == OnInstantiate.DONT_INHERIT) {
            w.add(c, w.pair(Builtin.ON_INSTANTIATE, Builtin.DONT_INHERIT));
        }
        return c;
    }

    /** A-14: Inherit values, nearest owner wins, base changes reach instances that do not own the id. */
    @Test
    void inheritNearestOwnerWins() {
        w = World.create(tmp.resolve("w"));
        long maxSpeed = valueComponent("MaxSpeed", OnInstantiate.INHERIT);
        long defense = valueComponent("Defense", OnInstantiate.INHERIT);
        long ship = w.entity("SpaceShip");
        w.set(ship, maxSpeed, Map.of("value", 100));
        w.set(ship, defense, Map.of("value", 50));
        long frigate = w.entity("Frigate");
        w.add(frigate, w.pair(Builtin.IS_A, ship));
        w.set(frigate, defense, Map.of("value", 75));
        long fast = w.entity("FastFrigate");
        w.add(fast, w.pair(Builtin.IS_A, frigate));
        w.set(fast, maxSpeed, Map.of("value", 200));

        assertEquals(100, value(frigate, maxSpeed));
        assertEquals(ship, w.owner(frigate, maxSpeed));
        assertEquals(75, value(frigate, defense));
        assertEquals(frigate, w.owner(frigate, defense));
        assertEquals(200, value(fast, maxSpeed));
        assertEquals(75, value(fast, defense));
        assertEquals(frigate, w.owner(fast, defense));
        assertTrue(w.has(frigate, maxSpeed));
        assertFalse(w.owns(frigate, maxSpeed));
        assertArrayEquals(new long[] {maxSpeed}, w.inheritedIds(frigate));

        w.set(ship, maxSpeed, Map.of("value", 120));
        assertEquals(120, value(frigate, maxSpeed));
        assertEquals(200, value(fast, maxSpeed));
        assertEquals(50, value(ship, defense), "writing an instance never changes its base");

        reopen();
        assertEquals(120, value(w.resolve("Frigate"), w.resolve("MaxSpeed")));
        assertEquals(75, value(w.resolve("FastFrigate"), w.resolve("Defense")));
        assertEquals(w.resolve("Frigate"), w.owner(w.resolve("FastFrigate"), w.resolve("Defense")));
    }

    /**
     * An inherited get (whose base it resolved is cached per table and id) follows every change of
     * the chain: a nearer base setting its own value, a refused transaction undoing a removal it
     * made, a policy change, a base deleted.
     */
    @Test
    void inheritedGetsFollowEveryChangeOfTheChain() {
        w = World.create(tmp.resolve("w"));
        long c = valueComponent("C", OnInstantiate.INHERIT);
        long b0 = w.entity("B0"), b1 = w.entity("B1"), b2 = w.entity("B2"), leaf = w.entity("leaf");
        w.set(b0, c, Map.of("value", 1));
        w.add(b1, w.pair(Builtin.IS_A, b0));
        w.add(b2, w.pair(Builtin.IS_A, b1));
        w.add(leaf, w.pair(Builtin.IS_A, b2));
        assertEquals(1, value(leaf, c));
        assertEquals(1, value(leaf, c)); // the cached resolution
        w.set(b1, c, Map.of("value", 2));
        assertEquals(2, value(leaf, c));
        assertEquals(2.0, w.getDouble(leaf, c, 0));
        assertThrows(BadInputException.class, () -> w.transaction(t -> {
            t.remove(b1, c);
            assertEquals(1, ((Number) t.get(leaf, c).get("value")).longValue()); // resolved (and cached) inside
            throw new BadInputException("refused on purpose");
        }));
        assertEquals(2, value(leaf, c), "the refused removal is undone, and so is what was resolved during it");
        assertEquals(b1, w.owner(leaf, c));
        w.set(b2, c, Map.of("value", 3));
        assertEquals(3, value(leaf, c));
        w.remove(b2, c);
        assertEquals(2, value(leaf, c));
        w.remove(c, w.pair(Builtin.ON_INSTANTIATE, Builtin.INHERIT));
        assertEquals(-1, value(leaf, c), "an Override id is not shared");
        w.add(c, w.pair(Builtin.ON_INSTANTIATE, Builtin.INHERIT));
        assertEquals(2, value(leaf, c));
        w.delete(b1);
        assertEquals(-1, value(leaf, c), "the chain is cut at the deleted base");
        w.add(b2, w.pair(Builtin.IS_A, b0));
        assertEquals(1, value(leaf, c));
        assertEquals(List.of(), w.check());
    }

    /** The allocation-free typed getters read what get reads: owned, inherited through a diamond, or refused. */
    @Test
    void typedGettersReadOwnedAndInheritedFields() {
        w = World.create(tmp.resolve("w"));
        long pos = w.component("Pos", Schema.of("x", FieldType.F64, "y", FieldType.F32, "n", FieldType.I32, "name", FieldType.STRING));
        w.add(pos, w.pair(Builtin.ON_INSTANTIATE, Builtin.INHERIT));
        long root = w.entity("root");
        w.set(root, pos, Map.of("x", 1.5, "y", 2.5f, "n", 7, "name", "r"));
        long left = w.entity("left"), right = w.entity("right"), leaf = w.entity("leaf");
        w.add(left, w.pair(Builtin.IS_A, root));
        w.add(right, w.pair(Builtin.IS_A, root));
        w.add(leaf, w.pair(Builtin.IS_A, left));
        w.add(leaf, w.pair(Builtin.IS_A, right)); // a diamond
        assertEquals(1.5, w.getDouble(leaf, pos, 0));
        assertEquals(2.5, w.getDouble(leaf, pos, 1));
        assertEquals(7.0, w.getDouble(leaf, pos, 2));
        assertEquals(7, w.getLong(leaf, pos, 2));
        w.set(right, pos, Map.of("x", 9.0, "y", 0f, "n", 1, "name", "R"));
        assertEquals(1.5, w.getDouble(leaf, pos, 0), "depth first: the first base's chain reaches the root before the second base");
        w.set(left, pos, Map.of("x", 3.0, "y", 0f, "n", 1, "name", "L"));
        assertEquals(3.0, w.getDouble(leaf, pos, 0));
        assertEquals(w.get(leaf, pos).get("x"), w.getDouble(leaf, pos, 0));
        assertThrows(ValueException.class, () -> w.getDouble(leaf, pos, 3), "a string field is no number");
        assertThrows(ValueException.class, () -> w.getLong(leaf, pos, 0), "an f64 field is not integral");
        assertThrows(ValueException.class, () -> w.getDouble(leaf, pos, 4), "no such field");
        long other = w.entity("other");
        assertThrows(ValueException.class, () -> w.getDouble(other, pos, 0), "no value at all");
    }

    /** A wide diamond-rich hierarchy (more bases than the walk without a visited set allows) still finds the owner. */
    @Test
    void ownerThroughManyDiamonds() {
        w = World.create(tmp.resolve("w"));
        long c = valueComponent("C", OnInstantiate.INHERIT);
        long top = w.entity("top");
        w.set(top, c, Map.of("value", 5));
        List<Long> level = List.of(top);
        for (int depth = 0; depth < 6; depth++) { // every entity of a level is a base of every entity of the next
            var next = new ArrayList<Long>();
            for (int k = 0; k < 4; k++) {
                long e = w.entity("d" + depth + "_" + k);
                for (long b : level) {
                    w.add(e, w.pair(Builtin.IS_A, b));
                }
                next.add(e);
            }
            level = next;
        }
        long bottom = level.get(0);
        assertEquals(top, w.owner(bottom, c));
        assertEquals(5, w.getLong(bottom, c, 0));
    }

    /** A-14 with the default Override policy: the instance got a copy at instantiation. */
    @Test
    void overrideCopiesAtInstantiation() {
        w = World.create(tmp.resolve("w"));
        long maxSpeed = valueComponent("MaxSpeed", OnInstantiate.OVERRIDE);
        long boss = w.entity("Boss");
        long ship = w.entity("SpaceShip");
        w.set(ship, maxSpeed, Map.of("value", 100));
        w.add(ship, boss);
        long frigate = w.entity("Frigate");
        w.add(frigate, w.pair(Builtin.IS_A, ship));
        assertTrue(w.owns(frigate, maxSpeed));
        assertTrue(w.owns(frigate, boss), "Override tags are copied too");
        w.set(ship, maxSpeed, Map.of("value", 120));
        assertEquals(100, value(frigate, maxSpeed));
        // a component the base gets after instantiation does not reach the instance (Flecs v4)
        long later = valueComponent("Later", OnInstantiate.OVERRIDE);
        w.set(ship, later, Map.of("value", 1));
        assertFalse(w.has(frigate, later));
        assertNull(w.get(frigate, later));
        // an own value is kept when (IsA, base) arrives
        long own = w.entity("own");
        w.set(own, maxSpeed, Map.of("value", 7));
        w.add(own, w.pair(Builtin.IS_A, ship));
        assertEquals(7, value(own, maxSpeed));
        assertEquals(OnInstantiate.OVERRIDE, w.onInstantiate(maxSpeed));
        reopen();
        assertEquals(100, value(w.resolve("Frigate"), w.resolve("MaxSpeed")));
    }

    /** Two levels of Override: the nearest owner's value is copied (06_isa_components: ancient : ElderDragon : Monster). */
    @Test
    void overrideTakesNearestValueThroughLevels() {
        w = World.create(tmp.resolve("w"));
        long health = valueComponent("Health", OnInstantiate.OVERRIDE);
        long monster = w.entity("Monster");
        w.set(monster, health, Map.of("value", 100));
        long elder = w.entity("ElderDragon");
        w.add(elder, w.pair(Builtin.IS_A, monster));
        w.set(elder, health, Map.of("value", 1000));
        long ancient = w.entity("ancient");
        w.add(ancient, w.pair(Builtin.IS_A, elder));
        assertEquals(1000, value(ancient, health));
        assertEquals(100, value(monster, health));
    }

    /** A-16: DontInherit (the pair and the old tag alias) never reaches instances. */
    @Test
    void dontInheritIsNeitherCopiedNorShared() {
        w = World.create(tmp.resolve("w"));
        long tagA = w.entity("TagA");
        long tagB = w.entity("TagB");
        w.add(tagB, w.pair(Builtin.ON_INSTANTIATE, Builtin.DONT_INHERIT));
        long tagC = w.entity("TagC");
        w.add(tagC, Builtin.DONT_INHERIT);
        long armor = valueComponent("Armor", OnInstantiate.DONT_INHERIT);
        long base = w.entity("base");
        w.add(base, tagA, tagB, tagC);
        w.set(base, armor, Map.of("value", 3));
        long inst = w.entity("inst");
        w.add(inst, w.pair(Builtin.IS_A, base));
        assertTrue(w.has(inst, tagA));
        assertFalse(w.has(inst, tagB));
        assertFalse(w.has(inst, tagC));
        assertFalse(w.has(inst, armor));
        assertNull(w.get(inst, armor));
        assertEquals(0, w.owner(inst, armor));
        assertEquals(OnInstantiate.DONT_INHERIT, w.onInstantiate(tagC));
    }

    /** ISA-15: writing an inherited component makes an own copy (a partial map starts from the base's value). */
    @Test
    void writingAnInheritedComponentMakesAnOwnCopy() {
        w = World.create(tmp.resolve("w"));
        long pos = w.component("Pos", Schema.of("x", FieldType.I64, "y", FieldType.I64));
        w.add(pos, w.pair(Builtin.ON_INSTANTIATE, Builtin.INHERIT));
        long base = w.entity("base");
        w.set(base, pos, Map.of("x", 1, "y", 2));
        long a = w.entity("a");
        long b = w.entity("b");
        w.add(a, w.pair(Builtin.IS_A, base));
        w.add(b, w.pair(Builtin.IS_A, base));
        w.set(a, pos, Map.of("y", 20));
        assertEquals(Map.of("x", 1L, "y", 20L), w.get(a, pos));
        assertEquals(Map.of("x", 1L, "y", 2L), w.get(base, pos));
        assertTrue(w.owns(a, pos));
        long c = w.entity("c");
        w.add(c, w.pair(Builtin.IS_A, base));
        w.add(c, pos, w.entity("Tagged")); // the bulk add copies too
        assertEquals(Map.of("x", 1L, "y", 2L), w.get(c, pos));
        assertTrue(w.owns(c, pos));
        w.add(b, pos); // adding an inherited component copies the base's value
        assertTrue(w.owns(b, pos));
        w.set(base, pos, Map.of("x", 9));
        assertEquals(Map.of("x", 1L, "y", 2L), w.get(b, pos));
    }

    /** ISA-06: several bases, depth first in type order (the first base's whole chain before the next base). */
    @Test
    void severalBasesDepthFirst() {
        w = World.create(tmp.resolve("w"));
        long speed = valueComponent("Speed", OnInstantiate.INHERIT);
        long b1 = w.entity("b1");
        long b2 = w.entity("b2");
        long root = w.entity("root");
        w.set(root, speed, Map.of("value", 1));
        w.add(b1, w.pair(Builtin.IS_A, root));
        w.set(b2, speed, Map.of("value", 2));
        long e = w.entity("e");
        w.add(e, w.pair(Builtin.IS_A, b2));
        w.add(e, w.pair(Builtin.IS_A, b1));
        assertEquals(1, value(e, speed), "b1 (lower id) and its chain come before b2");
        assertEquals(root, w.owner(e, speed));
        assertTrue(w.has(e, w.pair(Builtin.IS_A, b1)));
    }

    /** A-12/A-13, ISA-09: IsA to a Final entity is refused with FinalException; nothing changes. */
    @Test
    void finalRefusesIsA() {
        w = World.create(tmp.resolve("w"));
        long unit = w.entity("Unit");
        w.add(unit, Builtin.FINAL);
        long melee = w.entity("MeleeUnit");
        var before = state(w);
        var ex = assertThrows(FinalException.class, () -> w.add(melee, w.pair(Builtin.IS_A, unit)));
        assertTrue(ex.getMessage().contains("Unit is Final"), ex.getMessage());
        assertEquals(before, state(w));
        assertFalse(w.has(melee, w.pair(Builtin.IS_A, unit)));
        // Final cannot be added to an entity that is already a base
        long base = w.entity("base");
        w.add(w.entity("inst"), w.pair(Builtin.IS_A, base));
        assertThrows(ConstraintException.class, () -> w.add(base, Builtin.FINAL));
    }

    /** TRT-04: a cycle in IsA (or ChildOf) is refused with CycleException naming the cycle; nothing changes. */
    @Test
    void isACycleRefusedNamingTheCycle() {
        w = World.create(tmp.resolve("w"));
        long a = w.entity("a"), b = w.entity("b"), c = w.entity("c");
        w.add(a, w.pair(Builtin.IS_A, b));
        w.add(b, w.pair(Builtin.IS_A, c));
        var before = state(w);
        var ex = assertThrows(CycleException.class, () -> w.add(c, w.pair(Builtin.IS_A, a)));
        assertTrue(ex.getMessage().contains("c -> a -> b -> c"), ex.getMessage());
        assertEquals(before, state(w));
        var self = assertThrows(CycleException.class, () -> w.add(a, w.pair(Builtin.IS_A, a)));
        assertTrue(self.getMessage().contains("a -> a"), self.getMessage());
        var child = assertThrows(CycleException.class, () -> w.add(c, w.pair(Builtin.CHILD_OF, c)));
        assertTrue(child.getMessage().contains("c -> c"), child.getMessage());
        assertEquals(before, state(w));
    }

    /** ENT-10, ISA-13: a prefab's children are instantiated under the instance with their names, recursively. */
    @Test
    void prefabChildrenInstantiatedRecursively() {
        w = World.create(tmp.resolve("w"));
        long health = valueComponent("Health", OnInstantiate.OVERRIDE);
        long mass = valueComponent("Mass", OnInstantiate.INHERIT);
        long ship = w.entity("Ship");
        w.add(ship, Builtin.PREFAB);
        w.set(ship, health, Map.of("value", 10));
        w.set(ship, mass, Map.of("value", 500));
        long turret = w.entity("Ship.turret");
        w.set(turret, health, Map.of("value", 3));
        long barrel = w.entity("Ship.turret.barrel");
        w.set(barrel, mass, Map.of("value", 7));
        long anon = w.entity();
        w.add(anon, w.pair(Builtin.CHILD_OF, ship));

        long inst = w.entity("inst");
        w.add(inst, w.pair(Builtin.IS_A, ship));
        assertFalse(w.has(inst, Builtin.PREFAB), "Prefab is DontInherit");
        assertEquals(10, value(inst, health));
        assertTrue(w.owns(inst, health));
        assertEquals(500, value(inst, mass));
        assertFalse(w.owns(inst, mass));
        long iTurret = w.resolve("inst.turret");
        assertTrue(w.owns(iTurret, w.pair(Builtin.IS_A, turret)));
        assertEquals(3, value(iTurret, health));
        long iBarrel = w.resolve("inst.turret.barrel");
        assertEquals(7, value(iBarrel, mass));
        assertEquals(w.resolve("inst.turret"), w.parent(iBarrel));
        int anonChildren = 0;
        for (long t : w.tableAccess().allTables().stream().flatMap(t -> java.util.Arrays.stream(t.entities()).boxed()).mapToLong(x -> x).toArray()) {
            if (w.isAlive(t) && w.parent(t) == inst && w.name(t) == null) {
                anonChildren++;
                assertTrue(w.owns(t, w.pair(Builtin.IS_A, anon)));
            }
        }
        assertEquals(1, anonChildren);

        reopen();
        assertEquals(7, value(w.resolve("inst.turret.barrel"), w.resolve("Mass")));
        assertEquals(500, value(w.resolve("inst"), w.resolve("Mass")));
    }

    /** A plain (non-prefab) base shares and copies ids but its children are not instantiated (Flecs v4). */
    @Test
    void plainBaseChildrenAreNotInstantiated() {
        w = World.create(tmp.resolve("w"));
        w.entity("base.child");
        long inst = w.entity("inst");
        w.add(inst, w.pair(Builtin.IS_A, w.resolve("base")));
        assertEquals(0, w.lookup("inst.child"));
    }

    /** A prefab whose subtree instantiates the prefab itself is refused instead of recursing forever. */
    @Test
    void selfInstantiatingPrefabRefused() {
        w = World.create(tmp.resolve("w"));
        long p = w.entity("P");
        w.add(p, Builtin.PREFAB);
        long d = w.entity("P.c.d");
        var before = state(w);
        var ex = assertThrows(ConstraintException.class, () -> w.add(d, w.pair(Builtin.IS_A, p)));
        assertTrue(ex.getMessage().startsWith("cannot instantiate P in P.c.d: "), ex.getMessage());
        assertEquals(before, state(w));
    }

    /** An Exclusive pair on the base is not copied onto an instance that already has one of that relationship. */
    @Test
    void exclusivePairKeepsInstancesOwn() {
        w = World.create(tmp.resolve("w"));
        long color = w.entity("Color");
        w.add(color, Builtin.EXCLUSIVE);
        long red = w.entity("red"), blue = w.entity("blue");
        long base = w.entity("base");
        w.add(base, w.pair(color, blue));
        long inst = w.entity("inst");
        w.add(inst, w.pair(color, red));
        w.add(inst, w.pair(Builtin.IS_A, base));
        assertArrayEquals(new long[] {red}, w.targets(inst, color));
        long other = w.entity("other");
        w.add(other, w.pair(Builtin.IS_A, base));
        assertArrayEquals(new long[] {blue}, w.targets(other, color));
    }
}
