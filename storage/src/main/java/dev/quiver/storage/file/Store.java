package dev.quiver.storage.file;

import dev.quiver.storage.NoWorldException;
import dev.quiver.storage.WorldFormatException;
import dev.quiver.storage.WorldLockedException;
import dev.quiver.storage.ReadOnlyException;

import dev.quiver.index.ChronicleSupport;
import dev.quiver.index.PagedMap;
import dev.quiver.error.CorruptionException;
import dev.quiver.error.StorageIOException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The files of a world directory: one Chronicle Map file per persistent structure
 * ({@link #MAP_NAMES}), the journal, the lock file and the dirty marker.
 *
 * <p>Directory layout: {@code FORMAT} (text: format version), {@code lock} and {@code sessions/}
 * (the gate lock and one registration per opener, {@link Sessions}), {@code journal}, {@code DIRTY}
 * (present while a writer has the world open, or after a commit whose pages were journaled but not
 * all applied), and {@code <map>.cm} files. A world is created whole in a temporary sibling and
 * renamed into place ({@link NewWorld}).
 *
 * <p>Recovery runs at open when the world was not closed cleanly: a {@code DIRTY} marker, a
 * non-empty journal, a registration of a dead process (reader or writer: a killed process leaves
 * its Chronicle segment locks held inside the map files) or a copy left by an interrupted
 * recovery. It takes the exclusive gate lock (a reader waits a bounded time for other readers to
 * leave), recovers the map files crash-safely ({@link Recovery}), replays the journal and forces
 * everything to disk before the markers go.
 *
 * <p>Commit protocol: the journal record is appended and forced, then the pages are put into the
 * map files. A failed append is cut back and reported ({@link StorageIOException}); a failure while
 * the pages are applied (a full disk) poisons the store: no further commit, and close neither
 * empties the journal nor removes {@code DIRTY}, so the next open finishes the transaction.
 *
 * <p>Read-only opens on media that cannot be written (a read-only file system or directory) do not
 * lock or register; they refuse a world that needs recovery, and because Chronicle Map needs
 * writable mappings they open copies of the map files in a temporary directory (deleted at close).
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
public final class Store implements AutoCloseable {
    /**
     * The directory format, written to {@code FORMAT}. 3: every page carries a CRC32C over its key,
     * segment count and blob, verified whenever it is read (the layout is in {@link PagedMap}; the
     * page blobs themselves, and so snapshots, keep the page format of
     * {@code dev.quiver.storage.format.WorldFormat#VERSION}). 2: tables persisted 64 to a page with
     * their rows inline up to 64 rows. 1: a types page and row pages per table.
     */
    static final int FORMAT_VERSION = 3;
    /**
     * The page map files, {@code <name>.cm}, in map-id order: the storage format's page families
     * ({@code WorldFormat.MAP_NAMES}; the layering test holds the two lists equal).
     */
    public static final String[] MAP_NAMES = {"meta", "schemas", "entities", "tables", "rows", "components", "reverse", "names"};
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
    /** Journal size past which a commit checkpoints, in bytes. */
    private static final long CHECKPOINT_BYTES = 64L << 20;

    /** Fault and crash injection for the tests of this package; {@link StoreHooks#NONE} otherwise. */
    static volatile StoreHooks hooks = StoreHooks.NONE;

    /** The world directory. */
    public final Path dir;
    final boolean readOnly;
    private final StoreHooks hook;
    /** Null for the temporary directory of a world being created. */
    private final Sessions sessions;
    /** The page maps, one per page family (in the format's map-id order). */
    public final PagedMap[] maps = new PagedMap[MAP_NAMES.length];
    Journal journal;
    private long txSeq;
    /** Why commits are refused (a journaled transaction is not fully applied), or null. */
    private String poisoned;
    /** Temporary copies of the map files for a read-only open on read-only media, or null. */
    private Path copies;
    private boolean closed, closedCleanly;
    /** Set once every file is open (and recovered): only then may close checkpoint and drop DIRTY. */
    private boolean opened;

    static {
        ChronicleSupport.init();
    }

    private Store(Path dir, boolean readOnly, Sessions sessions, StoreHooks hook) {
        this.dir = dir;
        this.readOnly = readOnly;
        this.sessions = sessions;
        this.hook = hook;
    }

    public static boolean isWorld(Path dir) {
        return Files.isRegularFile(dir.resolve("FORMAT"));
    }

    static String formatLine() {
        return "quiver world format " + FORMAT_VERSION;
    }

    /**
     * Creates a world at {@code dir} atomically ({@link NewWorld}): {@code fill} commits its first
     * pages into the store of a temporary sibling, which is then renamed into place.
     */
    public static void create(Path dir, Consumer<Store> fill) {
        NewWorld.create(dir, hooks, fill);
    }

    /** The store of a world being built in a temporary directory: nobody else knows it exists. */
    static Store openNew(Path tmp, StoreHooks hook) {
        Store st = new Store(tmp, false, null, hook);
        try {
            st.openMaps(tmp);
            st.journal = new Journal(tmp.resolve("journal"), hook.fileLayer());
            st.opened = true;
        } catch (RuntimeException e) {
            st.close();
            throw e;
        }
        return st;
    }

    /**
     * Opens an existing world, as its writer or as a reader; runs recovery first when it was not
     * closed cleanly.
     *
     * @throws NoWorldException       when {@code dir} holds no world
     * @throws WorldFormatException   when it has another format version
     * @throws WorldLockedException   when another process holds it (the message names it)
     * @throws CorruptionException    when a map file is missing or damaged
     * @throws StorageIOException     when the files cannot be read or written
     */
    public static Store open(Path dir, boolean readOnly) {
        if (!isWorld(dir)) {
            throw new NoWorldException("no world at " + dir + " (run 'quiver init' or 'quiver load' first)");
        }
        checkFormat(dir);
        StoreHooks hook = hooks;
        Sessions sessions = Sessions.enter(dir, !readOnly, hook);
        Store st = new Store(dir, readOnly, sessions, hook);
        try {
            st.openFiles();
        } catch (IOException e) {
            st.close();
            throw new StorageIOException("cannot open world " + dir + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            st.close();
            throw e;
        }
        return st;
    }

    private void openFiles() throws IOException {
        for (String name : MAP_NAMES) {
            Path f = dir.resolve(name + ".cm");
            if (!Files.exists(f)) {
                throw missingMapFile(dir, f);
            }
        }
        if (needsRecovery()) {
            if (!sessions.registered()) {
                throw new StorageIOException("world " + dir + " was not closed cleanly and needs recovery, "
                        + "which cannot run on read-only media: open it once where it can be written");
            }
            if (readOnly) {
                sessions.upgrade();
            }
            if (needsRecovery()) { // another opener may have recovered it while we waited
                recover();
            }
            if (readOnly) {
                sessions.downgrade();
            }
        }
        if (maps[0] == null) {
            if (readOnly && !sessions.registered() || readOnly && !mapFilesWritable()) {
                copies = Files.createTempDirectory("quiver-readonly-");
                for (String name : MAP_NAMES) {
                    Files.copy(dir.resolve(name + ".cm"), copies.resolve(name + ".cm"));
                }
                openMaps(copies);
            } else {
                openMaps(dir);
            }
        }
        if (!readOnly) {
            if (journal == null) {
                journal = new Journal(dir.resolve("journal"), hook.fileLayer());
            }
            Path dirty = dir.resolve("DIRTY");
            Files.writeString(dirty, "open by pid " + ProcessHandle.current().pid() + "\n");
            Recovery.force(dirty);
        }
        opened = true;
    }

    private boolean mapFilesWritable() {
        for (String name : MAP_NAMES) {
            if (!hook.writable(dir.resolve(name + ".cm"))) {
                return false;
            }
        }
        return true;
    }

    static CorruptionException missingMapFile(Path dir, Path file) {
        return new CorruptionException("world " + dir + " is missing its map file " + file
                + " (it is never recreated empty: restore the world from a snapshot)");
    }

    private boolean needsRecovery() {
        return Files.exists(dir.resolve("DIRTY")) || journalNonEmpty(dir) || Recovery.interrupted(dir)
                || !sessions.stale().isEmpty();
    }

    private static void checkFormat(Path dir) {
        try {
            String s = Files.readString(dir.resolve("FORMAT")).trim();
            String expect = formatLine();
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

    private PagedMap openMap(Path file, int i, boolean recover) {
        return PagedMap.open(file, MAP_NAMES[i], ENTRIES[i], AVG_VALUE[i], recover);
    }

    private void openMaps(Path from) {
        for (int i = 0; i < maps.length; i++) {
            maps[i] = openMap(from.resolve(MAP_NAMES[i] + ".cm"), i, false);
        }
    }

    /**
     * Recovers the map files ({@link Recovery}), re-applies every complete journal record
     * (idempotent after-images), forces the map files and empties the journal, and only then drops
     * the registrations of dead processes and (for a reader) the DIRTY marker. Runs under the
     * exclusive gate lock.
     */
    private void recover() throws IOException {
        var dead = sessions.stale();
        Recovery.recoverMapFiles(dir, this::openMap, hook);
        openMaps(dir);
        journal = new Journal(dir.resolve("journal"), hook.fileLayer());
        for (List<Journal.Entry> rec : journal.readAll()) {
            for (Journal.Entry e : rec) {
                maps[e.map()].put(e.key(), e.blob());
            }
        }
        hook.step("replayed");
        checkpoint();
        hook.step("checkpointed");
        sessions.removeStale(dead);
        if (readOnly) {
            journal.close();
            journal = null;
            Files.deleteIfExists(dir.resolve("DIRTY"));
        }
        hook.step("recovered");
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
            try {
                Recovery.force(f);
            } catch (IOException e) {
                throw new StorageIOException("cannot force " + f + " to disk: " + e.getMessage(), e);
            }
        }
        hook.step("checkpoint forced");
        journal.truncate();
    }

    /**
     * Commits one transaction: journal record forced to disk first, then the map files. When the
     * journal grows past 64 MiB the map files are forced to disk and the journal is emptied
     * ({@link #checkpoint()}).
     *
     * @throws StorageIOException when the record cannot be journaled (nothing changed: the caller
     *                            rolls back), or when it was journaled but could not be applied to
     *                            the map files (the store is then poisoned: the next open finishes it)
     */
    public void commit(List<Journal.Entry> entries) {
        if (entries.isEmpty()) {
            return;
        }
        if (readOnly) {
            throw new ReadOnlyException("world " + dir + " is open read-only");
        }
        if (poisoned != null) {
            throw new StorageIOException("world " + dir + " takes no more commits in this process: " + poisoned
                    + "; close and reopen it to finish that transaction from the journal");
        }
        long seq = ++txSeq;
        try {
            journal.append(seq, entries);
        } catch (StorageIOException e) {
            if (journal.damaged()) {
                poisoned = "its journal could not be cut back after a failed write";
            }
            throw e;
        }
        hook.afterJournal(seq);
        try {
            for (int i = 0; i < entries.size(); i++) {
                Journal.Entry e = entries.get(i);
                hook.beforeApply(seq, i);
                maps[e.map()].put(e.key(), e.blob());
            }
        } catch (RuntimeException | InternalError e) {
            // InternalError: a fault in a mapped page, e.g. the disk filled while a map grew
            poisoned = "a journaled transaction could not be applied to the map files (" + e.getMessage() + ")";
            throw new StorageIOException("world " + dir + ": transaction journaled but not applied to the map files ("
                    + e.getMessage() + "); the world is repaired from its journal when next opened", e);
        }
        if (journal.size() > CHECKPOINT_BYTES) {
            try {
                checkpoint();
            } catch (StorageIOException e) {
                // the transaction is committed; the journal stays and close checkpoints again
            }
        }
    }

    /** Why the store takes no more commits, or null. */
    String poisoned() {
        return poisoned;
    }

    /** True when {@link #close()} left nothing for a recovery to do. */
    boolean closedCleanly() {
        return closedCleanly;
    }

    public long bytesOnDisk() {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(Files::isRegularFile).mapToLong(p -> {
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

    /**
     * Closes the map files; for a healthy writer forces them and empties the journal and removes
     * the DIRTY marker, then unregisters. A poisoned store keeps journal and marker for the next
     * open. Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        boolean clean = opened; // a failed open (say, in recovery) leaves journal and DIRTY as they were
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
            if (clean && !readOnly && poisoned == null && !journal.damaged()) {
                try {
                    checkpoint();
                } catch (StorageIOException e) {
                    clean = false; // the journal stays; the next open replays it
                }
            } else if (!readOnly) {
                clean = false;
            }
            journal.close();
        }
        if (clean && !readOnly && sessions != null) {
            try {
                Files.deleteIfExists(dir.resolve("DIRTY"));
            } catch (IOException e) {
                clean = false; // recovery on next open handles it
            }
        }
        closedCleanly = clean;
        if (sessions != null) {
            sessions.close();
        }
        if (copies != null) {
            NewWorld.deleteTree(copies);
        }
    }

    /**
     * Test support: closes the files the way a killed process leaves them (no checkpoint, DIRTY
     * and the registration file stay, the journal keeps every record), so the next open recovers.
     */
    void abandon() {
        closed = true;
        for (PagedMap m : maps) {
            if (m != null) {
                m.close();
            }
        }
        if (journal != null) {
            journal.close();
        }
        if (sessions != null) {
            sessions.abandon();
        }
    }
}
