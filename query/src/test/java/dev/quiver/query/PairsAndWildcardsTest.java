package dev.quiver.query;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Plain ids, pairs, {@code *}, {@code _} and variables in id positions (FEATURES.md A-01, A-02, A-24). */
class PairsAndWildcardsTest extends QueryTestSupport {

    private void bobAndAlice() {
        with("Bob", "(Eats,Apples)", "(Eats,Pears)", "Hungry", "Position");
        with("Bob", "(Eats,Apples)");
        with("Alice", "(Likes,Apples)");
        e("Bananas");
    }

    @Test
    void a01WildcardGivesOneRowPerPairAnyOnePerEntity() {
        bobAndAlice();
        assertEquals(list("Bob | - | (Eats,Apples)", "Bob | - | (Eats,Pears)"), rows("(Eats, *)"));
        assertEquals(list("Bob | - | (Eats,*)"), rows("(Eats, _)"));
        assertEquals(list("Bob | - | (Eats,Apples)"), rows("(Eats, Apples)"));
        assertEquals(List.of(), rows("(Eats, Bananas)"));
    }

    @Test
    void a02WildcardPositions() {
        bobAndAlice();
        assertEquals(list("Alice | - | (Likes,Apples)", "Bob | - | (Eats,Apples)"), rows("(*, Apples)"));
        assertEquals(list("Alice | - | (*,Apples)", "Bob | - | (*,Apples)"), rows("(_, Apples)"));
        // with $this fixed to Bob: (*, *) gives pairs only, * gives plain ids only (QS-04)
        assertEquals(list("Bob | - | - (Eats,Apples)", "Bob | - | - (Eats,Pears)"), rows("$this == Bob, (*, *)"));
        assertEquals(list("Bob | - | - Hungry", "Bob | - | - Position"), rows("$this == Bob, *"));
        assertEquals(list("Bob | - | - *"), rows("$this == Bob, _")); // `_` positions report `*`
    }

    @Test
    void plainTagsAndAnd() {
        with("e1", "Position");
        with("e2", "Position", "Velocity");
        with("e3", "Position", "Velocity", "Mass");
        assertEquals(list("e2", "e3"), these("Position, Velocity"));
        assertEquals(list("e1", "e2", "e3"), these("Position"));
        assertEquals(list("e3"), these("Mass, Position, Velocity"));
        assertEquals(list("e2 | - | Position Velocity", "e3 | - | Position Velocity"), rows("Position($this), Velocity($this)"));
    }

    @Test
    void a24VariableJoinsAndCrossProducts() {
        with("Alice", "(Likes,Bob)", "(Likes,Carol)", "(Colleague,Bob)");
        with("Dave", "(Likes,Carol)");
        assertEquals(list("Alice | $X=Bob | (Likes,Bob) (Colleague,Bob)"), rows("(Likes, $X), (Colleague, $X)"));
        assertEquals(list("Alice | - | (Likes,Bob) (Colleague,Bob)", "Alice | - | (Likes,Carol) (Colleague,Bob)"),
            rows("(Likes, *), (Colleague, *)"));
        assertEquals(list(
                "Alice | $R=Colleague $X=Bob | (Likes,Bob) (Colleague,Bob)",
                "Alice | $R=Likes $X=Bob | (Likes,Bob) (Likes,Bob)",
                "Alice | $R=Likes $X=Carol | (Likes,Carol) (Likes,Carol)",
                "Dave | $R=Likes $X=Carol | (Likes,Carol) (Likes,Carol)"),
            rows("(Likes, $X), ($R, $X)"));
        assertEquals(List.of("X", "R"), Query.parse(w, "(Likes, $X), ($R, $X)").variableNames());
    }

