package dev.quiver.storage.rules;

import dev.quiver.storage.ValueException;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;

/**
 * The reflective shape of a Java record class that values are read from or built into: its
 * component names, accessors and canonical constructor, looked up (and made accessible, for
 * records declared package-private by the caller) once per class and kept in a {@link ClassValue},
 * so that a {@code set(e, id, record)} costs no reflection lookup. Thread-safe; immutable.
 */
final class RecordShape {
    private static final ClassValue<RecordShape> SHAPES = new ClassValue<>() {
        @Override
        protected RecordShape computeValue(Class<?> type) {
            return new RecordShape(type);
        }
    };

    final String[] names;
    private final Method[] accessors;
    private final Constructor<?> constructor;
    /** Why the shape cannot be used, or null. */
    private final String problem;

    private RecordShape(Class<?> type) {
        RecordComponent[] rcs = type.getRecordComponents();
        names = new String[rcs.length];
        accessors = new Method[rcs.length];
        Class<?>[] types = new Class<?>[rcs.length];
        String why = null;
        Constructor<?> ctor = null;
        try {
            for (int i = 0; i < rcs.length; i++) {
                names[i] = rcs[i].getName();
                types[i] = rcs[i].getType();
                accessors[i] = rcs[i].getAccessor();
                accessors[i].setAccessible(true);
            }
            ctor = type.getDeclaredConstructor(types);
            ctor.setAccessible(true);
        } catch (ReflectiveOperationException | RuntimeException ex) {
            why = ex.toString();
        }
        constructor = ctor;
        problem = why;
    }

    /** The shape of record class {@code type}. */
    static RecordShape of(Class<?> type) {
        return SHAPES.get(type);
    }

    /**
     * The value of component {@code i} of {@code record}.
     *
     * @throws ValueException when it cannot be read
     */
    Object get(Object record, int i) {
        try {
            if (problem != null) {
                throw new ValueException("cannot read record " + record.getClass().getName() + ": " + problem);
            }
            return accessors[i].invoke(record);
        } catch (ReflectiveOperationException | IllegalArgumentException ex) {
            throw new ValueException("cannot read record component " + names[i] + ": " + ex);
        }
    }

    /**
     * A new record from its components in declaration order.
     *
     * @throws ReflectiveOperationException when the constructor refuses them
     */
    Object build(Object[] args) throws ReflectiveOperationException {
        if (problem != null) {
            throw new ReflectiveOperationException(problem);
        }
        return constructor.newInstance(args);
    }
}
