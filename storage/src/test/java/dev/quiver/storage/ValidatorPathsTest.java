package dev.quiver.storage;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TEC-06 beyond {@code set}: a validator also runs on the value a data-less add stores (the
 * schema's defaults, or an Inherit id's value copied from a base) and on the Override values an
 * IsA instantiation copies; it refuses (the whole add changes nothing) or refines (the refined
 * value is stored). An id already owned is not validated again by an add.
 */
class ValidatorPathsTest {
    @TempDir
    Path tmp;
    private World w;
    private long speed;
    private final List<String> seen = new ArrayList<>();

    @BeforeEach
    void open() {
        w = World.create(tmp.resolve("w"));
        speed = w.component("Speed", Schema.of("v", FieldType.F64).withDefaults(Map.of("v", 5.0)));
    }

    @AfterEach
    void close() {
        assertEquals(List.of(), w.check());
        w.close();
    }

    /** Refuses a negative speed, clamps one above 100, records what it saw. */
    private void clampingValidator() {
        w.validate(speed, (e, id, value) -> {
            double v = (Double) value.get("v");
            seen.add(w.path(e) + " " + v);
            if (v < 0) {
                throw new ValidationException("speed must not be negative, got " + v);
            }
            return v > 100 ? Map.of("v", 100.0) : value;
        });
    }

    @Test
    void dataLessAddValidatesTheDefault() {
        clampingValidator();
        long e = w.entity("e");
        w.add(e, speed);
        assertEquals(List.of("e 5.0"), seen);
        assertEquals(Map.of("v", 5.0), w.get(e, speed));
        // adding an id already owned stores nothing new: not validated again
        w.add(e, speed);
        assertEquals(1, seen.size());
        // a refusing default refuses the add, which changes nothing
        long slow = w.component("Slow", Schema.of("v", FieldType.F64).withDefaults(Map.of("v", -1.0)));
        w.validate(slow, (x, id, value) -> {
            throw new ValidationException("no default speed for " + w.path(x));
        });
        long[] before = w.type(e);
        var ex = assertThrows(ValidationException.class, () -> w.add(e, slow));
        assertTrue(ex.getMessage().contains("no default speed for e"), ex.getMessage());
        assertArrayEquals(before, w.type(e));
        // the bulk add too
        long f = w.entity("f");
        long tag = w.entity("Tag");
        assertThrows(ValidationException.class, () -> w.add(f, tag, slow));
        assertFalse(w.has(f, tag), "the whole bulk add changed nothing");
        // a refining validator stores the refined default
        long fast = w.component("Fast", Schema.of("v", FieldType.F64).withDefaults(Map.of("v", 500.0)));
        w.validate(fast, (x, id, value) -> Map.of("v", 99.0));
        w.add(f, tag, fast);
        assertEquals(Map.of("v", 99.0), w.get(f, fast));
    }

    @Test
    void inheritValueCopiedByAnAddIsValidated() {
        w.add(speed, w.pair(Builtin.ON_INSTANTIATE, Builtin.INHERIT));
        long base = w.entity("base");
        w.set(base, speed, Map.of("v", 500.0));
        long inst = w.entity("inst");
        w.add(inst, w.pair(Builtin.IS_A, base));
        clampingValidator();
        w.add(inst, speed); // owns a copy of the inherited value now: clamped
        assertEquals(List.of("inst 500.0"), seen);
        assertEquals(Map.of("v", 100.0), w.get(inst, speed));
        assertEquals(Map.of("v", 500.0), w.get(base, speed), "the base is unchanged");
    }

    @Test
    void prefabOverrideCopiesAreValidated() {
        long prefab = w.entity("Ship");
        w.add(prefab, Builtin.PREFAB);
        w.set(prefab, speed, Map.of("v", 250.0));
        clampingValidator();
        long a = w.entity("a");
        w.add(a, w.pair(Builtin.IS_A, prefab));
        assertEquals(List.of("a 250.0"), seen, "the copy is validated on the instance");
        assertEquals(Map.of("v", 100.0), w.get(a, speed), "and refined");
        assertEquals(Map.of("v", 250.0), w.get(prefab, speed));
        // a base value the validator refuses refuses the instantiation: nothing changes
        w.validate(speed, null);
        w.set(prefab, speed, Map.of("v", -4.0));
        clampingValidator();
        long b = w.entity("b");
        long[] before = w.type(b);
        assertThrows(ValidationException.class, () -> w.add(b, w.pair(Builtin.IS_A, prefab)));
        assertArrayEquals(before, w.type(b));
        assertFalse(w.has(b, speed));
    }
}
