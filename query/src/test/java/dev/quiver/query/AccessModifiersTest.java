package dev.quiver.query;

import dev.quiver.query.parse.InOut;
import dev.quiver.index.Ids;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Access modifiers {@code [in]}, {@code [out]}, {@code [inout]}, {@code [none]}, {@code [filter]}
 * (FEATURES.md QL-11, QS-25): the access of each field, written or by default, in
 * {@link Query#fieldAccess(int)} and in the plan text, and the refused combinations.
 */
class AccessModifiersTest extends QueryTestSupport {

    private void world() {
        long pos = w.component("Position", Schema.of("x", FieldType.F64));
        long vel = w.component("Velocity", Schema.of("x", FieldType.F64));
        long mass = w.component("Mass", Schema.of("kg", FieldType.F64));
        long weight = w.component("Weight", Schema.of("kg", FieldType.F64));
        long likes = w.component("Likes", Schema.of("how", FieldType.I32));
        long shared = w.component("Shared", Schema.of("n", FieldType.I32));
        w.add(shared, pair("OnInstantiate", "Inherit"));
        long game = with("game", "Tag");
        w.set(game, pos, Map.of("x", 1.0));
        long base = with("base", "Prefab");
        w.set(base, shared, Map.of("n", 1));
        long ship = with("ship", "(IsA,base)", "(ChildOf,game)", "(Tagged,game)");
        w.set(ship, pos, Map.of("x", 1.0));
        w.set(ship, vel, Map.of("x", 1.0));
        w.set(ship, mass, Map.of("kg", 1.0));
        w.set(ship, weight, Map.of("kg", 1.0));
        w.set(ship, Ids.pair(likes, game), Map.of("how", 1));
        w.add(e("Cfg"), Builtin.SINGLETON);
    }

    private InOut[] access(String query) {
        Query q = Query.parse(w, query);
        InOut[] out = new InOut[q.fieldCount()];
        for (int f = 0; f < out.length; f++) {
            out[f] = q.fieldAccess(f);
        }
        return out;
    }

    @Test
    void defaultsFollowWhereTheDataComesFrom() {
        world();
        assertEquals(java.util.List.of(InOut.INOUT, InOut.IN, InOut.IN, InOut.NONE, InOut.NONE, InOut.NONE),
            java.util.List.of(access("Position, Position(game), Position(up), Tag(game), !Velocity, (Tagged, game)")));
        assertEquals(java.util.List.of(InOut.IN, InOut.INOUT, InOut.INOUT, InOut.NONE, InOut.NONE),
            java.util.List.of(access("Shared, (Likes, game), (Likes, *), (*, game), $this != game")));
        assertEquals(java.util.List.of(InOut.INOUT, InOut.NONE, InOut.IN),
            java.util.List.of(access("Position, Velocity || Tag, Position($x)")));
        assertEquals(java.util.List.of(InOut.INOUT, InOut.NONE), java.util.List.of(access("?Position, Position(_)")));
        // an Or field has data only when every alternative carries the same component (Flecs: same type)
        assertEquals(java.util.List.of(InOut.NONE, InOut.INOUT),
            java.util.List.of(access("Mass || Weight, (Likes, game) || (Likes, game.ship)")));
    }

    @Test
    void writtenModifiersAreKept() {
        world();
        assertEquals(java.util.List.of(InOut.IN, InOut.OUT, InOut.INOUT, InOut.NONE, InOut.FILTER, InOut.IN),
            java.util.List.of(access("[in] Position, [out] Velocity, [inout] Position(game), [none] Mass, "
                + "[filter] Weight, [in] Tag")));
        assertEquals(java.util.List.of(InOut.INOUT, InOut.OUT), java.util.List.of(access("Position, [out] Velocity || Mass")));
        assertEquals(java.util.List.of(InOut.NONE, InOut.FILTER), java.util.List.of(access("Position, [none] !Velocity, [filter] $this == game.ship"))
            .subList(1, 3));
    }

    @Test
    void planTextShowsTheAccessOfFieldsWithData() {
        world();
        assertEquals("0: WITH Position(game) field=3 access=in\n"
            + "1: SELECT Velocity($this) field=1 access=out binds=$this per-table\n"
            + "2: WITH Position($this) field=0 access=inout\n"
            + "3: WITH Tag($this) field=2\n",
            Query.parse(w, "Position, [out] Velocity, Tag, Position(game)").plan());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "`Position, [in] !{ Velocity }`      | `invalid access modifier [in] on '[in] !{Velocity}': a query scope has no field, at column 11` | 11",
        "`Position, [out] $this == game.ship`     | `invalid access modifier [out] on '[out] $this == game.ship': an equality term reads no component, at column 11` | 11",
        "`[in] Position || [out] Velocity`   | `invalid access modifier [out] on '[out] Velocity': the alternatives of one '||' field have different access modifiers ([in] before), at column 18` | 18",
        "`Position, [filter] and | base`     | `invalid access modifier [filter] on '[filter] and | base': a *From term's field never has data; only [none] is allowed, at column 11` | 11",
    })
    void refusedCombinationsNameTheTermAndColumn(String query, String message, int column) {
        world();
        QueryValidationException ex = assertThrows(QueryValidationException.class, () -> Query.parse(w, query));
        assertEquals(message, ex.getMessage());
        assertEquals(column, ex.column());
    }
}
