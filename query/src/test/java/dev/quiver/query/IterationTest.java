package dev.quiver.query;

import dev.quiver.index.Ids;
import dev.quiver.query.iter.FieldColumn;
import dev.quiver.query.iter.FieldValueException;
import dev.quiver.query.iter.MemberColumn;
import dev.quiver.query.iter.QueryIterator;
import dev.quiver.query.iter.TableResult;
import dev.quiver.query.iter.WorldChangedException;
import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;
import dev.quiver.storage.WorldIteratingException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Table-at-a-time iteration, typed columns, values in results, early stop and writes during iteration. */
class IterationTest extends QueryTestSupport {
    record Position(double x, double y) {}

    record Wrong(String x) {}

    private long position;
    private long weight;

    /** 100 entities with Position (x = i, y = 2i); every third also Tag; 5 with Weight. */
    private void world() {
        position = w.component("Position", Schema.of("x", FieldType.F64, "y", FieldType.F64));
        weight = w.component("Weight", Schema.of("kg", FieldType.F32));
        for (int i = 0; i < 100; i++) {
            long e = e("p" + i);
            w.set(e, position, Map.of("x", (double) i, "y", 2.0 * i));
            if (i % 3 == 0) {
                w.add(e, e("Tag"));
            }
        }
        for (int i = 0; i < 5; i++) {
            w.set(e("p" + i), weight, Map.of("kg", 1.5f * i));
        }
    }

    @Test
    void wholeTablesComeInOneStepWithTypedColumns() {
        world();
        Query q = Query.parse(w, "Position, !Weight");
        List<TableResult> steps = new ArrayList<>();
        q.forEachTable(steps::add);
        // the tables {Position} and {Position, Tag} minus the Weight tables: two steps, 95 rows
        assertEquals(95, steps.stream().mapToInt(TableResult::count).sum());
        assertTrue(steps.size() <= 3, "one step per table, got " + steps);
        double sumX = 0;
        for (TableResult t : steps) {
            assertTrue(t.fieldIsSelf(0));
            assertFalse(t.fieldSet(1));
            assertEquals(position, t.fieldId(0));
            FieldColumn c = t.column(0);
            assertEquals(t.count(), c.size());
            MemberColumn x = c.member("x");
            MemberColumn y = c.member("y");
            for (int i = 0; i < t.count(); i++) {
                assertEquals(2 * x.getDouble(i), y.getDouble(i));
                assertEquals(w.get(t.entity(i), position).get("x"), x.getDouble(i));
                assertEquals(new Position(x.getDouble(i), y.getDouble(i)), c.get(i, Position.class));
                sumX += x.getDouble(i);
            }
            assertThrows(FieldValueException.class, () -> x.getLong(0));
            assertThrows(FieldValueException.class, () -> x.getString(0));
            assertThrows(FieldValueException.class, () -> c.member("z"));
            assertThrows(IndexOutOfBoundsException.class, () -> x.getDouble(t.count()));
            assertThrows(FieldValueException.class, () -> t.column(1), "a Not field is not set");
        }
        assertEquals(4950 - (0 + 1 + 2 + 3 + 4), sumX);
        IterationCheck.check(q);
    }

    @Test
    void valuesThroughQueryRowGet() {
        world();
        Query q = Query.parse(w, "Position, Weight");
        List<QueryRow> rows = q.rows(-1);
        assertEquals(5, rows.size());
        for (QueryRow r : rows) {
            int i = Integer.parseInt(w.name(r.thisEntity()).substring(1));
            assertEquals(new Position(i, 2 * i), r.get(0, Position.class));
            assertEquals(Map.of("x", (double) i, "y", 2.0 * i), r.get(0, Map.class));
            assertEquals((double) i, r.get(0, "x", Double.class));
            assertEquals((double) i, r.get(0, "x", double.class));
            assertEquals(1.5f * i, r.get(1, Float.class), "a one-member component reads as its member");
            assertThrows(FieldValueException.class, () -> r.get(0, Double.class), "two members are not one double");
            assertThrows(FieldValueException.class, () -> r.get(0, Wrong.class));
            assertThrows(FieldValueException.class, () -> r.get(0, "x", String.class));
            assertThrows(FieldValueException.class, () -> r.get(0, "nope", Double.class));
            assertThrows(FieldValueException.class, () -> r.get(1, Long.class));
        }
        QueryRow tagged = Query.parse(w, "Tag, Position").rows(1).get(0);
        assertThrows(FieldValueException.class, () -> tagged.get(0, Map.class), "a tag has no value");
        QueryRow not = Query.parse(w, "Position, !Weight").rows(1).get(0);
        assertThrows(FieldValueException.class, () -> not.get(1, Map.class), "an unset field has no value");
    }

