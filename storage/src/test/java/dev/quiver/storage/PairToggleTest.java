package dev.quiver.storage;

import dev.quiver.index.Ids;
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
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Toggling pairs (Flecs v4 {@code ecs_enable_id(world, e, ecs_pair(R, T), false)} with CanToggle on
 * R, issue 9): a disabled {@code (R, T)} is held as {@code (R~, T)} of R's toggle companion
 * ({@code rules.Toggles}). One test per rule: the value survives, Exclusive counts disabled pairs,
 * removes reach them, cleanup, targets and sources, prefabs, persistence, the companion's
 * protection, and every refusal changes nothing. {@code check} runs after each test.
 */
class PairToggleTest {
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

    private List<String> ids(long e) {
        var out = new ArrayList<String>();
        for (long id : w.type(e)) {
            out.add(w.idToString(id));
        }
        return out;
    }

    private long toggling(String name) {
        long r = w.entity(name);
        w.add(r, Builtin.CAN_TOGGLE);
        return r;
    }

    @Test
    void disablingAPairKeepsItsValueAndHidesIt() {
        Path dir = tmp.resolve("w");
        w = World.create(dir);
        long owes = w.component("Owes", Schema.of("amount", FieldType.F64));
        w.add(owes, Builtin.CAN_TOGGLE);
        long bob = w.entity("bob"), alice = w.entity("alice");
        w.set(bob, w.pair(owes, alice), new Object[] {12.5});
        w.toggling().disable(bob, w.pair(owes, alice));
        assertTrue(w.toggling().isDisabled(bob, w.pair(owes, alice)));
        assertFalse(w.has(bob, w.pair(owes, alice)));
        assertFalse(w.has(bob, w.pair(owes, Ids.WILDCARD)));
        assertNull(w.get(bob, w.pair(owes, alice)));
        assertArrayEquals(new long[0], w.targets(bob, owes));
        long companion = w.resolve("Owes.~");
        assertTrue(w.has(companion, Builtin.DISABLED_RELATIONSHIP));
        assertEquals(owes, w.parent(companion));
        assertEquals(w.schema(owes), w.schema(companion));
        assertEquals(List.of("(Owes.~,alice)"), ids(bob));
        assertEquals(w.pair(owes, alice), w.toggling().disabledId(w.pair(companion, alice)));
        assertEquals(Map.of("amount", 12.5), w.get(bob, w.pair(companion, alice)));
        assertTrue(w.tableAccess().tables(w.pair(owes, Ids.WILDCARD)).stream().noneMatch(t -> t.count() > 0));
        w.toggling().disable(bob, w.pair(owes, alice)); // already disabled: nothing changes
        w.close();
        w = World.open(dir);
        bob = w.resolve("bob");
        alice = w.resolve("alice");
        owes = w.resolve("Owes");
        assertTrue(w.toggling().isDisabled(bob, w.pair(owes, alice)), "a disabled pair survives a reopen");
        w.toggling().enable(bob, w.pair(owes, alice));
        assertFalse(w.toggling().isDisabled(bob, w.pair(owes, alice)));
        assertEquals(Map.of("amount", 12.5), w.get(bob, w.pair(owes, alice)));
        assertArrayEquals(new long[] {alice}, w.targets(bob, owes));
        w.toggling().enable(bob, w.pair(owes, alice)); // already enabled
        assertEquals(List.of("(Owes,alice)"), ids(bob));
        assertEquals(0, w.toggling().disabledId(w.pair(owes, alice)));
    }

    @Test
    void aPairTakingItsTargetsSchemaAndATagPairToggleToo() {
        w = World.create(tmp.resolve("w"));
        long pos = w.component("Position", Schema.of("x", FieldType.F64));
        long likes = toggling("Likes");
        long at = toggling("At");
        long e = w.entity("e"), bob = w.entity("bob");
        w.set(e, w.pair(at, pos), new Object[] {3.0});
        w.add(e, w.pair(likes, bob));
        w.toggling().disable(e, w.pair(at, pos));
        w.toggling().disable(e, w.pair(likes, bob));
        assertEquals(Map.of("x", 3.0), w.get(e, w.pair(w.resolve("At.~"), pos)));
        assertNull(w.schema(w.resolve("Likes.~")));
        w.toggling().enable(e, w.pair(at, pos));
        w.toggling().enable(e, w.pair(likes, bob));
        assertEquals(Map.of("x", 3.0), w.get(e, w.pair(at, pos)));
        assertTrue(w.has(e, w.pair(likes, bob)));
    }

