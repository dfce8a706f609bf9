package dev.quiver.query.iter;

import dev.quiver.storage.World;

import java.util.List;

/**
 * What every result of one query has in common: its world, its reported variables, its field
 * count and which fields can have {@code $this} as their source. Built by
 * {@link dev.quiver.query.Query}; immutable.
 *
 * @param world         the world the query runs over
 * @param variableNames the reported variables (no {@code $this}), in first-appearance order
 * @param variableSlots the engine slot of each reported variable
 * @param fieldCount    number of fields
 * @param hasThis       the query uses {@code $this}
 * @param thisSourced   per field: some term writing the field has {@code $this} as its source, so
 *                      its source is the row's own entity whenever it equals {@code $this}
 * @param sourceSlots   per field: the variable slot every term writing the field has as its source,
 *                      or -1 when that is not one variable (a fixed source, terms that differ)
 */
public record ResultShape(World world, List<String> variableNames, int[] variableSlots, int fieldCount,
                          boolean hasThis, boolean[] thisSourced, int[] sourceSlots) {

    public ResultShape {
        variableNames = List.copyOf(variableNames);
    }

    /** Index of a variable by name (with or without '$'); -1 for {@code $this}; throws when unknown. */
    int variableIndex(String name) {
        String n = name.startsWith("$") ? name.substring(1) : name;
        if (n.equals("this") || n.equals("This")) {
            return -1;
        }
        int i = variableNames.indexOf(n);
        if (i < 0) {
            throw new IllegalArgumentException("query has no variable '$" + n + "'");
        }
        return i;
    }

    void checkField(int field) {
        if (field < 0 || field >= fieldCount) {
            throw new IndexOutOfBoundsException("field " + field + " of " + fieldCount);
        }
    }
}
