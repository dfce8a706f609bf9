package dev.quiver.query;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The engine bugs {@link WholeLanguageModelTest} found, one test per case, each with the smallest
 * world that shows it. Rows are in the conformance format ({@code <this> | <vars> | <fields>}).
 */
class ModelRegressionTest extends QueryTestSupport {

    /** R { Transitive; Reflexive }. */
    private void reflexiveR() {
        transitive("R");
        reflexive("R");
    }

    /**
     * {@code (R, *), T}: written first with $this unbound, {@code (R, *)} gives the self row only to
     * entities with an R pair (K3: {@code *} is a variable here; K4), whichever term the planner
     * runs first. c has T but no R pair; the engine used to give it a self row when T ran first.
     */
    @Test
    void reflexiveWildcardTargetSelfRowsDoNotDependOnPlanOrder() {
        reflexiveR();
        with("a", "T", "(R, b)");
        with("c", "T");
        assertEquals(list("a | - | (R,a) T", "a | - | (R,b) T"), rows("(R, *), T"));
        // written after T, every T entity gets its self row (an earlier term bound $this)
        assertEquals(list("a | - | T (R,a)", "a | - | T (R,b)", "c | - | T (R,c)"), rows("T, (R, *)"));
    }

    /** {@code $x == a, (R, $x)}: a target bound by an earlier term is a known target, which matches itself (K4). */
    @Test
    void reflexiveTargetBoundByEarlierTermMatchesItself() {
        reflexiveR();
        e("a");
        with("b", "(R, a)");
        assertEquals(list("a | $x=a", "b | $x=a"), answers("$x == a, (R, $x)"));
        // written before the binding, the target is open: a has no R pair, so no self row
        assertEquals(list("b | $x=a"), answers("(R, $x), $x == a"));
    }

