package dev.quiver.query;

import dev.quiver.storage.Builtin;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
        w.disable(b, e("Mass"));
        assertEquals(list("a"), these("Mass"));
        assertEquals(list("a"), these("Mass, Npc"));
        assertEquals(list("b", "c"), these("Npc, !Mass"));
        assertEquals(list("b"), these("(Disabled, Mass)"));
        assertEquals(0, count("Mass(b)"));
        assertEquals(1, count("Mass(a)"));
        assertEquals(list("a", "b", "c"), these("Npc, ?Mass"));
        w.enable(b, e("Mass"));
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
        w.disable(b, w.ensureId("(Likes, x)"));
        w.disable(c, w.ensureId("(Likes, x)"));
        assertEquals(list("a"), these("(Likes, x)"));
        assertEquals(list("a", "b"), these("(Likes, *)"));
        assertEquals(list("a | $t=x", "b | $t=y"), answers("(Likes, $t)"));
        assertEquals(list("b", "c"), these("Npc, !(Likes, x)"));
        assertEquals(list("c"), these("Npc, !(Likes, *)"));
        assertEquals(0, count("Likes(b, x)"));
        assertEquals(1, count("Likes(b, y)"));
        w.enable(b, w.ensureId("(Likes, x)"));
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
}
