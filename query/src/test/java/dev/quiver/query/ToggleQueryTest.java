package dev.quiver.query;

import dev.quiver.storage.Builtin;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Queries skip components disabled with {@code World.disable} (Flecs v4 CanToggle): the entity
 * holds {@code (Disabled, C)} in place of C, so every kind of term over C leaves it out with no
 * engine support, and {@code (Disabled, C)} finds it.
 */
class ToggleQueryTest extends QueryTestSupport {
    @Test
    void disabledComponentsAreSkippedByEveryTermOverThem() {
        with("Mass", "CanToggle");
        with("a", "Mass", "Npc");
        long b = with("b", "Mass", "Npc");
        with("c", "Npc");
        w.toggling().disable(b, e("Mass"));
        assertEquals(list("a"), these("Mass"));
        assertEquals(list("a"), these("Mass, Npc"));
        assertEquals(list("b", "c"), these("Npc, !Mass"));
        assertEquals(list("b"), these("(Disabled, Mass)"));
        assertEquals(0, count("Mass(b)"));
        assertEquals(1, count("Mass(a)"));
        assertEquals(list("a", "b", "c"), these("Npc, ?Mass"));
        w.toggling().enable(b, e("Mass"));
        assertEquals(list("a", "b"), these("Mass"));
        assertEquals(list(), these("(Disabled, *)"));
    }

    /**
     * A disabled pair {@code (R, T)} is held as {@code (R~, T)} of R's toggle companion
     * ({@code rules.Toggles}): terms over (R, T), (R, *) and (R, $x), with R traversed or not, skip
     * it with no engine support; enabling brings it back.
     */
    @Test
    void disabledPairsAreSkippedByEveryTermOverTheirRelationship() {
        with("Likes", "CanToggle");
        with("a", "(Likes, x)", "Npc");
        long b = with("b", "(Likes, x)", "(Likes, y)", "Npc");
        long c = with("c", "(Likes, x)", "Npc");
        w.toggling().disable(b, w.ensureId("(Likes, x)"));
        w.toggling().disable(c, w.ensureId("(Likes, x)"));
        assertEquals(list("a"), these("(Likes, x)"));
        assertEquals(list("a", "b"), these("(Likes, *)"));
        assertEquals(list("a | $t=x", "b | $t=y"), answers("(Likes, $t)"));
        assertEquals(list("b", "c"), these("Npc, !(Likes, x)"));
        assertEquals(list("c"), these("Npc, !(Likes, *)"));
        assertEquals(0, count("Likes(b, x)"));
        assertEquals(1, count("Likes(b, y)"));
        w.toggling().enable(b, w.ensureId("(Likes, x)"));
        assertEquals(list("a", "b"), these("(Likes, x)"));
    }

    @Test
    void aDisabledTagOnTheEntityIsAnotherThing() {
        with("Mass", "CanToggle");
        long off = with("off", "Mass");
        w.add(off, Builtin.DISABLED);
        with("on", "Mass");
        assertEquals(list("on"), these("Mass"));
        assertEquals(list("off"), these("Mass, Disabled"));
    }

    /**
     * {@code (Disabled, C)} and {@code (R~, T)} stand for ids held disabled, not for pairs: a
     * wildcard or variable relationship never reports them, the companion R~ is no source of any
     * term (not even {@code (ChildOf, R)}) unless the query names Disabled or DisabledRelationship,
     * and it is no entity in {@code entityCount}; uncached and cached queries agree.
     */
    @Test
    void wildcardRelationshipsNeverReportDisabledIdsOrCompanions() {
        with("Likes", "CanToggle");
        with("Mass", "CanToggle");
        with("a", "(Likes, x)", "Mass");
        long b = with("b", "(Likes, x)", "(Likes, y)", "Mass");
        with("c", "(Owns, x)");
        int entities = w.entityCount();
        w.toggling().disable(b, w.ensureId("(Likes, x)"));
        w.toggling().disable(b, e("Mass"));
        assertEquals(entities, w.entityCount(), "the companion Likes.~ is no entity to count");
        assertEquals(list("a", "c"), these("(*, x)"));
        assertEquals(list("a | $r=Likes", "c | $r=Owns"), answers("($r, x)"));
        assertEquals(list("b | $r=Likes $t=y"), answers("($r, $t), Likes($this, $t), !(Owns, *), !Mass"));
        assertEquals(list(), these("(*, Mass)"));
        assertEquals(list("b"), these("(Disabled, Mass)"));
        assertEquals(list("b"), these("(Disabled, Mass), !(*, x)"));
        assertEquals(list(), these("(ChildOf, Likes)"));
        assertEquals(list("Likes.~"), these("DisabledRelationship"));
        assertEquals(list("Likes.~"), these("(ChildOf, Likes), DisabledRelationship"));
        try (var cached = dev.quiver.query.cache.CachedQuery.parse(w, "!(*, x), !Likes, !Owns")) {
            long n = cached.count();
            assertEquals(count("!(*, x), !Likes, !Owns"), n);
            java.util.List<String> seen = new java.util.ArrayList<>();
            cached.forEach(r -> seen.add(w.path(r.thisEntity())));
            assertTrue(seen.contains("b") && !seen.contains("Likes.~"), "cached: " + seen);
        }
        w.toggling().enable(b, w.ensureId("(Likes, x)"));
        assertEquals(list("a", "b", "c"), these("(*, x)"));
    }
}
