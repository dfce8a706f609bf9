package dev.quiver.query;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The planner's term order and operation choice, checked as golden plan text (STYLE.md habit 3).
 * Each step line reads: index, operation, term (id and source in parentheses), the field it
 * writes, the variables it binds or requires, and "per-table" when counting may multiply by a
 * table's row count.
 */
class PlanTest extends QueryTestSupport {

    private void world() {
        transitive("LocatedIn", "KindOf");
        for (int i = 0; i < 20; i++) {
            with("p" + i, "Person", "(LocatedIn,town" + (i % 3) + ")");
        }
        with("town0", "City", "(LocatedIn,country)");
        with("town1", "City", "(LocatedIn,country)");
        with("dog", "(Lexname,noun_animal)", "(KindOf,animal)");
        with("Earth", "Planet");
        with("ship", "SpaceShip", "(DockedTo,Earth)");
    }

    private void assertPlan(String query, String... lines) {
        assertEquals(String.join("\n", lines) + "\n", Query.parse(w, query).plan(), query);
    }

    @Test
    void smallerGeneratorRunsFirstAndBindsTheTargetOfTheTransitiveTerm() {
        world();
        String[] plan = {
            "0: SELECT City($p) field=1 binds=$p",
            "1: TRANS_DOWN (LocatedIn,$p)($this) field=0 binds=$this",
        };
        assertPlan("(LocatedIn, $p), City($p)", plan);
    }

    @Test
    void notTermBecomesAReachabilityTestAfterItsSourceIsBound() {
        world();
        assertPlan("(Lexname, noun_animal), !(KindOf, animal)",
            "0: SELECT (Lexname,noun_animal)($this) field=0 binds=$this per-table",
            "1: NOT field=1",
            "     TRANS_TEST (KindOf,animal)($this)");
    }

    @Test
    void dependentTermWaitsForTheOptionalTerm() {
        world();
        assertPlan("SpaceShip, ?(DockedTo, $planet), Planet($planet)",
            "0: SELECT SpaceShip($this) field=0 binds=$this per-table",
            "1: OPTIONAL field=1 binds=$planet",
            "     WITH (DockedTo,$planet)($this) field=1 binds=$planet",
            "2: WITH Planet($planet) field=2 requires=$planet");
    }

    @Test
    void orChainAndNotScope() {
        world();
        assertPlan("Person, Person || City, !{ City, (LocatedIn, $x) }",
            "0: SELECT Person($this) field=0 binds=$this per-table",
            "1: OR field=1",
            "     | WITH Person($this) field=1",
            "     | WITH City($this) field=1",
            "2: NOT_SCOPE",
            "     0: WITH City($this)",
            "     1: TRANS_UP (LocatedIn,$x)($this) binds=$x");
        assertPlan("Person || City",
            "0: OR field=0 binds=$this",
            "     | SELECT Person($this) field=0 binds=$this",
            "     | SELECT City($this) field=0 binds=$this",
            "     ? WITH Person($this)");
    }

    @Test
    void onlyNotTermsEnumerateEveryEntity() {
        world();
        assertPlan("!Person",
            "0: EACH $this binds=$this per-table",
            "1: NOT field=0",
            "     WITH Person($this)");
    }

    @Test
    void equalityBindsBeforeGenerators() {
        world();
        assertPlan("Person, $this == p1",
            "0: PRED_EQ $this == p1 field=1 binds=$this",
            "1: WITH Person($this) field=0");
    }

    @Test
    void transitiveOperations() {
        world();
        assertPlan("LocatedIn(p1, $x)", "0: TRANS_UP (LocatedIn,$x)(p1) field=0 binds=$x");
        assertPlan("(LocatedIn, $x)", "0: TRANS_ALL (LocatedIn,$x)($this) field=0 binds=$this,$x per-table");
        assertPlan("(LocatedIn, country)", "0: TRANS_DOWN (LocatedIn,country)($this) field=0 binds=$this");
        assertPlan("LocatedIn(p1, country)", "0: TRANS_TEST (LocatedIn,country)(p1) field=0");
        assertPlan("(LocatedIn, *|self)", "0: SELECT (LocatedIn,*|self)($this) field=0 binds=$this per-table");
        assertPlan("(LocatedIn, _)", "0: SELECT (LocatedIn,_)($this) field=0 binds=$this per-table");
    }

    @Test
    void fromOperatorsExpandTheIdsOfE() {
        // E's ids in type order (pairs sort first), Prefab left out
        world();
        with("Crew", "Prefab", "Person", "(LocatedIn,town0)");
        assertPlan("and | Crew",
            "0: AND_FROM Crew($this) field=0 binds=$this",
            "     0: SELECT (LocatedIn,town0)($this) binds=$this",
            "     1: WITH Person($this)");
        assertPlan("City, or | Crew",
            "0: SELECT City($this) field=0 binds=$this per-table",
            "1: OR_FROM Crew($this) field=1",
            "     OR",
            "       | WITH (LocatedIn,town0)($this)",
            "       | WITH Person($this)");
        assertPlan("Person, not | Crew",
            "0: SELECT Person($this) field=0 binds=$this per-table",
            "1: NOT_FROM Crew($this) field=1",
            "     OR",
            "       | WITH (LocatedIn,town0)($this)",
            "       | WITH Person($this)");
        assertPlan("or | Crew",
            "0: OR_FROM Crew($this) field=0 binds=$this",
            "     OR binds=$this",
            "       | SELECT (LocatedIn,town0)($this) binds=$this",
            "       | SELECT Person($this) binds=$this",
            "       ? WITH (LocatedIn,town0)($this)");
    }
}
