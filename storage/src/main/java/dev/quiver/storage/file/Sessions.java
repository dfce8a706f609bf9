package dev.quiver.storage.file;

import dev.quiver.storage.WorldLockedException;

import dev.quiver.error.StorageIOException;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Who has a world open: the gate lock, and one registration per opener.
 *
 * <p><b>Gate.</b> The file {@code lock} carries an operating-system lock over its whole range: the
 * writer holds it exclusively, readers hold it shared, recovery holds it exclusively. Every attempt
 * is a {@code tryLock}; the only waits (for readers to leave before recovery, and to take the
 * shared lock back after it) poll for at most {@link #WAIT_MILLIS}, so opening never hangs.
 *
 * <p><b>Registration.</b> Before it takes the gate, every opener (reader or writer) creates
 * {@code sessions/<r|w>-<pid>-<nonce>} and holds an exclusive operating-system lock on it until it
 * has closed every map file; the file is made as {@code .new-...}, locked, then renamed, so a
 * registration without its lock held is always one of a dead process (the operating system drops
 * the locks of a killed process). Chronicle Map keeps its segment locks inside the mapped files, and
 * a killed process leaves them held, so a dead registration means the map files must be recovered
 * (with nothing else open on them) before anyone touches them ({@link #stale()}). Live registrations
 * name the real holders in {@link WorldLockedException} messages, readers and writer told apart.
 *
 * <p><b>One opener per process.</b> A world open twice in one JVM is refused up front (a JVM
 * registry of open world directories): on Linux, closing any channel of a locked file drops every
 * lock the process holds on it, so a second open must not even open the lock file.
 *
 * <p><b>Read-only media.</b> A reader that cannot write the world directory (or its lock file)
 * proceeds unregistered: it takes a shared lock when it can open the lock file for reading, and
 * otherwise none ({@link #registered()} false). It cannot recover a world.
 */
final class Sessions implements AutoCloseable {
    static final String LOCK = "lock", DIR = "sessions";
    /** Longest wait for readers to leave a world that needs recovery, or for the lock after it, in ms. */
    static final long WAIT_MILLIS = 10_000;
    private static final Set<Path> OPEN_HERE = ConcurrentHashMap.newKeySet();

    /** One registration found in {@code sessions/}. */
    record Holder(boolean writer, long pid, boolean live, Path file) {}

    private final Path dir;
    private final Path key;
    private final boolean writer;
    private FileChannel lockChannel;
    private FileLock gate;
    private FileChannel markerChannel;
    private Path marker;

    private Sessions(Path dir, Path key, boolean writer) {
        this.dir = dir;
        this.key = key;
        this.writer = writer;
    }

    /**
     * Registers this process as a reader or the writer of the world in {@code dir} and takes the
     * gate lock (shared for a reader, exclusive for the writer).
     *
     * @throws WorldLockedException when the world is open in this process, or by a writer (a
     *                              reader opening), or by anyone (the writer opening)
     * @throws StorageIOException   when the lock file or registration cannot be written by a writer
     */
    static Sessions enter(Path dir, boolean writer, StoreHooks hooks) {
        Path key;
        try {
            key = dir.toRealPath();
        } catch (IOException e) {
            throw new StorageIOException("cannot open world " + dir + ": " + e.getMessage(), e);
        }
        if (!OPEN_HERE.add(key)) {
            throw new WorldLockedException("world " + dir + " is already open in this process (pid "
                    + ProcessHandle.current().pid() + ")");
        }
        Sessions s = new Sessions(dir, key, writer);
        try {
            s.register(hooks);
            s.takeGate(hooks);
        } catch (RuntimeException e) {
            s.close();
            throw e;
        }
        return s;
    }

    /** False on read-only media: nothing registered, so this opener may not recover the world. */
    boolean registered() {
        return marker != null;
    }

    private void register(StoreHooks hooks) {
        Path sessions = dir.resolve(DIR);
        try {
            if (!hooks.writable(dir)) {
                throw new AccessDeniedException(dir.toString(), null, "not writable");
            }
            Files.createDirectories(sessions);
            String name = (writer ? "w-" : "r-") + ProcessHandle.current().pid() + "-"
                    + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1);
            Path fresh = sessions.resolve(".new-" + name);
            markerChannel = FileChannel.open(fresh, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            markerChannel.lock(); // a fresh file nobody else has opened: granted at once
            Files.move(fresh, sessions.resolve(name), StandardCopyOption.ATOMIC_MOVE);
            marker = sessions.resolve(name);
        } catch (IOException e) {
            closeMarker();
            if (writer || !readOnlyMedia(e)) {
                throw new StorageIOException("cannot register in world " + dir + ": " + e.getMessage(), e);
            }
            // a reader on read-only media proceeds unregistered
        }
    }

    private static boolean readOnlyMedia(IOException e) {
        return e instanceof AccessDeniedException
                || (e instanceof FileSystemException && String.valueOf(((FileSystemException) e).getReason())
                .contains("Read-only file system"));
    }

    private void takeGate(StoreHooks hooks) {
        Path lockFile = dir.resolve(LOCK);
        try {
            if (registered() && (!Files.exists(lockFile) || hooks.writable(lockFile))) {
                lockChannel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.READ,
                        StandardOpenOption.WRITE);
            } else if (!writer && Files.exists(lockFile)) {
                lockChannel = FileChannel.open(lockFile, StandardOpenOption.READ);
            } else if (!writer) {
                return; // read-only media without a lock file: nothing to lock
            } else {
                throw new AccessDeniedException(lockFile.toString(), null, "not writable");
            }
        } catch (IOException e) {
            if (!writer && readOnlyMedia(e)) {
                return;
            }
            throw new StorageIOException("cannot open lock file in " + dir + ": " + e.getMessage(), e);
        }
        gate = tryGate(!writer);
        if (gate == null) {
            throw locked(writer ? "" : " (readers wait for the writer to close it)");
        }
    }

    private FileLock tryGate(boolean shared) {
        try {
            return lockChannel.tryLock(0, Long.MAX_VALUE, shared);
        } catch (OverlappingFileLockException e) {
            throw new WorldLockedException("world " + dir + " is already open in this process (pid "
                    + ProcessHandle.current().pid() + ")");
        } catch (IOException e) {
            throw new StorageIOException("cannot lock " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * Trades a reader's shared gate lock for the exclusive one recovery needs, waiting at most
     * {@link #WAIT_MILLIS} for other readers to close the world.
     *
     * @throws WorldLockedException when a writer holds it, or readers still do after the wait
     */
    void upgrade() {
        release();
        long deadline = System.nanoTime() + WAIT_MILLIS * 1_000_000;
        while ((gate = tryGate(false)) == null) {
            if (System.nanoTime() > deadline || holders().stream().anyMatch(h -> h.live && h.writer)) {
                throw locked(" (it needs recovery, which waits for every other opener to close it)");
            }
            pause();
        }
    }

    /** Trades the exclusive gate lock back for a shared one (after a reader's recovery). */
    void downgrade() {
        release();
        long deadline = System.nanoTime() + WAIT_MILLIS * 1_000_000;
        while ((gate = tryGate(true)) == null) {
            if (System.nanoTime() > deadline || holders().stream().anyMatch(h -> h.live && h.writer)) {
                throw locked("");
            }
            pause();
        }
    }

    private void release() {
        if (gate != null) {
            try {
                gate.release();
            } catch (IOException ignored) {
                // closing the channel releases it too
            }
            gate = null;
        }
    }

    private static void pause() {
        try {
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StorageIOException("interrupted while waiting for a world lock", null);
        }
    }

    private WorldLockedException locked(String why) {
        var readers = new ArrayList<Long>();
        long writerPid = 0;
        for (Holder h : holders()) {
            if (!h.live) {
                continue;
            }
            if (h.writer) {
                writerPid = h.pid;
            } else {
                readers.add(h.pid);
            }
        }
        String who;
        if (writerPid != 0 && readers.isEmpty()) {
            who = "is open by its writer, process " + writerPid;
        } else if (writerPid == 0 && !readers.isEmpty()) {
            who = "is open by " + (readers.size() == 1 ? "a reader, process " : readers.size() + " readers, processes ")
                    + join(readers);
        } else if (writerPid != 0) {
            who = "is open by its writer, process " + writerPid + ", and by readers, processes " + join(readers);
        } else {
            who = "is locked by a process that has not registered (an older Quiver, or one on read-only media)";
        }
        return new WorldLockedException("world " + dir + " " + who + why);
    }

    private static String join(List<Long> pids) {
        var sb = new StringBuilder();
        for (long p : pids) {
            sb.append(sb.length() == 0 ? "" : ", ").append(p);
        }
        return sb.toString();
    }

    /** Every registration of another opener, probed for liveness (its lock held or not). */
    List<Holder> holders() {
        var out = new ArrayList<Holder>();
        Path sessions = dir.resolve(DIR);
        if (!Files.isDirectory(sessions)) {
            return out;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(sessions)) {
            for (Path p : ds) {
                String n = p.getFileName().toString();
                if (p.equals(marker)) {
                    continue;
                }
                boolean fresh = n.startsWith(".new-");
                String base = fresh ? n.substring(5) : n;
                String[] parts = base.split("-");
                if (parts.length != 3 || !(parts[0].equals("r") || parts[0].equals("w"))) {
                    continue; // not ours
                }
                long pid;
                try {
                    pid = Long.parseLong(parts[1]);
                } catch (NumberFormatException e) {
                    continue;
                }
                if (fresh) {
                    // not registered yet (it may not have locked it yet either): only a leftover of
                    // a process that is gone, which touched nothing, is removed
                    if (ProcessHandle.of(pid).isEmpty()) {
                        try {
                            Files.deleteIfExists(p);
                        } catch (IOException ignored) {
                            // read-only media: leave it
                        }
                    }
                    continue;
                }
                out.add(new Holder(parts[0].equals("w"), pid, probe(p), p));
            }
        } catch (IOException e) {
            throw new StorageIOException("cannot read the registrations of world " + dir + ": " + e.getMessage(), e);
        }
        return out;
    }

    /** True when some process holds the lock of a registration file. */
    private static boolean probe(Path p) {
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
            FileLock l = ch.tryLock(0, Long.MAX_VALUE, true);
            if (l == null) {
                return true;
            }
            l.release();
            return false;
        } catch (NoSuchFileException e) {
            return true; // it was just closed, or renamed into place: not a dead one
        } catch (OverlappingFileLockException e) {
            return true;
        } catch (IOException e) {
            return true; // cannot tell: do not treat it as dead
        }
    }

    /** Registrations of dead processes: the map files may hold their Chronicle locks. */
    List<Holder> stale() {
        var out = new ArrayList<Holder>();
        for (Holder h : holders()) {
            if (!h.live) {
                out.add(h);
            }
        }
        return out;
    }

    /** Deletes registrations of dead processes (after the map files were recovered). */
    void removeStale(List<Holder> dead) {
        for (Holder h : dead) {
            try {
                Files.deleteIfExists(h.file);
            } catch (IOException e) {
                throw new StorageIOException("cannot remove " + h.file + ": " + e.getMessage(), e);
            }
        }
    }

    private void closeMarker() {
        if (markerChannel != null) {
            try {
                markerChannel.close();
            } catch (IOException ignored) {
                // the lock goes with the process anyway
            }
            markerChannel = null;
        }
    }

    /**
     * Test support: lets go of the locks the way a killed process does, leaving the registration
     * file behind (it then looks dead to the next opener).
     */
    void abandon() {
        marker = null;
        close();
    }

    /** Unregisters (after every map file is closed) and releases the gate. Idempotent. */
    @Override
    public void close() {
        if (marker != null) {
            try {
                Files.deleteIfExists(marker);
            } catch (IOException ignored) {
                // left behind, it looks dead: the next opener recovers, which is harmless
            }
            marker = null;
        }
        closeMarker();
        release();
        if (lockChannel != null) {
            try {
                lockChannel.close();
            } catch (IOException ignored) {
                // nothing left to do
            }
            lockChannel = null;
        }
        OPEN_HERE.remove(key);
    }
}
