package dev.quiver.storage;

import dev.quiver.error.CorruptionException;
import dev.quiver.error.QuiverException;
import dev.quiver.storage.file.PageDeltas;
import dev.quiver.storage.file.Store;
import dev.quiver.storage.format.WorldFormat;

import java.nio.file.Path;

/**
 * How a {@link World} comes to be over its files: a new world built whole in a temporary sibling
 * and bootstrapped (the root table, the builtin entities and traits, in one commit), or an existing
 * one opened and its committed state read (page by page when touched: open in place). The public
 * entry points are {@link World#create}, {@link World#open} and {@link World#openReadOnly}.
 */
final class WorldLifecycle {
    private WorldLifecycle() {}

    /** How the file layer applies the page format's deltas ({@link WorldFormat#applyDelta}, {@link WorldFormat#familyDeltaPages}). */
    static final PageDeltas PAGE_DELTAS = new PageDeltas() {
        @Override
        public byte[] apply(int family, long key, byte[] base, java.util.List<byte[]> deltas, boolean familyDeltas) {
            return WorldFormat.applyDelta(family, key, base, deltas, familyDeltas);
        }

        @Override
        public long[] pagesOf(int family, byte[] delta) {
            return WorldFormat.familyDeltaPages(family, delta);
        }
    };

    /** {@link World#create}: never half made; the world built in the temporary sibling is returned, on the renamed files. */
    static World create(Path dir) {
        World[] built = new World[1];
        Store.create(dir, PAGE_DELTAS, st -> {
            built[0] = new World(st, false, dir);
            bootstrap(built[0]);
        });
        built[0].persistence.reopen(Store.open(dir, false, PAGE_DELTAS));
        return built[0];
    }

    /** {@link World#open} and {@link World#openReadOnly}. */
    static World open(Path dir, boolean readOnly) {
        return openStore(Store.open(dir, readOnly, PAGE_DELTAS), readOnly);
    }

    /**
     * Opens the world a store holds, reading its committed state (also for {@link WorldPages#restore}).
     *
     * @throws CorruptionException when the state cannot be read (the store is closed)
     */
    static World openStore(Store st, boolean readOnly) {
        World w = new World(st, readOnly, st.dir);
        try {
            w.persistence.load();
        } catch (QuiverException e) {
            w.close();
            throw e;
        } catch (RuntimeException e) {
            w.close();
            throw new CorruptionException("corrupt world " + st.dir + ": " + e, e);
        }
        return w;
    }

    /** A new world: the root table, the builtin entities and the builtin traits, in one commit. */
    private static void bootstrap(World w) {
        WorldModel m = w.m;
        m.entities.reserve(Builtin.FIRST_USER_INDEX);
        m.tables.create(0, new long[0]);
        m.changes.table(0);
        w.tx.inside("bootstrap", () -> {
            m.hierarchy.placeBuiltins();
            m.changes.meta();
            w.tx.commit();
        });
    }
}
