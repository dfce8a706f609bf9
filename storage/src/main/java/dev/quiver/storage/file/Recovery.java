package dev.quiver.storage.file;

import dev.quiver.error.CorruptionException;
import dev.quiver.error.StorageIOException;
import dev.quiver.index.PagedMap;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Crash-safe recovery of a world's map files after a process died with them open.
 *
 * <p>Chronicle Map keeps segment locks and allocation headers inside the mapped file; after a
 * crash its documentation requires {@code ChronicleMapBuilder.recoverPersistedTo} with nothing else
 * open on the file. That call rewrites the file's header in place, so being killed inside it can
 * leave a header whose checksum no longer matches, and the world lost. Here each map file
 * {@code X.cm} is instead copied to {@code X.cm.recovering}, the copy is recovered, forced to disk,
 * and renamed over the original (then the directory is forced). A kill at any instant leaves either
 * the untouched original or the complete recovered file, plus perhaps a leftover copy that the next
 * recovery deletes. The caller holds the exclusive gate lock ({@link Sessions}) and replays the
 * journal only after every map file is recovered; until it has, the world still looks unclean
 * (DIRTY marker, journal or a dead registration), so the next opener recovers again.
 */
final class Recovery {
    static final String SUFFIX = ".recovering";

    /** Opens one map file, with Chronicle recovery when {@code recover}. */
    @FunctionalInterface
    interface MapOpener {
        PagedMap open(Path file, int map, boolean recover);
    }

    private Recovery() {}

    /** True when an earlier recovery was interrupted (a copy is left). */
    static boolean interrupted(Path dir) {
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*.cm" + SUFFIX)) {
            return ds.iterator().hasNext();
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Recovers every map file of {@code dir} in turn (copy, recover, force, rename over).
     *
     * @throws CorruptionException when a map file is missing or Chronicle cannot recover it
     * @throws StorageIOException  when the copies cannot be written
     */
    static void recoverMapFiles(Path dir, MapOpener opener, StoreHooks hooks) {
        hooks.step("recovery start");
        for (int i = 0; i < Store.MAP_NAMES.length; i++) {
            String name = Store.MAP_NAMES[i];
            Path file = dir.resolve(name + ".cm");
            Path copy = dir.resolve(name + ".cm" + SUFFIX);
            try {
                Files.deleteIfExists(copy);
                if (!Files.exists(file)) {
                    throw Store.missingMapFile(dir, file);
                }
                Files.copy(file, copy);
                hooks.step("copied " + name);
                opener.open(copy, i, true).close();
                force(copy);
                hooks.step("recovered " + name);
                try {
                    Files.move(copy, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    throw new StorageIOException("cannot recover " + file + ": its file system cannot rename atomically", e);
                }
                forceDirectory(dir);
                hooks.step("renamed " + name);
            } catch (IOException e) {
                throw new StorageIOException("cannot recover " + file + ": " + e.getMessage(), e);
            }
        }
    }

    /** Forces a file's bytes and size to disk. */
    static void force(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
    }

    /** Forces a directory's entries (creations, renames, deletions) to disk, where the platform allows. */
    static void forceDirectory(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // some platforms cannot open or force a directory; the rename itself is atomic
        }
    }
}