    /**
     * Flecs v4 keeps a disabled pair in the entity's type, so Exclusive counts it: adding (R, U)
     * replaces a disabled (R, T), and an entity never holds (R, T) disabled beside (R, U) enabled.
     */
    @Test
    void exclusiveCountsDisabledPairs() {
        w = World.create(tmp.resolve("w"));
        long in = toggling("In");
        w.add(in, Builtin.EXCLUSIVE);
        long e = w.entity("e"), kitchen = w.entity("kitchen"), hall = w.entity("hall");
        w.add(e, w.pair(in, kitchen));
        w.toggling().disable(e, w.pair(in, kitchen));
        w.add(e, w.pair(in, hall));
        assertEquals(List.of("(In,hall)"), ids(e));
        assertFalse(w.toggling().isDisabled(e, w.pair(in, kitchen)));
        assertThrows(ToggleException.class, () -> w.toggling().enable(e, w.pair(in, kitchen)), "(In, kitchen) is gone");
        // adding the disabled form by hand (as an instantiation does) replaces the enabled pair too
        long companion = w.resolve("In.~");
        w.add(e, w.pair(companion, kitchen));
        assertEquals(List.of("(In.~,kitchen)"), ids(e));
        w.toggling().enable(e, w.pair(in, kitchen));
        assertEquals(List.of("(In,kitchen)"), ids(e));
        // instantiation: a base's disabled pair does not replace the instance's own Exclusive pair
        long base = w.entity("base");
        w.add(base, w.pair(in, kitchen));
        w.toggling().disable(base, w.pair(in, kitchen));
        long inst = w.entity("inst");
        w.add(inst, w.pair(in, hall));
        w.add(inst, w.pair(Builtin.IS_A, base));
        assertEquals(List.of("(IsA,base)", "(In,hall)"), ids(inst));
        long fresh = w.entity("fresh");
        w.add(fresh, w.pair(Builtin.IS_A, base));
        assertTrue(w.toggling().isDisabled(fresh, w.pair(in, kitchen)), "without a pair of its own it gets the disabled one");
    }

    @Test
    void removesReachDisabledPairs() {
        w = World.create(tmp.resolve("w"));
        long likes = toggling("Likes");
        long a = w.entity("a"), b = w.entity("b"), c = w.entity("c"), d = w.entity("d");
        for (long x : new long[] {a, b, c, d}) {
            w.add(x, w.pair(likes, b));
            w.add(x, w.pair(likes, c));
            w.toggling().disable(x, w.pair(likes, b));
        }
        w.remove(a, w.pair(likes, b));
        assertEquals(List.of("(Likes,c)"), ids(a));
        w.remove(b, w.pair(likes, Ids.WILDCARD));
        assertEquals(List.of(), ids(b));
        w.removeAll(w.pair(likes, b));
        assertEquals(List.of("(Likes,c)"), ids(c));
        assertEquals(List.of("(Likes,c)"), ids(d));
        w.toggling().disable(d, w.pair(likes, c));
        w.removeAll(w.pair(likes, Ids.WILDCARD));
        assertEquals(List.of(), ids(c));
        assertEquals(List.of(), ids(d));
        w.add(d, w.pair(likes, c));
        w.toggling().disable(d, w.pair(likes, c));
        w.deleteWith(w.pair(likes, c));
        assertFalse(w.isAlive(d), "delete_with reaches a disabled holder");
    }

    @Test
    void cleanupFollowsTheRelationshipsPolicies() {
        w = World.create(tmp.resolve("w"));
        long likes = toggling("Likes");
        long e = w.entity("e"), t = w.entity("t"), u = w.entity("u");
        w.add(e, w.pair(likes, t));
        w.add(e, w.pair(likes, u));
        w.toggling().disable(e, w.pair(likes, t));
        w.delete(t);
        assertEquals(List.of("(Likes,u)"), ids(e), "deleting T removes (R~, T)");
        long owns = toggling("Owns");
        w.add(owns, w.pair(Builtin.ON_DELETE_TARGET, Builtin.DELETE));
        long car = w.entity("car"), owner = w.entity("owner");
        w.add(owner, w.pair(owns, car));
        w.toggling().disable(owner, w.pair(owns, car));
        w.delete(car);
        assertFalse(w.isAlive(owner), "R's (OnDeleteTarget, Delete) reaches a disabled pair");
        long guards = toggling("Guards");
        w.add(guards, w.pair(Builtin.ON_DELETE_TARGET, Builtin.PANIC));
        long gate = w.entity("gate"), guard = w.entity("guard");
        w.add(guard, w.pair(guards, gate));
        w.toggling().disable(guard, w.pair(guards, gate));
        long[] before = w.type(guard);
        var p = assertThrows(CleanupPanicException.class, () -> w.delete(gate));
        assertTrue(p.getMessage().contains("Panic"), p.getMessage());
        assertArrayEquals(before, w.type(guard));
        // deleting R deletes R~ and strips (R~, *) from its holders
        long companion = w.resolve("Likes.~");
        w.delete(likes);
        assertFalse(w.isAlive(companion));
        e = w.resolve("e");
        assertEquals(List.of(), ids(e));
    }

