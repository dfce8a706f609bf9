package dev.quiver.storage.rules;

import dev.quiver.storage.Schema;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * One component or pair value as the read-only ordered field map {@code World.get} returns: field
 * names in schema order, read from the schema, beside an array of the values. Two objects where a
 * {@code LinkedHashMap} allocates three per field plus a bucket table (the hot path of an inherited
 * get, issue 9's 50 ns figure). Equal to, and printed like, any other map of the same fields;
 * {@code put} and {@code remove} throw {@link UnsupportedOperationException}.
 */
final class ValueMap extends AbstractMap<String, Object> {
    private final Schema schema;
    private final Object[] values;

    /** @param values one value per schema field, in field order (kept, not copied) */
    ValueMap(Schema schema, Object[] values) {
        this.schema = schema;
        this.values = values;
    }

    @Override
    public int size() {
        return values.length;
    }

    @Override
    public Object get(Object key) {
        int f = indexOf(key);
        return f < 0 ? null : values[f];
    }

    @Override
    public boolean containsKey(Object key) {
        return indexOf(key) >= 0;
    }

    private int indexOf(Object key) {
        for (int f = 0; f < values.length; f++) {
            if (schema.field(f).name().equals(key)) {
                return f;
            }
        }
        return -1;
    }

    @Override
    public Set<Map.Entry<String, Object>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public int size() {
                return values.length;
            }

            @Override
            public Iterator<Map.Entry<String, Object>> iterator() {
                return new Iterator<>() {
                    private int f;

                    @Override
                    public boolean hasNext() {
                        return f < values.length;
                    }

                    @Override
                    public Map.Entry<String, Object> next() {
                        if (f >= values.length) {
                            throw new NoSuchElementException();
                        }
                        Map.Entry<String, Object> e = new SimpleImmutableEntry<>(schema.field(f).name(), values[f]);
                        f++;
                        return e;
                    }
                };
            }
        };
    }
}
