package dev.quiver.snapshots;

import dev.quiver.storage.Validator;
import dev.quiver.storage.World;
import dev.quiver.storage.WorldPages;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * Point-in-time snapshot and restore of a whole world as one checksummed file (layout in
 * {@link SnapshotFormat}).
 *
 * <p>{@link #write} streams every persistent page of the world's committed state (the storage
 * snapshot SPI, {@link WorldPages#forEachForSnapshot}: pairs of Transient relationships are left out,
 * Tecs {@code transient}) into a temporary file next to the target, forces it to
 * disk and renames it into place, so the target is either the old file or the complete new one.
 * {@link #restore} reads the file twice: a first pass verifies magic, version, structure and
 * checksum without touching anything; only then does the second pass feed the pages to
 * {@link WorldPages#restore}. A bad snapshot therefore changes nothing, and the restore itself is
 * atomic: the world is built in a temporary sibling directory and renamed into place, so a failure
 * or a crash never leaves a half-made world (missing parent directories it created stay).
 */
public final class Snapshots {
    private Snapshots() {}

    /** The snapshot format version this build reads and writes. */
    public static final int FORMAT_VERSION = SnapshotFormat.VERSION;

    /**
     * Writes a snapshot of the world's committed state to {@code file}, replacing an existing file
     * atomically.
     *
     * @param world an open world (read-only is enough)
     * @param file  the snapshot file; its directory must exist
     * @return the number of pages and bytes written
     * @throws SnapshotException when the file cannot be written (nothing is left behind)
     */
    public static SnapshotInfo write(World world, Path file) {
        Path target = file.toAbsolutePath();
        Path dir = target.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new SnapshotException("cannot write snapshot " + file + ": directory " + dir + " does not exist");
        }
        if (Files.isDirectory(target)) {
            throw new SnapshotException("cannot write snapshot " + file + ": it is a directory");
        }
        Path tmp = dir.resolve("." + target.getFileName() + ".tmp-" + ProcessHandle.current().pid());
        boolean moved = false;
        try {
            long pages;
            try (SnapshotWriter writer = new SnapshotWriter(tmp)) {
                WorldPages.forEachForSnapshot(world, (mapName, key, blob) -> {
                    try {
                        writer.page(mapName, key, blob);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
                pages = writer.finish();
            }
            moveIntoPlace(tmp, target);
            moved = true;
            return new SnapshotInfo(file, pages, Files.size(target));
        } catch (IOException | UncheckedIOException e) {
            IOException io = e instanceof UncheckedIOException ? ((UncheckedIOException) e).getCause() : (IOException) e;
            throw new SnapshotException("cannot write snapshot " + file + ": " + io, io);
        } finally {
            if (!moved) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // best effort: the temporary file has a dot name and is never read
                }
            }
        }
    }

    private static void moveIntoPlace(Path tmp, Path target) throws IOException {
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /**
     * Verifies a snapshot file completely (magic, version, every record, count, checksum, no
     * trailing bytes) without restoring it.
     *
     * @return the number of pages and the file size
     * @throws CorruptSnapshotException  when the file is damaged, truncated or not a snapshot
     * @throws SnapshotFormatException   when it is an intact snapshot of another format version
     * @throws SnapshotException         when it cannot be read
     */
    public static SnapshotInfo verify(Path file) {
        try (SnapshotReader reader = new SnapshotReader(file)) {
            while (reader.next(false) != null) {
                // every record is parsed and checksummed; blobs are skipped
            }
            return new SnapshotInfo(file, reader.pages(), reader.size());
        }
    }

    /**
     * Restores a snapshot into a new world directory. The file is verified completely first; if it
     * is damaged or of another version, nothing is created.
     *
     * @param file        the snapshot file
     * @param newWorldDir the directory of the new world: must not exist, or be an empty directory
     * @return the number of pages restored and the file size
     * @throws SnapshotException (or a subclass) for a bad file or a non-empty target; the target is
     *                           left as it was
     */
    public static SnapshotInfo restore(Path file, Path newWorldDir) {
        return restore(file, newWorldDir, Map.of());
    }

    /**
     * Restores a snapshot as {@link #restore(Path, Path)} and, before the new world becomes
     * visible, runs each validator on every value of its component or relationship the snapshot
     * holds (Tecs restores through the constructor, so that {@code init} runs as on creation:
     * FEATURES TEC-24): refined values are stored in the new world, and a refusal makes no world.
     * The validators are registered on the restored world only while it is built; register them
     * again on each open, as always.
     *
     * @param validators by the path of their component or relationship in the snapshot's world
     * @throws dev.quiver.storage.ValidationException when a validator refuses a value, or its
     *     component or relationship has no schema (nothing is created)
     * @throws dev.quiver.storage.UnknownNameException when a path names nothing in the snapshot
     *     (nothing is created)
     */
    public static SnapshotInfo restore(Path file, Path newWorldDir, Map<String, Validator> validators) {
        checkTarget(newWorldDir);
        SnapshotInfo info = verify(file);
        List<PageIterator> opened = new ArrayList<>();
        try {
            // WorldPages.restore builds the world in a temporary sibling and renames it into place,
            // so a failure (or a kill) leaves the target as it was, and of two restores racing for
            // the same path the loser gets WorldExistsException without touching the winner's world
            World world = WorldPages.restore(newWorldDir, () -> {
                PageIterator it = new PageIterator(file, info.pages());
                opened.add(it);
                return it;
            }, w -> {
                long[] ids = new long[validators.size()];
                int k = 0;
                for (Map.Entry<String, Validator> v : validators.entrySet()) {
                    ids[k] = w.resolve(v.getKey());
                    w.validate(ids[k++], v.getValue());
                }
                for (long id : ids) {
                    w.revalidate(id);
                }
            });
            world.close();
            return info;
        } finally {
            opened.forEach(PageIterator::close);
        }
    }

    private static void checkTarget(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        if (!Files.isDirectory(dir)) {
            throw new SnapshotException("cannot restore into " + dir + ": it is a file");
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            if (entries.iterator().hasNext()) {
                throw new SnapshotException("cannot restore into " + dir + ": the directory is not empty");
            }
        } catch (IOException e) {
            throw new SnapshotException("cannot restore into " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * Removes what a failed command created for a new world: the directories from
     * {@code createdTop} down when it is not null, else the contents of {@code dir}, which existed
     * (empty) before. Errors are ignored: the failure that made the caller undo is the one to report.
     */
    public static void undoCreate(Path dir, Path createdTop) {
        try {
            if (createdTop != null) {
                deleteTree(createdTop, true);
            } else if (Files.isDirectory(dir)) {
                deleteTree(dir, false);
            }
        } catch (IOException ignored) {
            // the restore error is what the caller needs to see
        }
    }

    private static void deleteTree(Path root, boolean includingRoot) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) throws IOException {
                Files.delete(f);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                if (includingRoot || !d.equals(root)) {
                    Files.delete(d);
                }
                return FileVisitResult.CONTINUE;
            }
        });
    }

    /**
     * Second pass over a verified file: yields its pages, and fails with
     * {@link CorruptSnapshotException} if the file changed since it was verified.
     */
    private static final class PageIterator implements Iterator<WorldPages.Page> {
        private final SnapshotReader reader;
        private final long expected;
        private SnapshotReader.Record next;

        PageIterator(Path file, long expected) {
            this.reader = new SnapshotReader(file);
            this.expected = expected;
            advance();
        }

        private void advance() {
            try {
                next = reader.next(true);
                if (next == null) {
                    reader.close();
                    if (reader.pages() != expected) {
                        throw new CorruptSnapshotException("snapshot changed while it was restored");
                    }
                }
            } catch (RuntimeException e) {
                reader.close();
                throw e;
            }
        }

        void close() {
            reader.close();
        }

        @Override
        public boolean hasNext() {
            return next != null;
        }

        @Override
        public WorldPages.Page next() {
            if (next == null) {
                throw new NoSuchElementException();
            }
            WorldPages.Page page = new WorldPages.Page(next.mapName(), next.key(), next.blob());
            advance();
            return page;
        }
    }
}