    @Test
    void sharedFieldsAndPairData() {
        world();
        long distance = w.component("Distance", Schema.of("km", FieldType.F64));
        long a = e("a"), b = e("b"), c = e("c");
        w.set(a, Ids.pair(distance, b), Map.of("km", 5.0));
        w.set(a, Ids.pair(distance, c), Map.of("km", 7.0));
        long game = e("Game");
        w.set(game, weight, Map.of("kg", 42f));
        // pair data through a wildcard: one step per matched pair, the values of each
        Query pairs = Query.parse(w, "(Distance, *)");
        List<Double> km = new ArrayList<>();
        pairs.forEachTable(t -> {
            km.add(t.column(0).member("km").getDouble(0));
            assertEquals(t.column(0).member("km").getDouble(0), t.get(0, 0, Double.class));
            return true;
        });
        km.sort(null);
        assertEquals(List.of(5.0, 7.0), km);
        assertEquals(List.of(5.0, 7.0), pairs.stream().map(r -> r.get(0, "km", Double.class)).sorted().collect(Collectors.toList()));
        IterationCheck.check(pairs);
        // a field on a fixed source is shared by every row of the step: no column, one value
        Query shared = Query.parse(w, "Position, Weight(Game)");
        shared.forEachTable(t -> {
            assertFalse(t.fieldIsSelf(1));
            assertEquals(game, t.fieldSource(1));
            assertEquals(game, t.fieldSource(1, t.count() - 1));
            assertEquals(42f, t.get(1, 0, Float.class));
            assertThrows(FieldValueException.class, () -> t.column(1));
            return true;
        });
        assertEquals(100, shared.count());
        IterationCheck.check(shared);
    }

    @Test
    void stoppingEarly() {
        world();
        Query q = Query.parse(w, "Position");
        int[] steps = {0};
        q.forEachTable(t -> ++steps[0] < 1);
        assertEquals(1, steps[0]);
        int[] rows = {0};
        q.each(r -> ++rows[0] < 7);
        assertEquals(7, rows[0]);
        assertEquals(3, q.rows(3).size());
        assertEquals(List.of(q.rows(1).get(0)), q.stream().limit(1).collect(Collectors.toList()));
        try (QueryIterator it = q.iter()) {
            assertTrue(it.hasNext());
            it.next();
            it.close();
            assertFalse(it.hasNext());
        }
        // nothing stays open: the world takes writes again after early stops
        w.add(e("p1"), e("Tag"));
        assertTrue(w.has(e("p1"), e("Tag")));
    }

    @Test
    void writesDuringACallbackIterationAreRefusedAndChangeNothing() {
        world();
        Query q = Query.parse(w, "Position");
        long p5 = e("p5");
        long before = w.writeCount();
        assertThrows(WorldIteratingException.class, () -> q.each(r -> {
            w.delete(p5);
            return true;
        }));
        assertThrows(WorldIteratingException.class, () -> q.forEachTable(t -> {
            w.add(t.entity(0), e("Tag"));
            return true;
        }));
        assertThrows(WorldIteratingException.class, () -> q.forEach(r -> w.entity()));
        assertEquals(before, w.writeCount(), "refused before writing");
        assertTrue(w.isAlive(p5));
        assertEquals(100, q.count());
        // reading inside a callback, even another query, is fine
        long[] n = {0};
        q.each(r -> {
            n[0] += Query.parse(w, "Weight").count();
            return true;
        });
        assertEquals(500, n[0]);
        // and afterwards the world takes writes again
        w.delete(p5);
        assertEquals(99, q.count());
    }

    @Test
    void writesDuringAPullIterationFailFast() {
        world();
        Query q = Query.parse(w, "Position, ?Tag");
        QueryIterator it = q.iter();
        TableResult first = it.next();
        long e0 = first.entity(0);
        w.delete(e0);
        assertThrows(WorldChangedException.class, it::hasNext);
        assertFalse(it.hasNext(), "the iteration is over after it failed");
        assertThrows(WorldChangedException.class, () -> first.entity(0), "a kept step refuses its moved rows");
        assertThrows(WorldChangedException.class, () -> first.column(0));
        var stream = q.stream().iterator();
        stream.next();
        w.add(e("p7"), e("Tag"));
        assertThrows(WorldChangedException.class, () -> {
            while (stream.hasNext()) {
                stream.next();
            }
        });
        // a row already made keeps reading values by entity; a deleted source is a clear error
        QueryRow r = q.rows(1).get(0);
        assertSame(Double.class, r.get(0, "x", Double.class).getClass());
        w.delete(r.thisEntity());
        assertThrows(dev.quiver.storage.DeadEntityException.class, () -> r.get(0, Map.class));
    }

    @Test
    void variablesAndSingleRowSteps() {
        transitive("LocatedIn");
        with("sf", "(LocatedIn, california)", "City");
        with("la", "(LocatedIn, california)", "City");
        with("california", "(LocatedIn, usa)");
        with("alice", "(LocatedIn, sf)");
        // a transitive walk from a fixed target finds $this entity by entity: sources that follow
        // each other in the walk and in one table's rows (sf, la) come as one step, the others alone
        Query down = Query.parse(w, "(LocatedIn, usa)");
        var counts = new ArrayList<Integer>();
        down.forEachTable(t -> {
            counts.add(t.count());
            for (int i = 0; i < t.count(); i++) {
                assertEquals(t.entity(i), t.fieldSource(0, i));
            }
            return true;
        });
        assertEquals(List.of(1, 2, 1), counts);
        IterationCheck.check(down);
        Query vars = Query.parse(w, "(LocatedIn, $p), City($p)");
        vars.forEachTable(t -> {
            assertTrue(w.has(t.variable("p"), w.lookup("City")), "the variable is the same for the step's rows");
            assertThrows(IllegalArgumentException.class, () -> t.variable("nope"));
            return true;
        });
        IterationCheck.check(vars);
        Query noThis = Query.parse(w, "LocatedIn($x, california)");
        noThis.forEachTable(t -> {
            assertEquals(1, t.count());
            assertEquals(0, t.entity(0));
            assertNull(t.table());
            return true;
        });
        IterationCheck.check(noThis);
        IterationCheck.check(Query.parse(w, "(LocatedIn, $x)"));
        IterationCheck.check(Query.parse(w, "!City"));
    }
}