    @Test
    void targetsAndSourcesLeaveDisabledPairsOut() {
        w = World.create(tmp.resolve("w"));
        long likes = toggling("Likes");
        long a = w.entity("a"), b = w.entity("b"), c = w.entity("c");
        w.add(a, w.pair(likes, b));
        w.add(a, w.pair(likes, c));
        w.add(c, w.pair(likes, b));
        w.toggling().disable(a, w.pair(likes, b));
        assertArrayEquals(new long[] {c}, w.targets(a, likes));
        var sources = new ArrayList<Long>();
        w.forEachSource(likes, b, sources::add);
        assertEquals(List.of(c), sources);
    }

    @Test
    void symmetricPairsToggleOnOneSideOnly() {
        w = World.create(tmp.resolve("w"));
        long friend = toggling("FriendOf");
        w.add(friend, Builtin.SYMMETRIC);
        long a = w.entity("a"), b = w.entity("b");
        w.add(a, w.pair(friend, b));
        w.toggling().disable(a, w.pair(friend, b));
        assertTrue(w.has(b, w.pair(friend, a)), "the mirror stays enabled");
        w.remove(a, w.pair(friend, b));
        assertEquals(List.of(), ids(b), "removing the disabled pair removes its mirror");
        assertEquals(List.of(), ids(a));
    }

    @Test
    void prefabsPassDisabledPairsOnByTheirPolicy() {
        w = World.create(tmp.resolve("w"));
        long owes = w.component("Owes", Schema.of("amount", FieldType.F64));
        w.add(owes, Builtin.CAN_TOGGLE);
        long bank = w.entity("bank");
        long prefab = w.entity("Debtor");
        w.add(prefab, Builtin.PREFAB);
        w.set(prefab, w.pair(owes, bank), new Object[] {7.0});
        w.toggling().disable(prefab, w.pair(owes, bank));
        long inst = w.entity("inst");
        w.add(inst, w.pair(Builtin.IS_A, prefab));
        assertTrue(w.toggling().isDisabled(inst, w.pair(owes, bank)), "an Override pair is copied disabled");
        w.toggling().enable(inst, w.pair(owes, bank));
        assertEquals(Map.of("amount", 7.0), w.get(inst, w.pair(owes, bank)));
        assertTrue(w.toggling().isDisabled(prefab, w.pair(owes, bank)), "the prefab is unchanged");
        for (long batch : w.instantiate(prefab, 3)) {
            assertTrue(w.toggling().isDisabled(batch, w.pair(owes, bank)), "a batch instance gets it disabled too");
            assertEquals(Map.of("amount", 7.0), w.get(batch, w.pair(w.resolve("Owes.~"), bank)));
        }
        // an instance holding the pair enabled, or another pair of an Exclusive relationship, keeps its own
        long mine = w.entity("mine");
        w.set(mine, w.pair(owes, bank), new Object[] {1.0});
        w.add(mine, w.pair(Builtin.IS_A, prefab));
        assertFalse(w.toggling().isDisabled(mine, w.pair(owes, bank)));
        assertEquals(Map.of("amount", 1.0), w.get(mine, w.pair(owes, bank)));
        // an Inherit relationship: the instance sees the pair only while the base holds it enabled
        long likes = toggling("Likes");
        w.add(likes, w.pair(Builtin.ON_INSTANTIATE, Builtin.INHERIT));
        long base = w.entity("base");
        w.add(base, w.pair(likes, bank));
        w.toggling().disable(base, w.pair(likes, bank));
        assertEquals(OnInstantiate.INHERIT, w.onInstantiate(w.pair(w.resolve("Likes.~"), bank)), "R~ mirrors R's policy");
        long child = w.entity("child");
        w.add(child, w.pair(Builtin.IS_A, base));
        assertFalse(w.has(child, w.pair(likes, bank)));
        assertFalse(w.toggling().isDisabled(child, w.pair(likes, bank)), "nothing was copied");
        w.toggling().enable(base, w.pair(likes, bank));
        assertTrue(w.has(child, w.pair(likes, bank)));
        // a policy change on R reaches R~
        w.remove(likes, w.pair(Builtin.ON_INSTANTIATE, Builtin.INHERIT));
        w.add(likes, Builtin.DONT_INHERIT);
        assertEquals(OnInstantiate.DONT_INHERIT, w.onInstantiate(w.pair(w.resolve("Likes.~"), bank)));
    }

