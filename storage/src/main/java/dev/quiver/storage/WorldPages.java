package dev.quiver.storage;

import dev.quiver.error.BadInputException;
import dev.quiver.storage.file.Store;

import java.nio.file.Path;
import java.util.List;

/**
 * A world as its persistent pages: the service provider interface snapshots are written and
 * restored through (the snapshots module). A page is a map name (a page family of the storage
 * format), a key and a blob; the blobs are the world's own page format, so a world rebuilt from
 * them is byte for byte the world they came from.
 */
public final class WorldPages {
    private WorldPages() {}

    /** One persistent page: the map it belongs to, its key and its blob. */
    public record Page(String mapName, long key, byte[] blob) {}

    /** Receives persistent pages. */
    @FunctionalInterface
    public interface PageVisitor {
        void visit(String mapName, long key, byte[] blob);
    }

    /**
     * Streams every persistent page of the world's committed state.
     *
     * @throws IllegalStateException inside a transaction, or when the world is closed
     */
    public static void forEach(World world, PageVisitor visitor) {
        world.ensureOpen();
        if (world.tx.open()) {
            throw new IllegalStateException("forEachPage inside a transaction");
        }
        world.persistence.forEachPage(visitor);
    }

    /**
     * Streams the pages of the committed state without the pairs of {@code Transient}
     * relationships ({@link Builtin#TRANSIENT}, Tecs {@code transient}, FEATURES TEC-23): what a
     * snapshot holds. The live world keeps them (they survive a close and reopen); a world restored
     * from these pages has none. Works on a read-only world too: the pairs are removed in memory
     * only and the committed state is read back afterwards.
     *
     * @throws IllegalStateException inside a transaction, or when the world is closed
     */
    public static void forEachForSnapshot(World world, PageVisitor visitor) {
        world.ensureOpen();
        world.tx.inside("forEachSnapshotPage",
            () -> world.persistence.forEachSnapshotPage(visitor, world.m.rules::removeTransientPairs));
    }

    /**
     * Creates a new world in {@code dir} from pages written by {@link #forEach}, and returns it
     * open for writing. The pages are checked by loading them; the world is built whole in a
     * temporary sibling and renamed into place, so it is never half made.
     *
     * @throws BadInputException when {@code dir} is not empty, a map name is unknown, or the pages
     *                           do not form a consistent world
     */
    public static World restore(Path dir, Iterable<Page> pages) {
        return restore(dir, pages, w -> { });
    }

    /**
     * Like {@link #restore(Path, Iterable)}, running {@code beforeVisible} on the restored world,
     * open for writing, before it is renamed into place: what it commits is part of the new world,
     * and when it throws no world is made (the exception is rethrown). Snapshots run validators
     * there (FEATURES TEC-24).
     */
    public static World restore(Path dir, Iterable<Page> pages, java.util.function.Consumer<World> beforeVisible) {
        Store.create(dir, WorldLifecycle.PAGE_DELTAS, st -> {
            Persistence.commitPages(st, pages);
            World w = WorldLifecycle.openStore(st, false);
            List<String> problems = w.check();
            if (!problems.isEmpty()) {
                throw new BadInputException("restored world is inconsistent: " + problems.get(0));
            }
            beforeVisible.accept(w);
        });
        return World.open(dir);
    }
}
