package dev.quiver.query;

import dev.quiver.query.parse.InOut;
import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Member-value terms {@code Comp.member(src, T)} over entity members (FEATURES.md QL-19, QS-23,
 * CMP-07, CMP-08; the Flecs Queries manual's "Member Value Queries" example with
 * {@code Movement.value}).
 */
class MemberValueTest extends QueryTestSupport {
    long movement;

    /** Movement {value: entity} on three units; Left, Right are plain entities. */
    private void units() {
        movement = w.component("Movement", Schema.of("speed", FieldType.F32, "value", FieldType.ENTITY));
        move("u1", "Left");
        move("u2", "Right");
        move("u3", "Left");
        with("u3", "Flying");
        with("u4", "Flying");
        w.set(e("u4"), movement, Map.of("speed", 2.0f)); // value 0: holds no entity
        with("Right", "Direction");
    }

    private void move(String unit, String direction) {
        w.set(e(unit), movement, Map.of("value", e(direction)));
    }

    @Test
    void fixedValue() {
        units();
        assertEquals(list("u1 | - | (Movement,Left)", "u3 | - | (Movement,Left)"), rows("Movement.value($this, Left)"));
        assertEquals(list("u1", "u3"), these("(Movement.value, Left)"));
        assertEquals(list("u3 | - | Flying (Movement,Left)"), rows("Flying, Movement.value($this, Left)"));
        assertEquals(list("u2", "u4"), these("Movement, !Movement.value($this, Left)"));
        assertEquals(list("u1", "u2", "u3"), these("Movement.value($this, Left) || Movement.value($this, Right)"));
        assertEquals(0, count("Movement.value($this, Flying)"));
    }

    @Test
    void wildcardReportsTheValueAndVariablesBindIt() {
        units();
        assertEquals(list("u1 | - | (Movement,Left)", "u2 | - | (Movement,Right)", "u3 | - | (Movement,Left)"),
            rows("Movement.value($this, *)"));
        assertEquals(list("u1 | $d=Left | (Movement,Left)", "u2 | $d=Right | (Movement,Right)",
            "u3 | $d=Left | (Movement,Left)"), rows("Movement.value($this, $d)"));
        // the manual's example: combined with an inequality
        assertEquals(list("u2 | $direction=Right | (Movement,Right) -"),
            rows("Movement.value($this, $direction), $direction != Left"));
        // a bound variable compares
        assertEquals(list("u2 | $d=Right | Direction@Right (Movement,Right)"),
            rows("Direction($d), Movement.value($this, $d)"));
        assertEquals(list("u1 | $u=u1 | (Movement,Left) (Movement,Left)", "u1 | $u=u3 | (Movement,Left)@u3 (Movement,Left)",
            "u3 | $u=u1 | (Movement,Left)@u1 (Movement,Left)", "u3 | $u=u3 | (Movement,Left) (Movement,Left)"),
            rows("Movement.value($u, Left), Movement.value($this, Left)"));
    }

    @Test
    void fixedAndLookupSources() {
        units();
        assertEquals(list("- | $d=Left | (Movement,Left)@u1"), rows("Movement.value(u1, $d)"));
        assertEquals(1, count("Movement.value(u2, Right)"));
        assertEquals(0, count("Movement.value(u2, Left)"));
        assertEquals(0, count("Movement.value(Right, *)"));
        with("u1.cockpit", "Seat");
        move("u1.cockpit", "Right");
        assertEquals(list("u1"), these("Movement, Movement.value($this.cockpit, Right)"));
    }

    @Test
    void zeroAndDanglingMembersHoldNoEntity() {
        units();
        long gone = e("Gone");
        move("u4", "Gone");
        assertEquals(list("u4"), these("Movement.value($this, Gone)"));
        w.delete(gone);
        // the member still holds the dead id (cleanup never touches members, CMP-08)
        assertEquals(gone, (long) (Long) w.get(e("u4"), movement).get("value"));
        assertEquals(list("u1", "u2", "u3"), these("Movement.value($this, *)"));
        assertEquals(list("u1", "u2", "u3"), these("Movement.value($this, $d)"));
        assertEquals(list("u1", "u2", "u3"), these("Movement.value($this, _)"));
    }

