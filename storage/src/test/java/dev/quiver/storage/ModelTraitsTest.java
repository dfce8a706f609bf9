package dev.quiver.storage;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rest of the Flecs v4 data model (issue 9): Symmetric together with Exclusive, CanToggle and
 * enable/disable, cycle warnings for user relationships, Transient relationships left out of
 * snapshot pages, and one exception type per refusal. Every refusal changes nothing.
 */
class ModelTraitsTest {
    @TempDir
    Path tmp;
    private World w;

    @AfterEach
    void close() {
        if (w != null) {
            assertEquals(List.of(), w.check());
            w.close();
        }
    }

    record Position(double x, double y) {}

    /** The ids of an entity as text, for comparisons that print well. */
    private List<String> ids(long e) {
        var out = new ArrayList<String>();
        for (long id : w.type(e)) {
            out.add(w.idToString(id));
        }
        return out;
    }

    @Test
    void symmetricExclusiveReplacesBothSidesAtomically() {
        w = World.create(tmp.resolve("w"));
        long married = w.entity("MarriedTo");
        w.add(married, Builtin.SYMMETRIC);
        w.add(married, Builtin.EXCLUSIVE);
        long a = w.entity("a"), b = w.entity("b"), c = w.entity("c"), d = w.entity("d");
        w.add(a, w.pair(married, c));
        w.add(b, w.pair(married, d));
        assertEquals(List.of("(MarriedTo,a)"), ids(c), "the mirror");
        assertEquals(List.of("(MarriedTo,b)"), ids(d));
        // a takes b: a's old target c and b's old target d both lose their mirror, in one transaction
        w.add(a, w.pair(married, b));
        assertEquals(List.of("(MarriedTo,b)"), ids(a));
        assertEquals(List.of("(MarriedTo,a)"), ids(b));
        assertEquals(List.of(), ids(c));
        assertEquals(List.of(), ids(d));
        assertEquals(List.of(), w.check());
        // a refused transaction around the same change leaves both couples as they were
        w.add(c, w.pair(married, d));
        assertThrows(IllegalStateException.class, () -> w.transaction(x -> {
            x.add(c, x.pair(married, a));
            assertEquals(List.of("(MarriedTo,c)"), ids(a));
            assertEquals(List.of(), ids(b));
            assertEquals(List.of(), ids(d));
            throw new IllegalStateException("abort");
        }));
        assertEquals(List.of("(MarriedTo,b)"), ids(a));
        assertEquals(List.of("(MarriedTo,a)"), ids(b));
        assertEquals(List.of("(MarriedTo,d)"), ids(c));
        assertEquals(List.of("(MarriedTo,c)"), ids(d));
        // a self pair has no mirror and is replaced like any other
        w.add(a, w.pair(married, a));
        assertEquals(List.of("(MarriedTo,a)"), ids(a));
        assertEquals(List.of(), ids(b));
        w.close();
        w = World.open(tmp.resolve("w"));
        assertEquals(List.of("(MarriedTo,a)"), ids(w.resolve("a")));
    }

