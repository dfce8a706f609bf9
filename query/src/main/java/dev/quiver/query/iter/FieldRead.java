package dev.quiver.query.iter;

import dev.quiver.index.Ids;
import dev.quiver.storage.World;

import java.util.Map;

/** Reads a field's component value from its source entity through {@link World#get(long, long)}. */
public final class FieldRead {
    private FieldRead() {}

    /**
     * The value of {@code id} on {@code source}.
     *
     * @param what names the field in messages
     * @throws FieldValueException when the id is a wildcard, carries no data, or the source has no value for it
     */
    public static Map<String, Object> value(World w, long source, long id, String what) {
        if (source == Ids.WILDCARD || Ids.isWildcard(id)) {
            throw new FieldValueException(what + " matched a wildcard, which has no value");
        }
        if (w.schema(id) == null) {
            throw new FieldValueException(what + " carries no data (a tag)");
        }
        Map<String, Object> m = w.get(source, id);
        if (m == null) {
            throw new FieldValueException(what + " has no value on " + w.idToString(source)
                    + " (a transitive or traversed id it does not own)");
        }
        return m;
    }
}
