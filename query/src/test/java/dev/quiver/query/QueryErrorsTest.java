package dev.quiver.query;

import dev.quiver.index.Ids;
import dev.quiver.error.BadInputException;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.UnknownNameException;
import dev.quiver.storage.World;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Errors at query creation: each names the token and its column (FEATURES.md QL-23, DESIGN
 * contract 4). All cases share one read-only world.
 */
class QueryErrorsTest {
    @TempDir
    static Path dir;
    static World w;

    @BeforeAll
    static void world() {
        w = World.create(dir.resolve("world"));
        w.transaction(x -> {
            x.add(x.entity("e"), x.entity("Position"), Ids.pair(x.entity("Likes"), x.entity("bob")));
            x.add(x.entity("LocatedIn"), Builtin.TRANSITIVE);
            x.add(x.entity("x"), Ids.pair(x.entity("LocatedIn"), x.entity("e")));
            x.entity("Velocity");
        });
    }

    @AfterAll
    static void close() {
        w.close();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "`Unknown`                          | Unknown    | 1",
        "`Position, Velocityy`              | Velocityy  | 11",
        "`(Likes, nobody)`                  | nobody     | 9",
        "`(Hates, *)`                       | Hates      | 2",
        "`Likes(nobody, $x)`                | nobody     | 7",
        "`Position(e.child)`                | e.child    | 10",
        "`SpaceShip, $this == Enterprise`   | SpaceShip  | 1",
        "`Position, $this == Enterprise`    | Enterprise | 20",
        "`!(Likes, bob), Ghost`             | Ghost      | 16",
        "`Position, !{ Velocity, Ghost }`   | Ghost      | 24",
        "`Position(up Ghost)`               | Ghost      | 13",
    })
    void unknownNamesNameTheNameAndColumn(String query, String name, int column) {
        UnknownQueryNameException ex = assertThrows(UnknownQueryNameException.class, () -> Query.parse(w, query));
        assertEquals("unknown name '" + name + "' at column " + column, ex.getMessage());
        assertEquals(name, ex.token());
        assertEquals(column, ex.column());
        assertInstanceOf(UnknownNameException.class, ex);
        assertInstanceOf(BadInputException.class, ex);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "`(LocatedIn, e|up)`                | `unsupported: traversal 'up' on a term target at column 15`",
        "`Position || Position(e)`          | `unsupported: '||' alternatives with different sources at column 13`",
    })
    void unsupportedConstructs(String query, String message) {
        UnsupportedQueryException ex = assertThrows(UnsupportedQueryException.class, () -> Query.parse(w, query));
        assertEquals(message, ex.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "`Position, $this != $other, Position($other)` | `variable '$other' is read by '!=' before a term binds it at column 20` | 20",
        "`$x ~= \"a\", Position($x)`                     | `variable '$x' is read by '~=' before a term binds it at column 1` | 1",
        "`Position, $this == $y, Position($y)`           | `variable '$y' is read by '==' before a term binds it at column 20` | 20",
        "`LocatedIn($x, $x)`                             | `variable '$x' is both source and target of acyclic relationship 'LocatedIn' at column 15` | 15",
        "`(LocatedIn, $this)`                            | `variable '$this' is both source and target of acyclic relationship 'LocatedIn' at column 13` | 13",
        "`Position, (Likes *)`                           | `unexpected '*' at column 18` | 18",
        "`Position, Position($x.child)`                  | `variable '$x' is read by the term at column 11 but no term binds it` | 11",
    })
    void invalidQueries(String query, String message, int column) {
        QuerySyntaxException ex = assertThrows(QuerySyntaxException.class, () -> Query.parse(w, query));
        assertEquals(message, ex.getMessage());
        assertEquals(column, ex.column());
    }

    /** At most 256 terms (the engine recurses once per term): the 257th is refused with its column. */
    @Test
    void aQueryHoldsAtMost256Terms() {
        String ok = "Position, ".repeat(255) + "Position";
        assertEquals(1, Query.parse(w, ok).count());
        var e = assertThrows(QuerySyntaxException.class, () -> Query.parse(w, ok + ", Velocity"));
        assertEquals(ok.length() + 3, e.column());
        assertThrows(QuerySyntaxException.class, () -> Query.parse(w, "Position" + " || Position".repeat(256)));
        assertThrows(QuerySyntaxException.class,
            () -> Query.parse(w, "Position, !{ " + "Velocity, ".repeat(255) + "Velocity }"));
    }

    /** A *From term counts E's ids against the same bound. */
    @Test
    void aFromTermExpandingPastTheBoundIsRefused() {
        long big = w.transactionResult(x -> {
            long b = x.entity("Big");
            for (int i = 0; i < 300; i++) {
                x.add(b, x.entity("Tag" + i));
            }
            return b;
        });
        try {
            var e = assertThrows(QueryValidationException.class, () -> Query.parse(w, "Position, and | Big"));
            assertEquals(11, e.column());
        } finally {
            w.delete(big);
        }
    }

    @Test
    void quotedNamesNeedNotExist() {
        assertEquals(0, Query.parse(w, "Position, $this == \"Enterprise\"").count());
    }
}