    @Test
    void toggledComponentsKeepTheirValueAndLeaveTheirTables() {
        Path dir = tmp.resolve("w");
        w = World.create(dir);
        long pos = w.component(Position.class);
        w.add(pos, Builtin.CAN_TOGGLE);
        long ship = w.entity("ship");
        w.set(ship, pos, new Position(1, 2));
        w.toggling().disable(ship, pos);
        assertTrue(w.toggling().isDisabled(ship, pos));
        assertFalse(w.has(ship, pos));
        assertNull(w.get(ship, pos));
        assertTrue(w.owns(ship, w.pair(Builtin.DISABLED, pos)));
        assertTrue(w.tableAccess().tables(pos).stream().noneMatch(t -> t.count() > 0), "no table with Position holds the ship");
        w.toggling().disable(ship, pos); // already disabled: nothing changes
        w.close();
        w = World.open(dir);
        ship = w.resolve("ship");
        pos = w.resolve("Position");
        assertTrue(w.toggling().isDisabled(ship, pos));
        w.toggling().enable(ship, pos);
        assertFalse(w.toggling().isDisabled(ship, pos));
        assertEquals(new Position(1, 2), w.get(ship, Position.class));
        w.toggling().enable(ship, pos); // already enabled
        assertEquals(List.of("Position"), ids(ship));
        // removing a disabled component removes its disabled form too
        w.toggling().disable(ship, pos);
        w.remove(ship, pos);
        assertEquals(List.of(), ids(ship));
        // a tag toggles too
        long glowing = w.entity("Glowing");
        w.add(glowing, Builtin.CAN_TOGGLE);
        w.add(ship, glowing);
        w.toggling().disable(ship, glowing);
        assertEquals(List.of("(Disabled,Glowing)"), ids(ship));
        // the Disabled tag on an entity is another thing: the table is marked disabled
        long off = w.entity("off");
        w.add(off, Builtin.DISABLED);
        assertTrue(w.tableAccess().table(off).isDisabled());
        assertFalse(w.tableAccess().table(ship).isDisabled());
    }

    @Test
    void refusedTogglesChangeNothing() {
        w = World.create(tmp.resolve("w"));
        long pos = w.component(Position.class);
        long mass = w.component("Mass", Schema.of("kg", FieldType.F64));
        w.add(pos, Builtin.CAN_TOGGLE);
        long ship = w.entity("ship");
        long rel = w.entity("R");
        w.set(ship, pos, new Position(1, 2));
        w.set(ship, mass, new Object[] {3.0});
        w.add(ship, w.pair(rel, pos));
        long bare = w.entity("bare");
        long[] before = w.type(ship);
        var noTrait = assertThrows(ToggleException.class, () -> w.toggling().disable(ship, mass));
        assertTrue(noTrait.getMessage().contains("CanToggle"), noTrait.getMessage());
        assertThrows(ToggleException.class, () -> w.toggling().disable(ship, w.pair(rel, pos)));
        assertThrows(ToggleException.class, () -> w.toggling().disable(bare, pos));
        assertThrows(ToggleException.class, () -> w.toggling().enable(bare, pos));
        assertThrows(ToggleException.class, () -> w.add(bare, w.pair(Builtin.DISABLED, mass)), "no CanToggle");
        assertThrows(ToggleException.class, () -> w.add(ship, w.pair(Builtin.DISABLED, pos)), "held enabled");
        assertThrows(BuiltinException.class, () -> w.toggling().disable(Builtin.IS_A, pos));
        assertArrayEquals(before, w.type(ship));
        w.toggling().disable(ship, pos);
        long[] disabled = w.type(ship);
        assertThrows(ToggleException.class, () -> w.add(ship, pos));
        assertThrows(ToggleException.class, () -> w.set(ship, pos, new Position(5, 6)));
        assertThrows(ToggleException.class, () -> w.add(ship, new long[] {pos}));
        assertThrows(StructuralTraitException.class, () -> w.remove(pos, Builtin.CAN_TOGGLE));
        assertArrayEquals(disabled, w.type(ship));
        assertTrue(w.has(pos, Builtin.CAN_TOGGLE));
        w.toggling().enable(ship, pos);
        assertEquals(new Position(1, 2), w.get(ship, Position.class));
        // added disabled by hand, with a zero value, for an id with CanToggle
        w.add(bare, w.pair(Builtin.DISABLED, pos));
        w.toggling().enable(bare, pos);
        assertEquals(new Position(0, 0), w.get(bare, Position.class));
        w.remove(pos, Builtin.CAN_TOGGLE); // allowed once nothing is disabled
    }

