package dev.quiver.storage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Field ranges (Flecs meta member {@code range}; FEATURES TEC-06, the schema-level constraint the
 * CLI gets instead of a validator callback): every set, refined value and default is checked; a
 * value outside is refused with {@link FieldRangeException} and changes nothing; the range is part
 * of the schema, so it persists and a different range is a different schema.
 */
class SchemaRangeTest {
    @TempDir
    Path tmp;

    private static Schema health() {
        return Schema.of("value", FieldType.I64, "regen", FieldType.F64)
            .withRange("value", 0, 100).withRange("regen", 0, Double.POSITIVE_INFINITY).withDefaults(Map.of("value", 100));
    }

    @Test
    void setsOutsideTheRangeAreRefusedAndChangeNothing() {
        try (World w = World.create(tmp.resolve("w"))) {
            long h = w.component("Health", health());
            long e = w.entity("e");
            w.set(e, h, Map.of("value", 40));
            var ex = assertThrows(FieldRangeException.class, () -> w.set(e, h, Map.of("value", 101)));
            assertEquals("Health field 'value': 101 lies outside its range [0..100]", ex.getMessage());
            assertThrows(FieldRangeException.class, () -> w.set(e, h, Map.of("regen", -0.5)));
            assertThrows(FieldRangeException.class, () -> w.set(e, h, new Object[] {-1L, 1.0}));
            assertEquals(Map.of("value", 40L, "regen", 0.0), w.get(e, h));
            // the bounds themselves are in; an open end has no bound
            w.set(e, h, Map.of("value", 0, "regen", 1e300));
            w.set(e, h, Map.of("value", 100));
            assertEquals(Map.of("value", 100L, "regen", 1e300), w.get(e, h));
            // a data-less add stores the default, which the range admits
            long f = w.entity("f");
            w.add(f, h);
            assertEquals(100L, w.get(f, h).get("value"));
            // a validator's refinement is checked too
            w.validate(h, (x, id, v) -> Map.of("value", 500));
            assertThrows(FieldRangeException.class, () -> w.set(f, h, Map.of("value", 1)));
            assertEquals(100L, w.get(f, h).get("value"));
            assertEquals(List.of(), w.check());
        }
    }

    @Test
    void badRangesAndDefaultsOutsideAreRefused() {
        Schema base = Schema.of("value", FieldType.I64, "name", FieldType.STRING, "on", FieldType.BOOL);
        assertThrows(ValueException.class, () -> base.withRange("name", 0, 1));
        assertThrows(ValueException.class, () -> base.withRange("on", 0, 1));
        assertThrows(ValueException.class, () -> base.withRange("nope", 0, 1));
        assertThrows(ValueException.class, () -> base.withRange("value", 5, 1));
        assertThrows(ValueException.class, () -> base.withRange("value", Double.NaN, 1));
        var ex = assertThrows(FieldRangeException.class, () -> base.withRange("value", 0, 10).withDefaults(Map.of("value", 11)));
        assertTrue(ex.getMessage().contains("the default of field 'value': 11"), ex.getMessage());
        assertThrows(FieldRangeException.class, () -> base.withDefaults(Map.of("value", -1)).withRange("value", 0, 10));
        assertEquals("{value: i64 [0..10], name: string, on: bool}", base.withRange("value", 0, 10).toString());
        assertEquals("{value: i64 [..-2.5]}", Schema.of("value", FieldType.I64)
            .withRange("value", Double.NEGATIVE_INFINITY, -2.5).toString());
    }

    @Test
    void theRangePersistsAndIsPartOfTheSchema() {
        Path dir = tmp.resolve("p");
        try (World w = World.create(dir)) {
            w.component("Health", health());
        }
        try (World w = World.open(dir)) {
            long h = w.resolve("Health");
            assertEquals(health(), w.schema(h));
            assertThrows(FieldRangeException.class, () -> w.set(w.entity("e"), h, Map.of("value", -5)));
            // the same schema again changes nothing; another range is another schema
            w.component("Health", health());
            assertThrows(SchemaConflictException.class, () -> w.component("Health",
                Schema.of("value", FieldType.I64, "regen", FieldType.F64).withRange("value", 0, 200).withDefaults(Map.of("value", 100))));
        }
    }
}
