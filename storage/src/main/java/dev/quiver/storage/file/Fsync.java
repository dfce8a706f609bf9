package dev.quiver.storage.file;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/** Forcing files and directory entries to disk, and the write-temporary-then-rename idiom. */
final class Fsync {
    private Fsync() {}

    /** Forces a file's bytes and size to disk. */
    static void file(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
    }

    /** Forces a directory's entries (creations, renames, deletions) to disk, where the platform allows. */
    static void directory(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // some platforms cannot open or force a directory; the rename itself is atomic
        }
    }

    /**
     * Replaces {@code target} by {@code content} atomically: written to {@code target.tmp}, forced,
     * renamed over {@code target}, directory forced. A crash leaves the old file or the new one.
     */
    static void replace(Path target, byte[] content) throws IOException {
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        Files.write(tmp, content);
        file(tmp);
        rename(tmp, target);
    }

    /** Renames atomically (replacing {@code to}) and forces the directory. */
    static void rename(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("the file system of " + to + " cannot rename atomically", e);
        }
        directory(to.getParent());
    }
}