    /** A disabled C still holds C for cleanup: C's OnDelete applies to it (Panic for a data component). */
    @Test
    void deletingAToggledIdFollowsItsOnDeletePolicy() {
        w = World.create(tmp.resolve("w"));
        long pos = w.component(Position.class);
        w.add(pos, Builtin.CAN_TOGGLE);
        long ship = w.entity("ship");
        w.set(ship, pos, new Position(1, 2));
        w.toggling().disable(ship, pos);
        var e = assertThrows(CleanupPanicException.class, () -> w.delete(pos));
        assertTrue(e.getMessage().contains("holds it disabled"), e.getMessage());
        assertTrue(w.toggling().isDisabled(ship, pos));
        long doomedWith = w.entity("Doomed");
        w.add(doomedWith, Builtin.CAN_TOGGLE);
        w.add(doomedWith, w.pair(Builtin.ON_DELETE, Builtin.DELETE));
        long boat = w.entity("boat");
        w.add(boat, doomedWith);
        w.toggling().disable(boat, doomedWith);
        w.delete(doomedWith);
        assertFalse(w.isAlive(boat), "(OnDelete, Delete) reaches a disabled holder");
        long plain = w.entity("Plain");
        w.add(plain, Builtin.CAN_TOGGLE);
        w.add(ship, plain);
        w.toggling().disable(ship, plain);
        w.delete(plain);
        assertEquals(List.of("(Disabled,Position)"), ids(ship), "Remove strips the disabled form");
    }

    @Test
    void cyclesInUserRelationshipsAreWarningsNamingTheCycle() {
        w = World.create(tmp.resolve("w"));
        long dependsOn = w.entity("DependsOn");
        long a = w.entity("a"), b = w.entity("b"), c = w.entity("c"), x = w.entity("x");
        w.add(a, w.pair(dependsOn, b));
        w.add(b, w.pair(dependsOn, c));
        w.add(x, w.pair(dependsOn, a));
        assertEquals(List.of(), w.warnings());
        w.add(c, w.pair(dependsOn, a));
        long likes = w.entity("Likes");
        w.add(x, w.pair(likes, x));
        long friend = w.entity("FriendOf");
        w.add(friend, Builtin.SYMMETRIC);
        w.add(a, w.pair(friend, b)); // its mirror is no cycle worth a warning
        assertEquals(List.of("cycle in DependsOn: a -> b -> c -> a", "cycle in Likes: x -> x"), w.warnings());
        assertEquals(List.of(), w.check(), "a cycle is a warning, not a violation");
        // ChildOf and IsA refuse theirs
        w.add(b, w.pair(Builtin.CHILD_OF, a));
        var cyc = assertThrows(CycleException.class, () -> w.add(a, w.pair(Builtin.CHILD_OF, b)));
        assertTrue(cyc.getMessage().contains("a -> a.b -> a"), cyc.getMessage());
    }

    @Test
    void transientPairsStayLiveButLeaveSnapshotPages() {
        Path dir = tmp.resolve("w");
        w = World.create(dir);
        long hovering = w.entity("Hovering");
        w.add(hovering, Builtin.TRANSIENT);
        long follows = w.component("Follows", Schema.of("delay", FieldType.F64));
        long follower = w.entity("follower"), pad = w.entity("pad"), leader = w.entity("leader");
        w.add(follower, w.pair(hovering, pad));
        w.set(follower, w.pair(follows, leader), Map.of("delay", 0.3));
        w.close();
        w = World.open(dir);
        follower = w.resolve("follower");
        assertTrue(w.has(follower, w.id("(Hovering, pad)")), "a close and reopen keeps transient pairs");
        var pages = new ArrayList<WorldPages.Page>();
        WorldPages.forEachForSnapshot(w, (m, k, b) -> pages.add(new WorldPages.Page(m, k, b)));
        assertTrue(w.has(follower, w.id("(Hovering, pad)")), "the live world keeps them");
        assertEquals(List.of(), w.check());
        try (World restored = WorldPages.restore(tmp.resolve("r"), pages)) {
            long f = restored.resolve("follower");
            assertFalse(restored.has(f, restored.id("(Hovering, *)")));
            assertEquals(0.3, ((Number) restored.get(f, restored.id("(Follows, leader)")).get("delay")).doubleValue());
            assertTrue(restored.has(restored.resolve("Hovering"), Builtin.TRANSIENT));
            assertEquals(List.of(), restored.check());
        }
    }

