package dev.quiver.storage.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The world files this process has open, shared by every {@link Store} of the process, so that one
 * JVM may hold a world's writer and any number of its readers at once (a pipeline that queries
 * while it loads, a test that reads what it wrote).
 *
 * <p>Why a registry: POSIX record locks belong to the process, not to a descriptor, and closing
 * <em>any</em> descriptor of a file drops every lock the process holds on it (the JDK warns of this
 * in {@link FileLock}); and the JDK refuses a second lock on a region this JVM already locked. So:
 * <ul>
 *   <li>a manifest pinned by several readers of this process is locked once, through one channel,
 *       with a reference count ({@link Pin}); everything else in the process that reads or retires
 *       a manifest goes through {@link #read} and {@link #retire}, which use the pinned channel or
 *       refuse, and never open and close a second descriptor of a pinned file;</li>
 *   <li>a generation file (sealed, immutable) is opened once per process and shared
 *       ({@link Generation#open}, reference counted), so no Chronicle instance ever closes a file
 *       another instance of this process uses;</li>
 *   <li>at most one writer per world per process: a second one is refused before it touches
 *       {@code writer.lock}, whose lock the first one holds.</li>
 * </ul>
 * Every method runs under this class's monitor; the work under it is a few system calls.
 */
final class ProcessFiles {
    private ProcessFiles() {}

    private static final Object LOCK = new Object();
    /** Worlds (real paths) whose writer is open in this process. */
    private static final Set<Path> WRITERS = new HashSet<>();
    /** Pinned manifest files (absolute, normalized paths under the world's real path). */
    private static final Map<Path, Pin> PINS = new HashMap<>();
    /** Open generation files (absolute, normalized paths). */
    private static final Map<Path, Generation> GENERATIONS = new HashMap<>();

    /** A shared lock on a manifest file held for the readers of this process that read its state. */
    static final class Pin {
        final Path file;
        /** The one channel of the file in this process; null once released. */
        private FileChannel channel;
        /** Null on media that cannot lock (read-only: no writer can retire anything there). */
        private FileLock lock;
        private int refs;

        private Pin(Path file, FileChannel channel, FileLock lock) {
            this.file = file;
            this.channel = channel;
            this.lock = lock;
        }

        /** The manifest's bytes, read through the pinned channel (positional reads: safe from several threads). */
        byte[] read() throws IOException {
            FileChannel ch;
            synchronized (LOCK) {
                ch = channel;
            }
            if (ch == null) {
                throw new IOException("manifest " + file + " is no longer pinned");
            }
            return readAll(ch, file);
        }
    }

    static Path key(Path file) {
        return file.toAbsolutePath().normalize();
    }

    /** Registers the writer of the world at real path {@code world}; false when this process already has one. */
    static boolean addWriter(Path world) {
        synchronized (LOCK) {
            return WRITERS.add(world);
        }
    }

    static void removeWriter(Path world) {
        synchronized (LOCK) {
            WRITERS.remove(world);
        }
    }

    /**
     * Pins manifest file {@code f} for one more reader of this process: takes a shared lock on it
     * the first time, then counts.
     *
     * @return the pin, or null when the file is gone or a writer holds it exclusively (it is being
     *     retired: start again from {@code CURRENT})
     * @throws NoSuchFileException when the file does not exist
     * @throws IOException         when it cannot be opened
     */
    static Pin pin(Path f) throws IOException {
        Path k = key(f);
        synchronized (LOCK) {
            Pin p = PINS.get(k);
            if (p != null) {
                p.refs++;
                return p;
            }
            FileChannel ch = FileChannel.open(f, StandardOpenOption.READ);
            FileLock l;
            try {
                l = ch.tryLock(0, Long.MAX_VALUE, true);
            } catch (IOException e) {
                l = null; // read-only media that cannot lock
                p = new Pin(k, ch, null);
                p.refs = 1;
                PINS.put(k, p);
                return p;
            }
            if (l == null || !Files.exists(f)) {
                ch.close(); // being retired, or retired between our open and our lock
                return null;
            }
            p = new Pin(k, ch, l);
            p.refs = 1;
            PINS.put(k, p);
            return p;
        }
    }

    /** Drops one reader's pin; the last one releases the lock and closes the channel. */
    static void unpin(Pin p) {
        synchronized (LOCK) {
            if (--p.refs > 0) {
                return;
            }
            PINS.remove(p.file);
            try {
                if (p.lock != null) {
                    p.lock.release();
                }
            } catch (IOException ignored) {
                // closing the channel releases it too
            }
            try {
                p.channel.close();
            } catch (IOException ignored) {
                // nothing held any more
            }
            p.lock = null;
            p.channel = null;
        }
    }

    /**
     * The bytes of manifest file {@code f}: through the pinned channel when a reader of this
     * process pins it (a second descriptor's close would drop that pin), else read directly.
     *
     * @throws NoSuchFileException when the file does not exist
     */
    static byte[] read(Path f) throws IOException {
        synchronized (LOCK) {
            Pin p = PINS.get(key(f));
            if (p != null) {
                return readAll(p.channel, f);
            }
            return Files.readAllBytes(f);
        }
    }

    /**
     * Deletes manifest file {@code f} unless a reader (of this or another process) pins it.
     *
     * @return true when it is gone
     */
    static boolean retire(Path f) {
        synchronized (LOCK) {
            if (PINS.containsKey(key(f))) {
                return false;
            }
            try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                FileLock l = ch.tryLock();
                if (l == null) {
                    return false;
                }
                Files.delete(f); // while holding the lock: a reader that locks it next finds it gone
                l.release();
                return true;
            } catch (NoSuchFileException e) {
                return true;
            } catch (IOException | java.nio.channels.OverlappingFileLockException e) {
                return false;
            }
        }
    }

    /** The generation open in this process for {@code file} with one more user, or null. */
    static Generation sharedGeneration(Path file) {
        synchronized (LOCK) {
            Generation g = GENERATIONS.get(key(file));
            if (g != null) {
                g.refs++;
            }
            return g;
        }
    }

    /**
     * Registers a newly opened generation (one user), unless another thread registered the same
     * file meanwhile: then that one is returned with one more user, and the caller closes its own.
     */
    static Generation addGeneration(Generation g) {
        synchronized (LOCK) {
            Generation had = GENERATIONS.get(key(g.file));
            if (had != null) {
                had.refs++;
                return had;
            }
            g.refs = 1;
            GENERATIONS.put(key(g.file), g);
            return g;
        }
    }

    /** Drops one user of {@code g}; true when it was the last (the caller closes the file). */
    static boolean releaseGeneration(Generation g) {
        synchronized (LOCK) {
            if (--g.refs > 0) {
                return false;
            }
            GENERATIONS.remove(key(g.file), g);
            return true;
        }
    }

    private static byte[] readAll(FileChannel ch, Path f) throws IOException {
        long size = ch.size();
        if (size > 1 << 20) {
            throw new IOException("manifest " + f + " of " + size + " bytes");
        }
        ByteBuffer b = ByteBuffer.allocate((int) size);
        while (b.hasRemaining()) {
            if (ch.read(b, b.position()) < 0) {
                break;
            }
        }
        return Arrays.copyOf(b.array(), b.position());
    }
}
