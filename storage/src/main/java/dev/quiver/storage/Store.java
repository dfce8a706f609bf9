package dev.quiver.storage;

import dev.quiver.index.ChronicleSupport;
import dev.quiver.index.PagedMap;
import dev.quiver.error.CorruptionException;
import dev.quiver.error.StorageIOException;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;

/**
 * The files of a world directory: one Chronicle Map file per persistent structure
 * ({@link #MAP_NAMES}), the journal, the lock file and the dirty marker.
 *
 * <p>Directory layout: {@code FORMAT} (text: format version), {@code lock} + {@code owner}
 * (pid of the writer), {@code journal}, {@code DIRTY} (present while a writer has the world open;
 * found at open it means the last writer died and recovery runs), and {@code <map>.cm} files.
 *
 * <p>Pages of format 2 (page key: content; the encodings are in {@code World.serialize}):
 * <ul>
 *   <li>{@code meta} 0: format version, next entity index, table count, free entity indices;</li>
 *   <li>{@code schemas} component entity index: its fields;</li>
 *   <li>{@code entities} index / 1024: state, generation and name of 1024 entity indices;</li>
 *   <li>{@code tables} table id / 64: type, column ids and, up to 64 rows, the rows of each table;</li>
 *   <li>{@code rows} (table id &lt;&lt; 20) | chunk: 1024 rows (entities, then column values) of a
 *       table of more than 64 rows;</li>
 *   <li>{@code components} (kind &lt;&lt; 40) | entity index / 64: component-index records (id to
 *       table ids) of the ids naming those entities (kind: plain id, (R, T) by T, (R, *) by R,
 *       (*, T) by T);</li>
 *   <li>{@code reverse} target index / 64: (relationship, source) entries per target;</li>
 *   <li>{@code names} entity index / 1024: (name, parent, entity) name-index entries.</li>
 * </ul>
 * Each page is grouped by what a transaction usually changes together, so a commit rewrites the
 * pages of the entities and tables it touched.
 */
final class Store implements AutoCloseable {
    /**
     * 3: every page carries a CRC32C over its key, segment count and blob, verified whenever it is
     * read (the layout is in {@link PagedMap}; the page blobs themselves, and so snapshots, are
     * those of format 2). 2: tables persisted 64 to a page with their rows inline up to 64 rows.
     * 1: a types page and row pages per table.
     */
    static final int FORMAT_VERSION = 3;
    static final String[] MAP_NAMES = {"meta", "schemas", "entities", "tables", "rows", "components", "reverse", "names"};
    static final int META = 0, SCHEMAS = 1, ENTITIES = 2, TABLES = 3, ROWS = 4, COMPONENTS = 5, REVERSE = 6, NAMES = 7;
    /**
     * Initial Chronicle entries (pages) per map. Chronicle preallocates and zeroes entries times
     * the average value size, so these are kept small (a new world takes about 8.5 MB on disk, the
     * WordNet world 16 MB instead of 206 MB) and each map grows by extra tiers up to 1000 times
     * (PagedMap's bloat factor): 64K entity pages (67M entities), 256K table groups, row chunks and
     * reverse-index pages. Measured on RG-1 at depth 6 (1.1M entities, 111K tables), load and reopen
     * times are the same as with 16 to 256 times larger initial sizes.
     */
    private static final long[] ENTRIES = {64, 64, 64, 256, 256, 1024, 256, 1024};
    /** Expected average page size per map, in bytes (segments are 16 times this, at most 32 KiB). */
    private static final int[] AVG_VALUE = {256, 128, 16384, 2048, 8192, 512, 1024, 1024};

    /** Test hook: the process halts right after journaling its Nth commit (0: never). */
    private static final long CRASH_AFTER_JOURNAL = Long.getLong("quiver.test.crashAfterJournal", 0);

    final Path dir;
    final boolean readOnly;
    private final FileChannel lockChannel;
    private final FileLock lock;
    final PagedMap[] maps = new PagedMap[MAP_NAMES.length];
    Journal journal;
    private long txSeq;

    static {
        ChronicleSupport.init();
    }

    private Store(Path dir, boolean readOnly, FileChannel lockChannel, FileLock lock) {
        this.dir = dir;
        this.readOnly = readOnly;
        this.lockChannel = lockChannel;
        this.lock = lock;
    }

    static boolean isWorld(Path dir) {
        return Files.isRegularFile(dir.resolve("FORMAT"));
    }