    @Test
    void eachRefusalHasItsOwnExceptionType() {
        w = World.create(tmp.resolve("w"));
        long r = w.entity("R");
        w.add(w.entity("x"), w.pair(r, w.entity("t")));
        assertThrows(BuiltinException.class, () -> w.remove(Builtin.CHILD_OF, Builtin.EXCLUSIVE));
        assertThrows(BuiltinException.class, () -> w.rename(Builtin.IS_A, "Foo"));
        assertThrows(BuiltinException.class, () -> w.delete(Builtin.PREFAB));
        assertThrows(StructuralTraitException.class, () -> w.add(r, Builtin.EXCLUSIVE));
        long color = w.entity("Color");
        w.add(color, Builtin.ONE_OF);
        w.entity("Color.red");
        assertThrows(OneOfException.class, () -> w.add(w.entity("car"), w.pair(color, w.entity("blue"))));
        long p = w.entity("p");
        w.entity("p.n");
        long n2 = w.entity("n");
        assertThrows(NameTakenException.class, () -> w.add(n2, w.pair(Builtin.CHILD_OF, p)));
        assertThrows(NameTakenException.class, () -> w.rename(w.entity("m"), "n"));
        assertFalse(w.has(n2, w.pair(Builtin.CHILD_OF, p)));
        assertEquals(0, w.lookup("car") == 0 ? 0 : w.type(w.lookup("car")).length);
    }

    /** Tecs defaults (FEATURES TEC-05, A-37): Follows {delay, maxDistance} with defaults {0.5, 100}. */
    @Test
    void defaultsFillComponentsAddedWithoutAValue() {
        Path dir = tmp.resolve("w");
        w = World.create(dir);
        Schema follows = Schema.of("delay", FieldType.F64, "maxDistance", FieldType.F64, "note", FieldType.STRING)
                .withDefaults(Map.of("delay", 0.5, "maxDistance", 100));
        long f = w.component("Follows", follows);
        long e = w.entity("e"), t = w.entity("t"), u = w.entity("u");
        w.add(e, w.pair(f, t));
        assertEquals(Map.of("delay", 0.5, "maxDistance", 100.0, "note", ""), w.get(e, w.pair(f, t)));
        w.set(e, w.pair(f, u), Map.of("delay", 0.2));
        assertEquals(Map.of("delay", 0.2, "maxDistance", 100.0, "note", ""), w.get(e, w.pair(f, u)));
        w.set(e, w.pair(f, u), new Object[] {0.9});
        assertEquals(0.9, w.get(e, w.pair(f, u)).get("delay"));
        assertEquals(100.0, w.get(e, w.pair(f, u)).get("maxDistance"), "a set keeps the fields it leaves out");
        w.close();
        w = World.open(dir);
        assertEquals(follows, w.schema(w.resolve("Follows")), "the defaults persist");
        w.add(w.resolve("u"), w.id("(Follows, t)"));
        assertEquals(0.5, w.get(w.resolve("u"), w.id("(Follows, t)")).get("delay"));
        assertEquals("{delay: f64 = 0.5, maxDistance: f64 = 100.0, note: string}", follows.toString());
        // bad defaults and a conflicting redeclaration are refused
        assertThrows(ValueException.class, () -> follows.withDefaults(Map.of("speed", 1)));
        assertThrows(ValueException.class, () -> follows.withDefaults(Map.of("delay", "slow")));
        assertThrows(SchemaConflictException.class, () -> w.component("Follows", follows.withDefaults(Map.of("delay", 0.7))));
        assertEquals(follows, w.schema(w.resolve("Follows")));
    }

