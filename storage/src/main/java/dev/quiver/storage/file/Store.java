package dev.quiver.storage.file;

import dev.quiver.storage.NoWorldException;
import dev.quiver.storage.WorldFormatException;
import dev.quiver.storage.ReadOnlyException;

import dev.quiver.index.ChronicleSupport;
import dev.quiver.error.CorruptionException;
import dev.quiver.error.QuiverException;
import dev.quiver.error.StorageIOException;

import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The files of a world directory: sealed generations, a manifest naming them, and a write-ahead
 * log (WAL) on top; readers beside one writer, and no state a killed process can wedge.
 *
 * <p>Directory layout (format {@value #FORMAT_VERSION}): {@code FORMAT} (text: the format line),
 * {@code CURRENT} (names the live manifest), {@code MANIFEST-<n>} ({@link Manifest}: the
 * generations to read, base first), {@code gen-<g>.cm} (sealed Chronicle Map files,
 * {@link Generation}), {@code wal-<n>} (the WAL of manifest n, {@link Journal}) and
 * {@code writer.lock} ({@link Locks}).
 *
 * <p><b>Commit.</b> The writer appends the transaction's page after-images to the WAL and forces it:
 * the transaction is durable. The pages also go into the writer's {@link Overlay} (the pages
 * changed since the newest generation) as where they lie in the WAL, not as bytes. Nothing else is
 * written: a failed append is cut back and reported, and changes nothing. A page may change by a
 * delta instead of an after-image (the reverse pages), or by a family delta (the names pages); the
 * overlay applies them when the page is read or sealed.
 *
 * <p><b>Checkpoint</b> (at close, and when the WAL passes 64 MiB): the overlay is written as a new
 * generation {@code gen-<n+1>.cm} (a delta; or, when the deltas would pass a quarter of the base
 * or number three, every page merged into a new base), forced and renamed into place; then
 * {@code MANIFEST-<n+1>} is written the same way and {@code CURRENT} replaced to name it, which is
 * the instant the checkpoint takes effect; then manifests no reader pins are retired with the
 * generations and WALs only they named. A crash anywhere before the swap leaves the old manifest
 * and its full WAL; after it, the new manifest and an empty WAL. Files no manifest names are
 * leftovers the next writer deletes.
 *
 * <p><b>Readers</b> pin the manifest CURRENT names ({@link Locks}), open its generations, and read
 * its WAL up to the last record complete at that moment: they see exactly the last committed state
 * at their start, never part of a transaction, and never wait for the writer nor hold it up.
 * Sealed files are never written again, so a lock a killed reader left inside one blocks nobody.
 *
 * <p><b>Read-only media.</b> Chronicle Map needs writable mappings, so a reader on media it cannot
 * write opens copies of the generation files in a temporary directory (deleted at close).
 */
public final class Store implements AutoCloseable {
    /**
     * The directory format, written to {@code FORMAT}. 5: a ninth page family ({@code sparse}, page
     * format 13), so a generation file's directory lists nine families. 4: sealed generations, manifests and a WAL.
     * 3: one Chronicle Map file per page family written in place, a journal, sessions. The page
     * blobs themselves, and so snapshots, keep the page format of
     * {@code dev.quiver.storage.format.WorldFormat#VERSION}.
     */
    static final int FORMAT_VERSION = 5;
    /**
     * The page families, in map-id order: the storage format's page families
     * ({@code WorldFormat.MAP_NAMES}; the layering test holds the two lists equal).
     */
    public static final String[] MAP_NAMES = {"meta", "schemas", "entities", "tables", "rows", "components", "reverse", "names", "sparse"};
    /** WAL size past which a commit checkpoints, in bytes. */
    private static final long CHECKPOINT_BYTES = 64L << 20;
    /** Deltas above the base past which a checkpoint merges everything into a new base. */
    private static final int MAX_DELTAS = 3;
    /** The pages committed since the newest generation. */
    private final Overlay overlay;
    /** Fault and crash injection for the tests of this package; {@link StoreHooks#NONE} otherwise. */
    static volatile StoreHooks hooks = StoreHooks.NONE;

    /** The world directory. */
    public final Path dir;
    final boolean readOnly;
    private final StoreHooks hook;
    private final Locks locks;
    private Manifest manifest;
    /** The generations of {@link #manifest}, base first. */
    private final List<Generation> gens = new ArrayList<>();
    /** The writer's WAL; null for a reader. */
    Journal journal;
    /** A reader's WAL, read only (its overlay reads pages from it), or null. */
    private Journal walReader;
    private long txSeq;
    /** Why commits are refused (the WAL could not be cut back after a failed append), or null. */
    private String poisoned;
    /** Temporary copies of the generation files for a reader on read-only media, or null. */
    private Path copies;
    private boolean closed, closedCleanly;
    private int walRecords;

    /** What this store read at open, for diagnostics: the manifest, its generations, the WAL records. */
    @Override
    public String toString() {
        return "store of " + dir + ": " + Manifest.fileName(manifest.number()) + " generations " + manifest.generations()
                + ", " + walRecords + " WAL records at open";
    }

    static {
        ChronicleSupport.init();
    }

    private Store(Path dir, boolean readOnly, Locks locks, StoreHooks hook, PageDeltas pageDeltas) {
        this.dir = dir;
        this.readOnly = readOnly;
        this.locks = locks;
        this.hook = hook;
        this.overlay = new Overlay(dir, pageDeltas, this::generationImage);
    }

    /** True for a reader's store (its committed state never changes while it is open). */
    public boolean isReadOnly() {
        return readOnly;
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
    public static void create(Path dir, PageDeltas pageDeltas, Consumer<Store> fill) {
        NewWorld.create(dir, hooks, pageDeltas, fill);
    }

    /** The store of a world being built in a temporary directory: nobody else knows it exists. */
    static Store openNew(Path tmp, StoreHooks hook, PageDeltas pageDeltas) {
        Store st = new Store(tmp, false, Locks.none(tmp), hook, pageDeltas);
        st.manifest = new Manifest(0, List.of());
        st.journal = new Journal(tmp.resolve(Manifest.walName(0)), hook.fileLayer());
        return st;
    }

    /**
     * Opens an existing world, as its writer or as a reader; {@code pageDeltas} applies the deltas
     * its WAL may hold.
     *
     * @throws NoWorldException       when {@code dir} holds no world
     * @throws WorldFormatException   when it has another format version
     * @throws dev.quiver.storage.WorldLockedException when another process has it open for writing
     *                                (a writer opening; the message names it)
     * @throws CorruptionException    when a file of the world is missing or damaged
     * @throws StorageIOException     when the files cannot be read or written
     */
    public static Store open(Path dir, boolean readOnly, PageDeltas pageDeltas) {
        if (!isWorld(dir)) {
            throw new NoWorldException("no world at " + dir + " (run 'quiver init' or 'quiver load' first)");
        }
        checkFormat(dir);
        StoreHooks hook = hooks;
        Locks locks = readOnly ? Locks.reader(dir) : Locks.writer(dir);
        Store st = new Store(dir, readOnly, locks, hook, pageDeltas);
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
        long n = readOnly ? locks.pinCurrent() : Manifest.current(dir);
        try {
            manifest = readOnly ? Manifest.parse(dir.resolve(Manifest.fileName(n)), n, locks.readPinned()) : Manifest.read(dir, n);
        } catch (NoSuchFileException e) {
            throw new CorruptionException("world " + dir + " is missing its manifest " + e.getFile(), e);
        }
        if (manifest.generations().isEmpty()) {
            throw new CorruptionException("manifest " + Manifest.fileName(n) + " of world " + dir + " names no generation");
        }
        for (long g : manifest.generations()) {
            Path f = dir.resolve(Generation.fileName(g));
            if (readOnly && Files.isRegularFile(f) && !hook.writable(f)) {
                if (copies == null) {
                    copies = Files.createTempDirectory("quiver-readonly-");
                }
                Path c = copies.resolve(f.getFileName());
                Files.copy(f, c);
                f = c;
            }
            gens.add(Generation.open(f, g, MAP_NAMES.length));
        }
        if (!gens.get(0).base) {
            throw new CorruptionException("world " + dir + ": the first generation of " + Manifest.fileName(n) + " is not a base");
        }
        Path wal = dir.resolve(Manifest.walName(n));
        List<Journal.Located> records;
        if (readOnly) {
            walReader = Journal.openForReading(wal);
            records = walReader == null ? List.of() : walReader.committed();
        } else {
            journal = new Journal(wal, hook.fileLayer());
            records = journal.recover();
        }
        for (Journal.Located rec : records) {
            overlay.apply(rec.entries(), rec.blobs());
        }
        walRecords = records.size();
        if (!readOnly) {
            collectGarbage();
        }
    }

    private static void checkFormat(Path dir) {
        try {
            String s = Files.readString(dir.resolve("FORMAT")).trim();
            String expect = formatLine();
            if (!s.equals(expect)) {
                throw new WorldFormatException("world " + dir + " has format '" + s + "', this build reads '" + expect
                        + "' (take a snapshot with the build that wrote it and restore it with this one)");
            }
        } catch (IOException e) {
            throw new StorageIOException("cannot read " + dir.resolve("FORMAT") + ": " + e.getMessage(), e);
        }
    }

    // ------------------------------------------------------------------ reading pages

    /**
     * The committed blob of a page, or null when there is none.
     *
     * @throws CorruptionException when the page is damaged (the message names the file and the page)
     */
    public byte[] get(int family, long key) {
        return overlay.get(family, key);
    }

    /** The page's image in the newest generation that holds or removes it, or null. */
    private byte[] generationImage(int family, long key) {
        for (int i = gens.size() - 1; i >= 0; i--) {
            Generation g = gens.get(i);
            if (g.holds(family, key)) {
                return g.get(family, key);
            }
            if (g.removes(family, key)) {
                return null;
            }
        }
        return null;
    }


    /** Test support: {@link Overlay#heapBytes}. */
    long overlayHeapBytes() {
        return overlay.heapBytes();
    }

    /** Calls {@code action} with every committed page of {@code family}, in ascending key order. */
    public void forEach(int family, BiConsumer<Long, byte[]> action) {
        long[] keys = liveKeys(family);
        for (long k : keys) {
            byte[] b = get(family, k);
            if (b != null) {
                action.accept(k, b);
            }
        }
    }

    /** The keys of the committed pages of {@code family}, ascending. */
    private long[] liveKeys(int family) {
        overlay.settleAll(family);
        var set = new LongOpenHashSet();
        for (Generation g : gens) {
            for (long k : g.removed(family)) {
                set.remove(k);
            }
            for (long k : g.keys(family)) {
                set.add(k);
            }
        }
        overlay.mergeKeys(family, set);
        long[] out = set.toLongArray();
        Arrays.sort(out);
        return out;
    }

    // ------------------------------------------------------------------ commit and checkpoint

    /**
     * Commits one transaction: its WAL record forced to disk, then its pages into the overlay. When
     * the WAL passes 64 MiB a checkpoint follows ({@link #checkpoint()}).
     *
     * @throws StorageIOException when the record cannot be written (nothing changed: the caller
     *                            rolls back)
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
                    + "; close and reopen it", null);
        }
        long seq = ++txSeq;
        WalBlob[] logged;
        try {
            logged = journal.append(seq, entries);
        } catch (StorageIOException e) {
            if (journal.damaged()) {
                poisoned = "its WAL could not be cut back after a failed write";
            }
            throw e;
        }
        hook.afterJournal(seq);
        overlay.apply(entries, logged);
        if (journal.size() > CHECKPOINT_BYTES) {
            try {
                checkpoint();
            } catch (StorageIOException e) {
                // the transaction is committed in the WAL; the next checkpoint tries again
            }
        }
    }

    /** Why the store takes no more commits, or null. */
    String poisoned() {
        return poisoned;
    }

    /** True when {@link #close()} left the WAL empty (everything in sealed generations). */
    boolean closedCleanly() {
        return closedCleanly;
    }

    /**
     * Seals the overlay into a new generation and makes it current (see the class comment). On
     * failure before the swap nothing changed (the WAL keeps every transaction) and the partial
     * files are deleted.
     *
     * @throws StorageIOException when the files cannot be written
     */
    void checkpoint() {
        if (overlay.isEmpty()) {
            return;
        }
        for (int f = 0; f < MAP_NAMES.length; f++) {
            overlay.settleAll(f); // a generation holds whole pages only
        }
        long n = manifest.number() + 1;
        long deltaBytes = overlay.bytes();
        for (int i = 1; i < gens.size(); i++) {
            deltaBytes += gens.get(i).pageBytes;
        }
        // space amplification at most 1.25: merge once the deltas would pass a quarter of the base
        boolean merge = gens.isEmpty() || gens.size() - 1 >= MAX_DELTAS || deltaBytes * 4 > gens.get(0).pageBytes;
        Path genFile = dir.resolve(Generation.fileName(n));
        Path tmp = dir.resolve(Generation.fileName(n) + ".tmp");
        Manifest next;
        try {
            Files.deleteIfExists(dir.resolve(Manifest.walName(n)));
            writeGeneration(tmp, merge);
            hook.step("checkpoint written");
            Fsync.rename(tmp, genFile);
            var list = new ArrayList<Long>();
            if (!merge) {
                list.addAll(manifest.generations());
            }
            list.add(n);
            next = new Manifest(n, List.copyOf(list));
            next.write(dir);
            hook.step("checkpoint manifest");
            next.makeCurrent(dir);
        } catch (IOException | RuntimeException e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // a leftover the next writer deletes
            }
            if (e instanceof QuiverException q) {
                throw q;
            }
            throw new StorageIOException("checkpoint of world " + dir + " failed: " + e.getMessage(), e);
        }
        hook.step("checkpoint current");
        // the new manifest is live: switch to it
        journal.close();
        journal = new Journal(dir.resolve(Manifest.walName(n)), hook.fileLayer());
        Generation g = Generation.open(genFile, n, MAP_NAMES.length);
        if (merge) {
            closeGenerations();
        }
        gens.add(g);
        manifest = next;
        overlay.clear();
        collectGarbage();
        hook.step("checkpoint done");
    }

    private void writeGeneration(Path file, boolean merge) {
        int families = MAP_NAMES.length;
        LongArrayList[] keys = new LongArrayList[families], removed = new LongArrayList[families];
        long bytes = 0;
        for (int f = 0; f < families; f++) {
            removed[f] = new LongArrayList();
            if (merge) {
                keys[f] = new LongArrayList(liveKeys(f));
            } else {
                keys[f] = new LongArrayList();
                overlay.splitKeys(f, keys[f], removed[f]);
            }
        }
        if (merge) {
            for (Generation g : gens) {
                bytes += g.pageBytes; // an upper bound: it only sizes the file
            }
        }
        bytes += overlay.bytes();
        Generation.write(file, merge, keys, (f, k) -> {
            byte[] b = get(f, k);
            if (b == null) {
                throw new IllegalStateException("page " + k + " of family " + f + " vanished during a checkpoint");
            }
            return b;
        }, bytes, removed);
    }

    /**
     * Deletes what no live manifest needs: manifests no reader pins (other than the current one),
     * then generations and WALs no remaining manifest names, and temporary files of interrupted
     * checkpoints. Runs in the writer only. Failures leave files behind for a later pass.
     */
    private void collectGarbage() {
        long cur = manifest.number();
        var keepGens = new LongOpenHashSet(manifest.generations().stream().mapToLong(Long::longValue).toArray());
        var keepWals = new LongOpenHashSet(new long[] {cur});
        boolean unknown = false;
        var files = new ArrayList<Path>();
        try (Stream<Path> s = Files.list(dir)) {
            s.forEach(files::add);
        } catch (IOException e) {
            return;
        }
        for (Path p : files) {
            String name = p.getFileName().toString();
            if (!name.startsWith("MANIFEST-") || name.endsWith(".tmp")) {
                continue;
            }
            long m = number(name, "MANIFEST-", "");
            if (m < 0 || m == cur) {
                continue;
            }
            if (m > cur || Locks.retire(p)) {
                if (m > cur) {
                    delete(p);
                }
                continue;
            }
            keepWals.add(m); // pinned by a reader
            try {
                for (long g : Manifest.read(dir, m).generations()) {
                    keepGens.add(g);
                }
            } catch (IOException | RuntimeException e) {
                unknown = true; // cannot tell what it needs: keep every generation this time
            }
        }
        for (Path p : files) {
            String name = p.getFileName().toString();
            if (name.endsWith(".tmp")) {
                delete(p);
            } else if (name.startsWith("gen-") && name.endsWith(".cm")) {
                long g = number(name, "gen-", ".cm");
                if (g >= 0 && !keepGens.contains(g) && !unknown) {
                    delete(p);
                }
            } else if (name.startsWith("wal-")) {
                long w = number(name, "wal-", "");
                if (w >= 0 && !keepWals.contains(w)) {
                    delete(p);
                }
            }
        }
    }

    private static long number(String name, String prefix, String suffix) {
        if (!name.startsWith(prefix) || !name.endsWith(suffix)) {
            return -1;
        }
        try {
            return Long.parseLong(name.substring(prefix.length(), name.length() - suffix.length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static void delete(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // deleted by a later pass
        }
    }

    /** The generation files of the live manifest, base first (for tools and tests). */
    public static List<Path> generationFiles(Path dir) {
        try {
            var out = new ArrayList<Path>();
            for (long g : Manifest.read(dir, Manifest.current(dir)).generations()) {
                out.add(dir.resolve(Generation.fileName(g)));
            }
            return out;
        } catch (IOException e) {
            throw new StorageIOException("cannot read the manifest of " + dir + ": " + e.getMessage(), e);
        }
    }

    /** The Chronicle key under which a generation file stores page {@code key} of {@code family}. */
    public static long generationKey(int family, long key) {
        return ((long) family << 56) | key;
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

    private void closeGenerations() {
        for (Generation g : gens) {
            try {
                g.close();
            } catch (RuntimeException ignored) {
                // read-only use: nothing to lose
            }
        }
        gens.clear();
    }

    /**
     * Closes the world's files. The writer checkpoints first, so a cleanly closed world has an empty
     * WAL; when the checkpoint fails the WAL keeps every transaction for the next open. Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        boolean clean = true;
        if (journal != null) {
            try {
                checkpoint();
            } catch (RuntimeException e) {
                clean = false; // the WAL stays; the next open reads it
            }
            journal.close();
        }
        if (walReader != null) {
            walReader.close();
        }
        closeGenerations();
        closedCleanly = clean && poisoned == null;
        locks.close();
        if (copies != null) {
            NewWorld.deleteTree(copies);
        }
    }

    /**
     * Test support: closes the files the way a killed process leaves them (no checkpoint, the WAL
     * keeps every record).
     */
    void abandon() {
        closed = true;
        if (journal != null) {
            journal.close();
        }
        if (walReader != null) {
            walReader.close();
        }
        closeGenerations();
        locks.close();
    }
}
