package dev.quiver.storage;

import dev.quiver.index.Ids;
import dev.quiver.storage.table.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The checker's invariants of toggle companions ({@code check.Companions}): an in-memory model is
 * set up through the rules, then broken on purpose by moving entities past the rules; each break is
 * reported by name.
 */
class CompanionCheckTest {
    private WorldModel m;
    private int rel, e, t, u, companion;

    @BeforeEach
    void setUp() {
        m = new WorldModel();
        m.entities.reserve(Builtin.FIRST_USER_INDEX);
        m.tables.create(0, new long[0]);
        m.hierarchy.placeBuiltins();
        rel = Ids.index(m.hierarchy.create("R", 0));
        e = Ids.index(m.hierarchy.create("e", 0));
        t = Ids.index(m.hierarchy.create("t", 0));
        u = Ids.index(m.hierarchy.create("u", 0));
        m.rules.add(rel, Builtin.CAN_TOGGLE);
        m.rules.add(e, Ids.pairOfIndices(rel, t));
        m.toggles.check(e, Ids.pairOfIndices(rel, t));
        m.toggles.set(e, Ids.pairOfIndices(rel, t), false);
        companion = m.traits.companion(rel);
        assertTrue(companion != 0);
        assertEquals(List.of(), m.checker.check(null));
    }

    private String problems() {
        return String.join("\n", m.checker.check(null));
    }

    private void addPastTheRules(int idx, long id) {
        m.moves.move(idx, m.tables.forType(Types.insert(m.moves.tableOf(idx).type(), id)));
    }

    @Test
    void aPairBothEnabledAndDisabledIsReported() {
        addPastTheRules(e, Ids.pairOfIndices(rel, t));
        assertTrue(problems().contains("holds (R,t) both enabled and disabled"), problems());
    }

    @Test
    void twoPairsOfAnExclusiveRelationshipCountingDisabledOnesAreReported() {
        addPastTheRules(rel, Builtin.EXCLUSIVE);
        assertEquals(List.of(), m.checker.check(null), "Exclusive is not mirrored: R's rules apply to R~ directly");
        addPastTheRules(e, Ids.pairOfIndices(rel, u));
        assertTrue(problems().contains("more than one pair of Exclusive R, counting disabled ones"), problems());
    }

    @Test
    void aCompanionOutOfStepWithItsRelationshipIsReported() {
        addPastTheRules(rel, Builtin.PAIR_IS_TAG);
        assertTrue(problems().contains("toggle companion R.~ does not mirror the traits of R"), problems());
        m.moves.move(rel, m.tables.forType(Types.remove(m.moves.tableOf(rel).type(), Builtin.CAN_TOGGLE)));
        assertTrue(problems().contains("R has disabled pairs but lacks CanToggle"), problems());
        m.schemas.put(companion, Schema.of("n", FieldType.I64));
        assertTrue(problems().contains("toggle companion R.~ has another schema than R"), problems());
    }

    @Test
    void aMarkedEntityThatIsNoCompanionIsReported() {
        addPastTheRules(u, Builtin.DISABLED_RELATIONSHIP);
        assertTrue(problems().contains("toggle companion u is not the child of a user relationship"), problems());
    }
}