    /**
     * Flecs v4 copies a toggled Override component's disabled state when a prefab is instantiated:
     * the instance gets {@code (Disabled, C)} with the base's value; the nearest base decides.
     */
    @Test
    void instantiationCopiesTheDisabledState() {
        w = World.create(tmp.resolve("w"));
        long pos = w.component(Position.class);
        w.add(pos, Builtin.CAN_TOGGLE);
        long glowing = w.entity("Glowing");
        w.add(glowing, Builtin.CAN_TOGGLE);
        long base = w.entity("base");
        w.add(base, Builtin.PREFAB);
        w.set(base, pos, new Position(3, 4));
        w.add(base, glowing);
        w.toggling().disable(base, pos);
        w.toggling().disable(base, glowing);
        long inst = w.entity("inst");
        w.add(inst, w.pair(Builtin.IS_A, base));
        assertEquals(List.of("(IsA,base)", "(Disabled,Position)", "(Disabled,Glowing)"), ids(inst));
        assertTrue(w.toggling().isDisabled(inst, pos));
        w.toggling().enable(inst, pos);
        assertEquals(new Position(3, 4), w.get(inst, Position.class), "the value came with it");
        assertTrue(w.toggling().isDisabled(base, pos), "the base is unchanged");
        // an instance that owns the id keeps it enabled, with its own value
        long own = w.entity("own");
        w.set(own, pos, new Position(9, 9));
        w.add(own, w.pair(Builtin.IS_A, base));
        assertEquals(new Position(9, 9), w.get(own, Position.class));
        assertFalse(w.toggling().isDisabled(own, pos));
        // the nearest base decides: mid holds Position enabled over base's disabled one
        long mid = w.entity("mid");
        w.add(mid, w.pair(Builtin.IS_A, base));
        w.toggling().enable(mid, pos);
        w.set(mid, pos, new Position(5, 6));
        long leaf = w.entity("leaf");
        w.add(leaf, w.pair(Builtin.IS_A, mid));
        assertEquals(new Position(5, 6), w.get(leaf, Position.class));
        assertTrue(w.toggling().isDisabled(leaf, glowing), "Glowing is disabled on mid, copied from base");
    }

    /** TEC-06: a validator runs before a set changes anything; it refuses or refines the value. */
    @Test
    void validatorsRefuseOrRefineSets() {
        w = World.create(tmp.resolve("w"));
        Schema follows = Schema.of("delay", FieldType.F64, "maxDistance", FieldType.F64)
                .withDefaults(Map.of("delay", 0.5, "maxDistance", 100));
        long f = w.component("Follows", follows);
        long leader = w.entity("leader"), e = w.entity("e");
        var seen = new ArrayList<String>();
        w.validate(f, (ent, id, value) -> {
            seen.add(w.path(ent) + " " + w.idToString(id) + " " + value);
            double d = (Double) value.get("delay");
            if (d < 0) {
                throw new ValidationException("delay must not be negative, got " + d);
            }
            return d > 10 ? Map.of("delay", 10.0) : value; // refine: clamp
        });
        w.set(e, w.pair(f, leader), Map.of("maxDistance", 50));
        assertEquals(List.of("e (Follows,leader) {delay=0.5, maxDistance=50.0}"), seen, "defaults, then the set fields");
        w.set(e, w.pair(f, leader), Map.of("delay", 42.0));
        assertEquals(Map.of("delay", 10.0, "maxDistance", 50.0), w.get(e, w.pair(f, leader)));
        long[] before = w.type(e);
        var ex = assertThrows(ValidationException.class, () -> w.set(e, w.pair(f, w.entity("other")), Map.of("delay", -1.0)));
        assertTrue(ex.getMessage().contains("must not be negative"), ex.getMessage());
        assertArrayEquals(before, w.type(e), "nothing changed");
        // a validator that fails otherwise is reported as a refusal too, and changes nothing
        w.validate(f, (ent, id, value) -> {
            throw new IllegalStateException("boom");
        });
        var fail = assertThrows(ValidationException.class, () -> w.set(e, w.pair(f, leader), Map.of("delay", 1.0)));
        assertTrue(fail.getMessage().contains("boom"), fail.getMessage());
        assertEquals(10.0, w.get(e, w.pair(f, leader)).get("delay"));
        w.validate(f, null);
        w.set(e, w.pair(f, leader), Map.of("delay", -3.0));
        // tags and pairs cannot have validators
        long tag = w.entity("Tag");
        assertThrows(ValidationException.class, () -> w.validate(tag, (a, b, c) -> c));
        assertThrows(ValidationException.class, () -> w.validate(w.pair(f, leader), (a, b, c) -> c));
    }