    /**
     * {@code T, (R, $x)}: every T entity has its self row; the planner used to run the cheaper
     * {@code (R, $x)} first (one R pair against many T entities), which only reaches entities
     * holding R pairs, and lost the self rows of the others. Same through an Or chain.
     */
    @Test
    void reflexiveSelfRowsWaitForTheTermThatBindsTheSource() {
        reflexiveR();
        List<String> want = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            with("t" + i, "T");
            want.add("t" + i + " | $x=t" + i);
        }
        with("t0", "(R, b)");
        e("U");
        want.add("t0 | $x=b");
        want.sort(null);
        assertEquals(want, answers("T, (R, $x)"));
        assertEquals(want, answers("U || T, (R, $x)"));
    }

    /**
     * {@code (R, *) || U}: an entity with U and no R pair gets the U row; the engine used to drop
     * it because its check of the first alternative gave the reflexive self row the generator
     * does not give.
     */
    @Test
    void orChainAfterReflexiveWildcardAlternative() {
        reflexiveR();
        with("a", "(R, b)");
        with("u", "U");
        assertEquals(list("a | - | (R,a)", "a | - | (R,b)", "u | - | U"), rows("(R, *) || U"));
    }

    /**
     * A variable source bound to a prefab never matches, whichever term bound it (QS-47): the
     * engine used to match it when the planner bound the variable from a pair target or
     * {@code ==} before running the term. A fixed source may be a prefab.
     */
    @Test
    void variableSourceBoundToPrefabNeverMatches() {
        with("p", "Prefab", "T");
        with("a", "(Rel, p)", "(Rel, q)");
        with("q", "T");
        assertEquals(list("a | $x=q | (Rel,q) T@q"), rows("(Rel, $x), T($x)"));
        assertEquals(list("a | $x=q | T@q (Rel,q)"), rows("T($x), (Rel, $x)"));
        assertEquals(list("a | $x=p | (Rel,p) -"), rows("(Rel, $x), !T($x)"));
        assertEquals(list(), rows("$this == p, T"));
        assertEquals(list("- | - | T@p"), rows("T(p)"));
    }

    /** {@code R(_, _)} is one row (one distinct reported id, {@code (R,*)}); the engine gave one per pair. */
    @Test
    void anySourceAndAnyTargetIsOneRow() {
        with("a", "(R, b)");
        with("d", "(R, c)"); // another table: '_' must collapse across tables too
        assertEquals(list("- | - | (R,*)@*"), rows("R(_, _)"));
        assertEquals(list("- | $x=b | (R,b)@*", "- | $x=c | (R,c)@*"), rows("R(_, $x)"));
    }

    /**
     * {@code Mass(up)}: an entity visited while traversing ChildOf is also tested for components
     * it inherits through IsA (Flecs v4 Queries manual, "Relationship traversal"), after the
     * entities above it (Flecs' search order); the base owning the value is the field's source.
     */
    @Test
    void upTraversalSeesComponentsInheritedByVisitedEntities() {
        with("Mass", "(OnInstantiate, Inherit)");
        with("base", "Prefab", "Mass");
        with("parent", "(IsA, base)");
        with("child", "(ChildOf, parent)");
        assertEquals(list("parent.child | - | Mass@base"), rows("Mass(up)"));
        assertEquals(list("parent | - | Mass@base"), rows("Mass"));
        // the grandparent's own Mass comes before the parent's inherited one
        with("grand", "Mass");
        w.add(e("parent"), w.pair(dev.quiver.storage.Builtin.CHILD_OF, e("grand")));
        assertEquals(list("grand.parent | - | Mass@grand", "grand.parent.child | - | Mass@grand"), rows("Mass(up)"));
        assertEquals(list("grand | - | Mass", "grand.parent | - | Mass@grand", "grand.parent.child | - | Mass@grand"),
            rows("Mass(self|up)"));
    }

    /**
     * {@code M.v($this, $x), $this == p}: a member-value term never matches on a Prefab or
     * Disabled source, however the variable was bound (QS-47); the planner runs the {@code ==}
     * first, and the member step used to skip the check that every other id step makes.
     */
    @Test
    void memberValueTermsSkipABoundPrefabSource() {
        long m = w.component("M", dev.quiver.storage.Schema.of("v", dev.quiver.storage.FieldType.ENTITY));
        e("t");
        with("p", "Prefab");
        with("d", "Disabled");
        with("u");
        for (String x : new String[] {"p", "d", "u"}) {
            w.set(e(x), m, java.util.Map.of("v", e("t")));
        }
        assertEquals(list("u"), these("M.v($this, $x)"));
        assertEquals(list(), these("M.v($this, $x), $this == p"));
        assertEquals(list(), these("M.v($this, t), $this == d"));
        assertEquals(list("u"), these("M.v($this, t), $this == u"));
        // asked for, the prefab matches
        assertEquals(list("p"), these("M.v($this, $x), $this == p, Prefab"));
    }

    /**
     * {@code R($x, $this), !T(self)} cached: $this is bound as a pair target and may be a Prefab,
     * on which no term matches (QS-47), so {@code !T} holds for it even when its table has T; the
     * cache's table filter used to leave that Prefab table out and lose the row.
     */
    @Test
    void cachedNotTermsKeepPrefabTablesForAThisBoundAsPairTarget() {
        with("p", "Prefab", "T");
        with("q", "T");
        with("r");
        with("a", "(R, p)", "(R, q)", "(R, r)");
        String text = "R($x, $this), !T(self)";
        assertEquals(list("p", "r"), these(text));
        try (dev.quiver.query.cache.CachedQuery cq = dev.quiver.query.cache.CachedQuery.parse(w, text)) {
            assertEquals(list("p", "r"), cq.rows(-1).stream().map(x -> w.path(x.thisEntity())).sorted().toList());
            assertEquals(2, cq.count());
        }
    }

    /**
     * {@code and | E} with an E that has no (inheritable) ids is an empty list of terms: written
     * first it binds nothing, so a later reflexive {@code (R, *)} gives its self row only to
     * entities with an R pair (K4), and a {@code $this == p} on a prefab passes it.
     */
    @Test
    void anEmptyAndFromIsAnEmptyListOfTerms() {
        reflexiveR();
        with("K", "Prefab");
        with("a", "(R, b)");
        with("c", "T");
        assertEquals(list("a | - | K (R,a)", "a | - | K (R,b)"), rows("and | K, (R, *)"));
        with("p", "Prefab");
        assertEquals(list("p | - | K -"), rows("and | K, $this == p"));
    }
}