    @Test
    void plansAndAccess() {
        units();
        Query q = Query.parse(w, "Flying, Movement.value($this, $d)");
        assertEquals("0: SELECT Flying($this) field=0 binds=$this\n"
            + "1: MEMBER_WITH (Movement.value,$d)($this) field=1 access=inout binds=$d\n", q.plan());
        assertEquals(InOut.INOUT, q.fieldAccess(1));
        assertEquals("0: MEMBER_SELECT (Movement.value,Left)($this) field=0 access=inout binds=$this\n",
            Query.parse(w, "Movement.value($this, Left)").plan());
        assertEquals(InOut.IN, Query.parse(w, "Movement.value(u1, *)").fieldAccess(0));
        assertEquals(InOut.IN, Query.parse(w, "[in] Movement.value($this, *)").fieldAccess(0));
    }

    @Test
    void theLongestPrefixNamingAComponentWithSuchAMemberWins() {
        units();
        // component game.Move with member value, and a component game with member Move.value
        long g = w.component("game", Schema.of("Move.value", FieldType.ENTITY));
        long gm = w.component("game.Move", Schema.of("value", FieldType.ENTITY));
        w.set(e("u1"), gm, Map.of("value", e("Right")));
        w.set(e("u2"), g, Map.of("Move.value", e("Right")));
        assertEquals(list("u1"), these("game.Move.value($this, Right)"));
        // an entity at the path of a member reading makes the name ambiguous
        e("Movement.value");
        QueryValidationException ex = assertThrows(QueryValidationException.class,
            () -> Query.parse(w, "Flying, Movement.value($this, Left)"));
        assertEquals("ambiguous name 'Movement.value' in 'Movement.value($this,Left)': it is both the entity"
            + " 'Movement.value' and member 'value' of component 'Movement' at column 9", ex.getMessage());
        assertEquals(9, ex.column());
        // a dotted path without a member reading is an ordinary name
        with("house.kitchen", "Room");
        with("lamp", "(In,house.kitchen)");
        assertEquals(list("lamp"), these("(In, house.kitchen)"));
        with("u2", "Movement.child");
        assertEquals(list("u2"), these("Movement.child"));
    }

    @Test
    void badMemberTermsNameTheTermAndColumn() {
        units();
        QueryValidationException noValue = assertThrows(QueryValidationException.class,
            () -> Query.parse(w, "Flying, Movement.value"));
        assertEquals("member-value term 'Movement.value' needs a value to compare with, as in Movement.value($this, T),"
            + " Movement.value($this, *) or Movement.value($this, $v), at column 9", noValue.getMessage());
        assertEquals(9, assertThrows(QueryValidationException.class,
            () -> Query.parse(w, "Flying, Movement.value(u1)")).column());
        UnsupportedQueryException scalar = assertThrows(UnsupportedQueryException.class,
            () -> Query.parse(w, "Movement.speed($this, Left)"));
        assertEquals("unsupported: member-value term on member 'speed' of type f32 in 'Movement.speed($this,Left)'"
            + " (only entity members are compared) at column 1", scalar.getMessage());
        UnsupportedQueryException up = assertThrows(UnsupportedQueryException.class,
            () -> Query.parse(w, "Flying, Movement.value($this|up, Left)"));
        assertEquals(30, up.column());
        UnsupportedQueryException any = assertThrows(UnsupportedQueryException.class,
            () -> Query.parse(w, "Movement.value(_, Left)"));
        assertEquals(16, any.column());
        UnknownQueryNameException unknown = assertThrows(UnknownQueryNameException.class,
            () -> Query.parse(w, "Movement.value($this, Nowhere)"));
        assertEquals(23, unknown.column());
        UnknownQueryNameException noMember = assertThrows(UnknownQueryNameException.class,
            () -> Query.parse(w, "Movement.direction($this, Left)"));
        assertEquals("unknown name 'Movement.direction' at column 1", noMember.getMessage());
        w.add(movement, pair("OnInstantiate", "Inherit"));
        assertThrows(UnsupportedQueryException.class, () -> Query.parse(w, "Movement.value($this, Left)"));
    }
}