    /** TEC-01: a Tecs relationship definition becomes Quiver traits, schema and validator. */
    @Test
    void relationshipSpecsDefineTraitsSchemaAndValidator() {
        w = World.create(tmp.resolve("w"));
        Schema fields = Schema.of("delay", FieldType.F64).withDefaults(Map.of("delay", 0.5));
        long r = new RelationshipSpec("Follows", true, false, true, true, fields, (e, id, v) -> {
            if ((Double) v.get("delay") > 5) {
                throw new ValidationException("too slow");
            }
            return v;
        }).define(w);
        assertEquals(List.of("(OnDeleteTarget,Delete)", "Exclusive", "Component", "Transient"), ids(r));
        assertEquals(fields, w.schema(r));
        long a = w.entity("a"), b = w.entity("b"), c = w.entity("c");
        w.add(a, w.pair(r, b));
        w.set(a, w.pair(r, c), Map.of("delay", 1.0));
        assertEquals(List.of("(Follows,c)"), ids(a), "exclusive: the new target replaced the old");
        assertThrows(ValidationException.class, () -> w.set(a, w.pair(r, c), Map.of("delay", 9.0)));
        w.delete(c);
        assertFalse(w.isAlive(a), "cascadeDelete");
        // defining again adds nothing new; sparse with fields and init without fields are refused, changing nothing
        assertEquals(r, new RelationshipSpec("Follows", true, false, true, true, fields, null).define(w));
        int count = w.entityCount();
        assertThrows(SparseStorageException.class, () -> new RelationshipSpec("Likes", false, true, false, false, fields, null).define(w));
        assertThrows(ValidationException.class,
                () -> new RelationshipSpec("Likes", false, false, false, false, null, (e, id, v) -> v).define(w));
        assertEquals(count, w.entityCount());
        assertEquals(0, w.lookup("Likes"));
        // a structural trait on a relationship in use is refused as ever
        long used = w.entity("Used");
        w.add(w.entity("x"), w.pair(used, b));
        assertThrows(StructuralTraitException.class,
                () -> new RelationshipSpec("Used", true, false, false, false, null, null).define(w));
        assertFalse(w.owns(used, Builtin.EXCLUSIVE));
        assertThrows(StructuralTraitException.class,
                () -> new RelationshipSpec("Used", false, true, false, false, null, null).define(w));
        assertFalse(w.owns(used, Builtin.DONT_FRAGMENT));
        // sparse: DontFragment, the pairs kept out of the table types
        long near = new RelationshipSpec("Near", false, true, false, false, null, null).define(w);
        assertTrue(w.owns(near, Builtin.DONT_FRAGMENT));
        long p = w.entity("p"), q = w.entity("q");
        w.add(p, w.pair(near, q));
        assertTrue(w.has(p, w.pair(near, q)));
        assertFalse(w.tableAccess().table(p).hasId(w.pair(near, q)), "stored sparse, not in the table type");
    }
}
