package dev.quiver.snapshots;

import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;
import dev.quiver.storage.UnknownNameException;
import dev.quiver.storage.ValidationException;
import dev.quiver.storage.Validator;
import dev.quiver.storage.World;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * FEATURES TEC-24: a restore given validators runs them on every restored value of their component
 * or relationship, as Tecs runs {@code init} when it restores through the constructor: refined
 * values land in the new world, a refusal (or an unknown name) makes no world at all. Also
 * {@link World#revalidate} on a live world.
 */
class RestoreValidatorsTest {
    @TempDir
    Path tmp;
    private Path snap;

    /** A world with Health on two entities and (Owes, T) pairs with data, snapshotted. */
    @BeforeEach
    void snapshot() {
        try (World w = World.create(tmp.resolve("src"))) {
            long health = w.component("Health", Schema.of("value", FieldType.I64));
            long owes = w.component("Owes", Schema.of("amount", FieldType.F64));
            long a = w.entity("a"), b = w.entity("b"), c = w.entity("c");
            w.set(a, health, Map.of("value", 250L));
            w.set(b, health, Map.of("value", 40L));
            w.set(a, w.pair(owes, b), Map.of("amount", 12.5));
            w.set(b, w.pair(owes, c), Map.of("amount", -3.0));
            snap = tmp.resolve("w.qvsnap");
            Snapshots.write(w, snap);
        }
    }

    /** Clamps Health to at most 100 and records what it saw. */
    private static Validator clamp(List<String> seen) {
        return (e, id, value) -> {
            long v = (Long) value.get("value");
            seen.add(String.valueOf(v));
            return v > 100 ? Map.of("value", 100L) : value;
        };
    }

    private static final Validator NO_NEGATIVE_DEBT = (e, id, value) -> {
        if ((Double) value.get("amount") < 0) {
            throw new ValidationException("a debt cannot be negative, got " + value.get("amount"));
        }
        return value;
    };

    @Test
    void restoreRunsValidatorsAndStoresRefinedValues() {
        List<String> seen = new ArrayList<>();
        Path dir = tmp.resolve("restored");
        Snapshots.restore(snap, dir, Map.of("Health", clamp(seen)));
        seen.sort(null);
        assertEquals(List.of("250", "40"), seen, "every stored Health value, once");
        try (World w = World.openReadOnly(dir)) {
            long health = w.resolve("Health");
            assertEquals(Map.of("value", 100L), w.get(w.resolve("a"), health), "refined at restore");
            assertEquals(Map.of("value", 40L), w.get(w.resolve("b"), health));
            assertEquals(List.of(), w.check());
        }
    }

    @Test
    void aRefusedValueMakesNoWorld() throws java.io.IOException {
        Path dir = tmp.resolve("refused");
        var e = assertThrows(ValidationException.class,
            () -> Snapshots.restore(snap, dir, Map.of("Owes", NO_NEGATIVE_DEBT)));
        assertTrue(e.getMessage().contains("a debt cannot be negative, got -3.0"), e.getMessage());
        assertFalse(Files.exists(dir), "no world, not even a directory");
        try (var left = Files.list(tmp)) {
            assertEquals(List.of(), left.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(".refused")).toList(),
                "no temporary world left behind");
        }
        // the same snapshot restores without the validator
        Snapshots.restore(snap, dir);
        assertTrue(Files.isDirectory(dir));
    }

    @Test
    void anUnknownNameMakesNoWorld() {
        Path dir = tmp.resolve("unknown");
        assertThrows(UnknownNameException.class, () -> Snapshots.restore(snap, dir, Map.of("Mana", clamp(new ArrayList<>()))));
        assertFalse(Files.exists(dir));
        // a name without a schema cannot be validated
        try (World w = World.create(tmp.resolve("tags"))) {
            w.add(w.entity("x"), w.entity("Tag"));
            Snapshots.write(w, tmp.resolve("tags.qvsnap"));
        }
        assertThrows(ValidationException.class,
            () -> Snapshots.restore(tmp.resolve("tags.qvsnap"), tmp.resolve("t2"), Map.of("Tag", NO_NEGATIVE_DEBT)));
        assertFalse(Files.exists(tmp.resolve("t2")));
    }

    @Test
    void revalidateOnALiveWorld() {
        Path dir = tmp.resolve("live");
        Snapshots.restore(snap, dir);
        try (World w = World.open(dir)) {
            long owes = w.resolve("Owes"), health = w.resolve("Health");
            assertThrows(ValidationException.class, () -> w.revalidate(health), "no validator registered");
            List<String> seen = new ArrayList<>();
            w.validate(health, clamp(seen));
            w.validate(owes, NO_NEGATIVE_DEBT);
            long before = w.writeCount();
            assertThrows(ValidationException.class, () -> w.revalidate(owes));
            assertEquals(Map.of("amount", -3.0), w.get(w.resolve("b"), w.pair(owes, w.resolve("c"))), "unchanged");
            assertTrue(w.writeCount() > before);
            assertEquals(2, w.revalidate(health));
            assertEquals(Map.of("value", 100L), w.get(w.resolve("a"), health));
            w.set(w.resolve("b"), w.pair(owes, w.resolve("c")), Map.of("amount", 3.0));
            assertEquals(2, w.revalidate(owes));
            assertEquals(List.of(), w.check());
        }
        try (World w = World.openReadOnly(dir)) {
            assertEquals(Map.of("value", 100L), w.get(w.resolve("a"), w.resolve("Health")), "the refinement was committed");
        }
    }
}
