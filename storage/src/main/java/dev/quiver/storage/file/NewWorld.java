package dev.quiver.storage.file;

import dev.quiver.storage.WorldExistsException;

import dev.quiver.error.StorageIOException;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

/**
 * Atomic creation of a world directory (init, restore, a load that creates its world).
 *
 * <p>The world is built in a temporary sibling {@code .<name>.new-<pid>-<nonce>}: its
 * {@code FORMAT} and the initial pages committed by the caller, sealed by a checkpoint into its
 * base generation, manifest and {@code CURRENT}, everything forced; then the sibling is renamed onto the target (rename(2) replaces
 * a missing or empty directory atomically and refuses a non-empty one). A crash or an error at any
 * point leaves the target as it was plus, at worst, a temporary sibling that nothing reads; such
 * leftovers of dead processes are deleted by the next creation at the same path. When two
 * processes create the same world at once, one rename wins, the other gets
 * {@link WorldExistsException} and deletes only its own temporary directory.
 */
final class NewWorld {
    private static final String TAG = ".new-";

    private NewWorld() {}

    /**
     * Builds a world at {@code target}: {@code fill} receives the open store of the temporary
     * directory and commits the initial pages; the store is closed (checkpointed) by this method.
     *
     * @throws WorldExistsException when {@code target} is a file or a non-empty directory, before
     *                              or (another process won) after building
     * @throws StorageIOException   when the files cannot be written
     */
    static void create(Path target, StoreHooks hooks, PageDeltas pageDeltas, Consumer<Store> fill) {
        Path abs = target.toAbsolutePath().normalize();
        checkTarget(target, abs);
        Path parent = abs.getParent();
        if (parent == null) {
            throw new WorldExistsException("cannot create a world at the root directory " + target);
        }
        String prefix = "." + abs.getFileName() + TAG;
        Path tmp;
        try {
            Files.createDirectories(parent);
            removeLeftovers(parent, prefix);
            tmp = parent.resolve(prefix + ProcessHandle.current().pid() + "-"
                    + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1));
            Files.createDirectory(tmp);
        } catch (IOException e) {
            throw new StorageIOException("cannot create world " + target + ": " + e.getMessage(), e);
        }
        boolean moved = false;
        try {
            Files.writeString(tmp.resolve("FORMAT"), Store.formatLine() + "\n");
            Fsync.file(tmp.resolve("FORMAT"));
            hooks.step("create format");
            Store st = Store.openNew(tmp, hooks, pageDeltas);
            try {
                fill.accept(st);
                hooks.step("create filled");
            } finally {
                st.close();
            }
            if (!st.closedCleanly()) {
                throw new StorageIOException("cannot create world " + target + ": its files could not be forced to disk");
            }
            Fsync.directory(tmp);
            hooks.step("create built");
            try {
                Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                throw new StorageIOException("cannot create world " + target + ": cannot rename atomically", e);
            } catch (IOException e) {
                // rename(2) fails with ENOTEMPTY (a plain FileSystemException) when the target
                // became a non-empty directory, e.g. another process's world won the race
                if (e instanceof DirectoryNotEmptyException || e instanceof FileAlreadyExistsException
                        || nonEmpty(abs)) {
                    throw new WorldExistsException("cannot create world " + target
                            + ": another process created it meanwhile (it is not empty now)");
                }
                throw e;
            }
            moved = true;
            Fsync.directory(parent);
            hooks.step("create renamed");
        } catch (IOException e) {
            throw new StorageIOException("cannot create world " + target + ": " + e.getMessage(), e);
        } finally {
            if (!moved) {
                deleteTree(tmp);
            }
        }
    }

    private static void checkTarget(Path target, Path abs) {
        if (!Files.exists(abs)) {
            return;
        }
        if (!Files.isDirectory(abs)) {
            throw new WorldExistsException("cannot create world: " + target + " exists and is not a directory");
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(abs)) {
            if (ds.iterator().hasNext()) {
                throw new WorldExistsException("cannot create world: " + target + " exists and is not empty");
            }
        } catch (IOException e) {
            throw new StorageIOException("cannot create world " + target + ": " + e.getMessage(), e);
        }
    }

    private static boolean nonEmpty(Path dir) {
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            return ds.iterator().hasNext();
        } catch (IOException e) {
            return Files.exists(dir);
        }
    }

    /** Deletes temporary siblings {@code prefix<pid>-<nonce>} whose process is gone. */
    private static void removeLeftovers(Path parent, String prefix) throws IOException {
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(parent)) {
            for (Path p : ds) {
                String n = p.getFileName().toString();
                if (!n.startsWith(prefix)) {
                    continue;
                }
                String[] parts = n.substring(prefix.length()).split("-");
                long pid;
                try {
                    pid = Long.parseLong(parts[0]);
                } catch (NumberFormatException e) {
                    continue;
                }
                if (parts.length == 2 && ProcessHandle.of(pid).isEmpty()) {
                    deleteTree(p);
                }
            }
        }
    }

    /** Best-effort recursive delete. */
    static void deleteTree(Path root) {
        try {
            if (!Files.exists(root)) {
                return;
            }
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(f);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                    Files.deleteIfExists(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException ignored) {
            // a leftover temporary directory is never read, and the next creation removes it
        }
    }
}