    @Test
    void variablesInEveryPosition() {
        with("Alice", "(Likes,Bob)");
        with("Bob", "(Likes,Alice)", "Person");
        with("Carol", "(Likes,Alice)");
        // variable source and target, no $this
        assertEquals(list("- | $a=Alice $b=Bob | (Likes,Bob)@Alice", "- | $a=Bob $b=Alice | (Likes,Alice)@Bob",
            "- | $a=Carol $b=Alice | (Likes,Alice)@Carol"), rows("Likes($a, $b)"));
        // mutual likes: $this in the target position of the second term
        assertEquals(list("Alice | $x=Bob | (Likes,Bob) (Likes,Alice)@Bob", "Bob | $x=Alice | (Likes,Alice) (Likes,Bob)@Alice"),
            rows("(Likes, $x), Likes($x, $this)"));
        // component variable
        assertEquals(list("- | $x=Bob | Person@Bob"), rows("Person($x)"));
        // relationship variable with fixed source and target
        assertEquals(list("- | $r=Likes | (Likes,Alice)@Bob"), rows("$r(Bob, Alice)"));
        // $this only as a pair element
        assertEquals(list("Alice | $who=Bob | (Likes,Alice)@Bob", "Alice | $who=Carol | (Likes,Alice)@Carol",
            "Bob | $who=Alice | (Likes,Bob)@Alice"), rows("Likes($who, $this)"));
    }

    @Test
    void sameVariableTwiceInOneTerm() {
        with("narcissus", "(Likes,narcissus)");
        with("echo", "(Likes,narcissus)");
        assertEquals(list("narcissus | - | (Likes,narcissus)"), rows("(Likes, $this)"));
        assertEquals(list("- | $x=narcissus | (Likes,narcissus)@narcissus"), rows("Likes($x, $x)"));
    }

    @Test
    void componentVariablesWithSerializable() {
        long pos = with("Position", "Serializable");
        with("Velocity");
        with("e", "Position", "Velocity");
        assertEquals(list("e | $Component=Position | Serializable@Position Position"),
            rows("Serializable($Component), $Component($this)"));
        assertEquals(pos, w.lookup("Position"));
    }

    @Test
    void anySourceListsDistinctTargets() {
        with("a", "(Likes,x)");
        with("b", "(Likes,x)", "(Likes,y)");
        assertEquals(list("- | $t=x | (Likes,x)@*", "- | $t=y | (Likes,y)@*"), rows("Likes(_, $t)"));
        assertEquals(2, count("Likes(_, $t)"));
    }

    @Test
    void wildcardSourceIsAHiddenVariable() {
        with("a", "(Likes,x)");
        with("b", "(Likes,x)", "(Likes,y)");
        assertEquals(3, count("Likes(*, $t)"));
        assertEquals(List.of("t"), Query.parse(w, "Likes(*, $t)").variableNames());
    }

    @Test
    void namesNeverMatchWildcards() {
        with("Parent");
        long child = e("Parent.Child");
        assertEquals(list("Parent.Child | - | (ChildOf,Parent)"), rows("(ChildOf, *)"));
        assertEquals(list("Parent.Child | - | - (ChildOf,Parent)"), rows("$this == Parent.Child, (*, *)"));
        assertEquals(child, w.lookup("Parent.Child"));
    }

    @Test
    void numericIdsReferToEntities() {
        long npc = with("Npc");
        long e = with("e", "Npc");
        assertEquals(list("e"), these(String.valueOf(dev.quiver.index.Ids.index(npc))));
        assertEquals(e, Query.parse(w, "Npc").rows(-1).get(0).thisEntity());
    }

    @Test
    void prefabsAreSkippedUnlessTheQueryMentionsPrefab() {
        with("base", "Mass", "Prefab");
        with("ent", "Mass");
        assertEquals(list("ent"), these("Mass"));
        assertEquals(list("base", "ent"), these("Mass, ?Prefab"));
        assertEquals(list("base"), these("Prefab"));
        with("off", "Mass", "Disabled");
        assertEquals(list("ent"), these("Mass"));
        assertEquals(list("off"), these("Mass, Disabled"));
    }
}
