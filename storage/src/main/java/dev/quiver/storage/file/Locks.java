package dev.quiver.storage.file;

import dev.quiver.storage.WorldLockedException;

import dev.quiver.error.StorageIOException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Who may do what with a world's files, by operating-system locks (released by the kernel when a
 * process dies, so a killed process never leaves a world locked).
 *
 * <p><b>One writer.</b> The writer holds an exclusive lock on {@code writer.lock} for as long as it
 * has the world open, and writes its pid into the file; a second writer gets
 * {@link WorldLockedException} naming that pid. Readers never take it: they neither wait for the
 * writer nor block it.
 *
 * <p><b>Readers pin a manifest.</b> A reader holds a shared lock on the file {@code MANIFEST-<n>} of
 * the state it reads. The writer retires an old manifest (and then the generations and WAL only it
 * names) only when it can lock that file exclusively, and deletes it while holding that lock; a
 * reader that locks a manifest checks afterwards that the file is still there, and otherwise starts
 * again from {@code CURRENT}. On read-only media a reader proceeds without a pin (no writer can run
 * there).
 *
 * <p><b>Several openers per process.</b> One JVM may hold a world's writer and any number of its
 * readers at once: {@link ProcessFiles} shares each locked file's channel within the process
 * (closing any descriptor of a locked file would drop the process's lock on it). A second writer
 * of the same world in one process is refused like one in another process.
 */
final class Locks implements AutoCloseable {
    static final String WRITER = "writer.lock";
    /** Longest time a reader keeps trying to pin the current manifest while checkpoints retire it, in ms. */
    private static final long PIN_MILLIS = 10_000;

    private final Path dir;
    /** The world's real path when this is its writer's lock (registered in {@link ProcessFiles}). */
    private Path writerKey;
    private FileChannel channel;
    private FileLock lock;
    /** The reader's pinned manifest, or null. */
    private ProcessFiles.Pin pin;

    private Locks(Path dir) {
        this.dir = dir;
    }

    /**
     * Takes the writer lock of the world in {@code dir}.
     *
     * @throws WorldLockedException when another process (named by pid) or this one has it open for writing
     * @throws StorageIOException   when the lock file cannot be written (read-only media)
     */
    static Locks writer(Path dir) {
        Path key;
        try {
            key = dir.toRealPath();
        } catch (IOException e) {
            throw new StorageIOException("cannot open world " + dir + ": " + e.getMessage(), e);
        }
        if (!ProcessFiles.addWriter(key)) {
            throw new WorldLockedException("world " + dir + " is already open for writing in this process (pid "
                    + ProcessHandle.current().pid() + ")");
        }
        Locks l = new Locks(dir);
        l.writerKey = key;
        try {
            Path f = dir.resolve(WRITER);
            l.channel = FileChannel.open(f, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            try {
                l.lock = l.channel.tryLock();
            } catch (OverlappingFileLockException e) {
                l.lock = null;
            }
            if (l.lock == null) {
                throw new WorldLockedException("world " + dir + " is open by its writer, " + holder(f));
            }
            byte[] pid = (ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII);
            l.channel.truncate(0);
            l.channel.write(ByteBuffer.wrap(pid), 0);
        } catch (IOException e) {
            l.close();
            throw new StorageIOException("cannot take the writer lock of world " + dir + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            l.close();
            throw e;
        }
        return l;
    }

    /** The pid a writer wrote into its lock file, for messages (it may still be starting). */
    private static String holder(Path f) {
        long deadline = System.nanoTime() + 200_000_000L;
        while (true) {
            try {
                String s = Files.readString(f, StandardCharsets.US_ASCII).trim();
                long pid = Long.parseLong(s);
                if (ProcessHandle.of(pid).isPresent()) {
                    return "process " + pid;
                }
            } catch (IOException | NumberFormatException e) {
                // not written yet, or being rewritten
            }
            if (System.nanoTime() > deadline) {
                return "a process that is starting or stopping (its pid is not known yet)";
            }
            pause(5);
        }
    }

    /** A reader: {@link #pinCurrent} then pins a manifest. */
    static Locks reader(Path dir) {
        return new Locks(dir);
    }

    /** A world being created in a temporary directory nobody else knows: no locks. */
    static Locks none(Path dir) {
        return new Locks(dir);
    }

    /**
     * The bytes of the pinned manifest, read through the pinned channel: opening and closing
     * another descriptor of the file would drop the lock (POSIX record locks belong to the process
     * and go with the first close of any descriptor of the file).
     */
    byte[] readPinned() throws IOException {
        return pin.read();
    }

    /**
     * Pins the manifest {@code CURRENT} names (shared lock on its file) and returns its number.
     * Read it with {@link #readPinned()}, never by opening the file again.
     *
     * @throws StorageIOException when checkpoints keep retiring the manifest for {@link #PIN_MILLIS}
     */
    long pinCurrent() {
        long deadline = System.nanoTime() + PIN_MILLIS * 1_000_000;
        while (true) {
            long n = Manifest.current(dir);
            Path f = dir.resolve(Manifest.fileName(n));
            try {
                ProcessFiles.Pin p = ProcessFiles.pin(f);
                if (p != null) {
                    pin = p;
                    return n;
                }
            } catch (NoSuchFileException e) {
                // CURRENT moved on meanwhile
            } catch (IOException e) {
                throw new StorageIOException("cannot read " + f + ": " + e.getMessage(), e);
            }
            if (System.nanoTime() > deadline) {
                throw new StorageIOException("cannot pin a manifest of world " + dir + ": checkpoints kept retiring it", null);
            }
            pause(1);
        }
    }

    /**
     * Deletes manifest file {@code f} unless a reader pins it (the writer's side of the pin).
     *
     * @return true when it is gone
     */
    static boolean retire(Path f) {
        return ProcessFiles.retire(f);
    }

    private static void closeQuietly(FileChannel ch) {
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException ignored) {
                // nothing to do
            }
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StorageIOException("interrupted while opening a world", e);
        }
    }

    /** Releases the lock (writer lock or pin). Idempotent. */
    @Override
    public void close() {
        if (lock != null) {
            try {
                lock.release();
            } catch (IOException ignored) {
                // closing the channel releases it too
            }
            lock = null;
        }
        closeQuietly(channel);
        channel = null;
        if (pin != null) {
            ProcessFiles.unpin(pin);
            pin = null;
        }
        if (writerKey != null) {
            ProcessFiles.removeWriter(writerKey);
            writerKey = null;
        }
    }
}