    @Test
    void refusalsChangeNothing() {
        Path dir = tmp.resolve("w");
        w = World.create(dir);
        long likes = toggling("Likes");
        long plain = w.entity("Plain");
        long e = w.entity("e"), t = w.entity("t"), u = w.entity("u");
        w.add(e, w.pair(likes, t));
        w.add(e, w.pair(plain, t));
        w.toggling().disable(e, w.pair(likes, t));
        long companion = w.resolve("Likes.~");
        long[] before = w.type(e);
        var noTrait = assertThrows(ToggleException.class, () -> w.toggling().disable(e, w.pair(plain, t)));
        assertTrue(noTrait.getMessage().contains("CanToggle") && noTrait.getMessage().contains("pair"), noTrait.getMessage());
        var wildcard = assertThrows(ToggleException.class, () -> w.toggling().disable(e, w.pair(likes, Ids.WILDCARD)));
        assertTrue(wildcard.getMessage().contains("wildcard"), wildcard.getMessage());
        assertThrows(ToggleException.class, () -> w.toggling().enable(e, w.pair(Ids.WILDCARD, t)));
        var notOwned = assertThrows(ToggleException.class, () -> w.toggling().disable(e, w.pair(likes, u)));
        assertTrue(notOwned.getMessage().contains("does not own"), notOwned.getMessage());
        assertThrows(ToggleException.class, () -> w.toggling().enable(e, w.pair(companion, t)), "the disabled form is not toggled");
        assertThrows(ToggleException.class, () -> w.add(e, w.pair(likes, t)), "disabled there");
        assertThrows(ToggleException.class, () -> w.add(e, new long[] {w.pair(likes, t)}));
        assertThrows(StructuralTraitException.class, () -> w.remove(likes, Builtin.CAN_TOGGLE));
        assertThrows(StructuralTraitException.class, () -> w.add(likes, Builtin.EXCLUSIVE), "in use through R~");
        assertThrows(SparseStorageException.class, () -> w.add(likes, Builtin.DONT_FRAGMENT));
        assertThrows(SparseStorageException.class, () -> w.add(likes, Builtin.UNION));
        assertThrows(BuiltinException.class, () -> w.delete(companion));
        assertThrows(BuiltinException.class, () -> w.add(companion, Builtin.EXCLUSIVE));
        assertThrows(BuiltinException.class, () -> w.remove(companion, Builtin.DISABLED_RELATIONSHIP));
        assertThrows(BuiltinException.class, () -> w.rename(companion, "x"));
        assertThrows(BuiltinException.class, () -> w.toggling().disable(Builtin.CHILD_OF, w.pair(likes, t)));
        assertThrows(ToggleException.class, () -> w.toggling().disable(e, w.pair(Builtin.CHILD_OF, t)));
        assertArrayEquals(before, w.type(e));
        assertThrows(SchemaConflictException.class, () -> w.component("Likes", Schema.of("n", FieldType.I64)));
        assertNull(w.schema(likes));
        assertTrue(w.toggling().isDisabled(e, w.pair(likes, t)));
        // a sparse relationship cannot get CanToggle
        long near = w.entity("Near");
        w.add(near, Builtin.DONT_FRAGMENT);
        assertThrows(SparseStorageException.class, () -> w.add(near, Builtin.CAN_TOGGLE));
        assertFalse(w.has(near, Builtin.CAN_TOGGLE));
        // CanToggle can go once nothing is disabled
        w.toggling().enable(e, w.pair(likes, t));
        w.remove(likes, Builtin.CAN_TOGGLE);
        assertNotEquals(0, w.resolve("Likes.~"), "the companion stays, empty, until Likes goes");
    }
}