    /** Opens the files; creates them when {@code create}. Runs recovery when the last writer died. */
    static Store open(Path dir, boolean create, boolean readOnly) {
        if (create) {
            try {
                Files.createDirectories(dir);
                try (Stream<Path> s = Files.list(dir)) {
                    if (s.findAny().isPresent()) {
                        throw new WorldExistsException("cannot create world: " + dir + " exists and is not empty");
                    }
                }
                Files.writeString(dir.resolve("FORMAT"), "quiver world format " + FORMAT_VERSION + "\n");
            } catch (IOException e) {
                throw new StorageIOException("cannot create world " + dir + ": " + e.getMessage(), e);
            }
        } else if (!isWorld(dir)) {
            throw new NoWorldException("no world at " + dir + " (run 'quiver init' or 'quiver load' first)");
        } else {
            checkFormat(dir);
        }
        FileChannel ch;
        FileLock lk;
        try {
            ch = FileChannel.open(dir.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new StorageIOException("cannot open lock file in " + dir + ": " + e.getMessage(), e);
        }
        boolean dirty = Files.exists(dir.resolve("DIRTY")) || journalNonEmpty(dir);
        boolean exclusive = !readOnly || dirty;
        lk = tryLock(dir, ch, !exclusive);
        Store st = new Store(dir, readOnly, ch, lk);
        try {
            if (exclusive) {
                writeOwner(dir);
            }
            st.openMaps(dirty);
            if (dirty) {
                st.recover();
                if (readOnly) {
                    Files.deleteIfExists(dir.resolve("DIRTY"));
                }
            }
            if (!readOnly) {
                Files.writeString(dir.resolve("DIRTY"), "open by pid " + ProcessHandle.current().pid() + "\n");
            }
        } catch (IOException e) {
            st.close();
            throw new StorageIOException("cannot open world " + dir + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            st.close();
            throw e;
        }
        return st;
    }

    private static void checkFormat(Path dir) {
        try {
            String s = Files.readString(dir.resolve("FORMAT")).trim();
            String expect = "quiver world format " + FORMAT_VERSION;
            if (!s.equals(expect)) {
                throw new WorldFormatException("world " + dir + " has format '" + s + "', this build reads '" + expect + "'");
            }
        } catch (IOException e) {
            throw new StorageIOException("cannot read " + dir.resolve("FORMAT") + ": " + e.getMessage(), e);
        }
    }

    private static boolean journalNonEmpty(Path dir) {
        try {
            Path j = dir.resolve("journal");
            return Files.exists(j) && Files.size(j) > 0;
        } catch (IOException e) {
            return true;
        }
    }

    private static FileLock tryLock(Path dir, FileChannel ch, boolean shared) {
        FileLock lk;
        try {
            lk = ch.tryLock(0, Long.MAX_VALUE, shared);
        } catch (OverlappingFileLockException e) {
            closeQuietly(ch);
            throw new WorldLockedException("world " + dir + " is already open in this process (pid "
                    + ProcessHandle.current().pid() + ")");
        } catch (IOException e) {
            closeQuietly(ch);
            throw new StorageIOException("cannot lock " + dir + ": " + e.getMessage(), e);
        }
        if (lk == null) {
            closeQuietly(ch);
            String owner = "unknown";
            try {
                owner = Files.readString(dir.resolve("owner")).trim();
            } catch (IOException ignored) {
                // the holder may not have written it yet
            }
            throw new WorldLockedException("world " + dir + " is locked by process " + owner
                    + (shared ? " (a writer)" : " (a writer or reader)"));
        }
        return lk;
    }

    private static void writeOwner(Path dir) throws IOException {
        Files.writeString(dir.resolve("owner"), Long.toString(ProcessHandle.current().pid()));
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // best effort
        }
    }

    private void openMaps(boolean recover) {
        for (int i = 0; i < maps.length; i++) {
            maps[i] = PagedMap.open(dir.resolve(MAP_NAMES[i] + ".cm"), MAP_NAMES[i], ENTRIES[i], AVG_VALUE[i], recover);
        }
        journal = new Journal(dir.resolve("journal"));
    }

    /** Re-applies every complete journal record (idempotent after-images), then empties the journal. */
    private void recover() {
        for (List<Journal.Entry> rec : journal.readAll()) {
            apply(rec);
        }
        checkpoint();
    }

    /**
     * Forces every map file to disk, then empties the journal. The map files are memory-mapped:
     * what a commit applied to them survives the process at once, but reaches the disk only when
     * the kernel writes it back, so the journal records are kept until this fsync (on Linux,
     * fsync of the file writes back the pages dirtied through its mappings), which makes committed
     * transactions survive a power loss too.
     */
    private void checkpoint() {
        for (String name : MAP_NAMES) {
            Path f = dir.resolve(name + ".cm");
            try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
                ch.force(true);
            } catch (IOException e) {
                throw new StorageIOException("cannot force " + f + " to disk: " + e.getMessage(), e);
            }
        }
        journal.truncate();
    }

    private void apply(List<Journal.Entry> entries) {
        for (Journal.Entry e : entries) {
            maps[e.map()].put(e.key(), e.blob());
        }
    }

    /**
     * Commits one transaction: journal record forced to disk first, then the map files. When the
     * journal grows past 64 MiB the map files are forced to disk and the journal is emptied
     * ({@link #checkpoint()}).
     */
    void commit(List<Journal.Entry> entries) {
        if (entries.isEmpty()) {
            return;
        }
        if (readOnly) {
            throw new ReadOnlyException("world " + dir + " is open read-only");
        }
        journal.append(++txSeq, entries);
        if (txSeq == CRASH_AFTER_JOURNAL) {
            // fault injection for the crash tests: die between journal and map files
            Runtime.getRuntime().halt(77);
        }
        apply(entries);
        if (journal.size() > (64L << 20)) {
            checkpoint();
        }
    }

    long bytesOnDisk() {
        try (Stream<Path> s = Files.list(dir)) {
            return s.mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    return 0;
                }
            }).sum();
        } catch (IOException e) {
            return 0;
        }
    }

    @Override
    public void close() {
        boolean clean = true;
        for (PagedMap m : maps) {
            if (m != null) {
                try {
                    m.close();
                } catch (RuntimeException e) {
                    clean = false;
                }
            }
        }
        if (journal != null) {
            if (clean && !readOnly) {
                try {
                    checkpoint();
                } catch (StorageIOException e) {
                    clean = false; // the journal stays; the next open replays it
                }
            }
            journal.close();
        }
        if (clean && !readOnly && lock != null) {
            try {
                Files.deleteIfExists(dir.resolve("DIRTY"));
            } catch (IOException ignored) {
                // recovery on next open handles it
            }
        }
        if (lock != null) {
            try {
                lock.release();
            } catch (IOException ignored) {
                // closing the channel releases it too
            }
        }
        closeQuietly(lockChannel);
    }
}
