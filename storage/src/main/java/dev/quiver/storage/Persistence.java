package dev.quiver.storage;

import dev.quiver.error.BadInputException;
import dev.quiver.storage.file.Journal;
import dev.quiver.storage.file.Store;
import dev.quiver.storage.format.PageImage;
import dev.quiver.storage.format.PageSource;
import dev.quiver.storage.format.WorldFormat;
import dev.quiver.storage.format.WorldParts;
import dev.quiver.storage.tx.Changes;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The link between a world's in-memory structures and its files: loading the committed state,
 * committing what a transaction changed as pages, undoing a refused transaction, and the committed
 * pages for the checker and for snapshots. {@link World} decides when; this class knows how.
 */
final class Persistence {
    private Store store;
    private final WorldParts parts;
    private final WorldFormat format;
    private final Changes changes;
    /** The sparse pairs (their forward store is paged: {@link WorldParts#sparse}). */
    private final dev.quiver.storage.rules.SparsePairs sparse;

    Persistence(Store store, WorldParts parts, WorldFormat format, Changes changes,
                dev.quiver.storage.rules.SparsePairs sparse) {
        this.sparse = sparse;
        this.store = store;
        this.parts = parts;
        this.format = format;
        this.changes = changes;
        if (!store.isReadOnly()) {
            format.writerBudget(writerEntityBlocks, writerReverseBlocks, writerNameBuckets);
        }
    }

    /**
     * Continues on {@code st}, the files of the state already in memory (a new world, built in a
     * temporary directory whose store is closed, then renamed into place): nothing is read.
     */
    void reopen(Store st) {
        store = st;
    }

    boolean isOpen() {
        return store != null;
    }

    /** Closes the files (the writer's store checkpoints). Idempotent. */
    void close() {
        if (store != null) {
            store.close();
            store = null;
        }
    }

    /** Bytes the world's files take, 0 once closed. */
    long bytesOnDisk() {
        return store == null ? 0 : store.bytesOnDisk();
    }

    /** The committed pages. */
    PageSource committed() {
        Store st = store;
        return new PageSource() {
            @Override
            public byte[] get(int map, long key) {
                return st.get(map, key);
            }

            @Override
            public void forEach(int map, PageVisitor visitor) {
                st.forEach(map, (k, b) -> visitor.visit(k, b));
            }
        };
    }

    /**
     * The committed pages of whichever store the world is on when a page is asked for: the source
     * a writer's forgotten blocks are read back from ({@link WorldFormat#trimWriter}; a new world
     * commits its first pages in a temporary store, then goes on over the renamed files).
     */
    private PageSource committedNow() {
        return new PageSource() {
            @Override
            public byte[] get(int map, long key) {
                return openStore().get(map, key);
            }

            @Override
            public void forEach(int map, PageVisitor visitor) {
                openStore().forEach(map, (k, b) -> visitor.visit(k, b));
            }
        };
    }

    private Store openStore() {
        Store st = store;
        if (st == null) {
            throw new IllegalStateException("the world is closed");
        }
        return st;
    }

    /**
     * A writer's bounds on the decoded blocks it keeps between transactions ({@link WorldFormat#writerBudget}):
     * {@code -Dquiver.writer.entityBlocks} (default {@value #WRITER_ENTITY_BLOCKS}),
     * {@code -Dquiver.writer.reverseBlocks} (default {@value #WRITER_REVERSE_BLOCKS}) and
     * {@code -Dquiver.writer.nameBuckets} (default {@value #WRITER_NAME_BUCKETS}: unbounded); 0 or a negative
     * value: unbounded. Read when the world is opened or created. Name buckets stay unbounded by
     * default: a bulk commit adds names to every one of the 4096 buckets, so a bound makes each
     * commit of a bulk load read the forgotten buckets back (RG-1 depth 6 with a bound of 1024:
     * each of its 23 load commits reads about 3,000 buckets again, for about 60 MiB less live heap).
     */
    static final int WRITER_ENTITY_BLOCKS = 256, WRITER_REVERSE_BLOCKS = 512, WRITER_NAME_BUCKETS = 0; // reverse blocks of 1024 targets (format 8)
    private final int writerEntityBlocks = bound("quiver.writer.entityBlocks", WRITER_ENTITY_BLOCKS);
    private final int writerReverseBlocks = bound("quiver.writer.reverseBlocks", WRITER_REVERSE_BLOCKS);
    private final int writerNameBuckets = bound("quiver.writer.nameBuckets", WRITER_NAME_BUCKETS);

    private static int bound(String property, int dflt) {
        int v = Integer.getInteger(property, dflt);
        return v <= 0 ? Integer.MAX_VALUE : v;
    }

    /** Applies the writer's bounds (after a load: loading clears them). */
    private void bound() {
        if (store != null && !store.isReadOnly()) {
            format.applyWriterBudget();
        }
    }

    /** The writer forgets decoded blocks past its bounds: the in-memory state is the committed one. */
    private void trim() {
        if (store != null && !store.isReadOnly()) {
            format.trimWriter(committedNow());
        }
    }

    /** Reads the committed state into the (cleared) in-memory structures. */
    void load() {
        parts.entities().clear();
        parts.names().clear();
        parts.reverse().clear();
        parts.schemas().clear();
        parts.tables().clear();
        parts.sparse().clear();
        format.clear();
        format.load(committed(), store.dir.toString());
        if (store.isReadOnly()) { // a reader's pages never change: keep only the working set decoded
            format.boundCaches(WorldFormat.READER_REVERSE_BLOCKS, WorldFormat.READER_NAME_BUCKETS);
        } else {
            bound();
        }
        sparse.reloaded();
    }

    /** Drops the tables the transaction emptied, then writes the pages its changes touched (one WAL record). */
    void commit() {
        parts.tables().dropEmpty(changes.shrunk());
        List<PageImage> pages = format.pagesFor(changes);
        changes.clear();
        sparse.commit();
        var entries = new ArrayList<Journal.Entry>(pages.size());
        for (PageImage p : pages) {
            entries.add(new Journal.Entry(p.map(), p.key(), p.blob(), p.delta()));
        }
        store.commit(entries);
        trim();
    }

    /**
     * Brings the in-memory state back to the committed state. A transaction refused by a rule (a
     * {@link BadInputException} before its commit started) is undone by reading back only the
     * pages it touched; anything else (an I/O failure during the commit, a bug, an Error) reloads
     * the whole committed state, which is always correct.
     */
    void rollback(Throwable cause, boolean committing) {
        if (cause instanceof BadInputException && !committing) {
            sparse.undo();
            try {
                format.rollback(committed(), changes);
                trim();
                return;
            } catch (RuntimeException e) {
                cause.addSuppressed(e);
            }
        }
        changes.clear();
        load();
    }

    /** Streams every persistent page of the in-memory state (outside a transaction: the committed state). */
    void forEachPage(WorldPages.PageVisitor visitor) {
        for (int m = 0; m < WorldFormat.MAP_NAMES.length; m++) {
            if (m == WorldFormat.SPARSE) { // the blocks not read yet as stored, not decoded to be written again
                format.statePages().forEachSparsePage(committed(), (k, b) -> visitor.visit(WorldFormat.MAP_NAMES[WorldFormat.SPARSE], k, b));
                continue;
            }
            for (long k : format.statePages().expectedKeys(m)) {
                byte[] b = format.serialize(m, k);
                if (b != null) {
                    visitor.visit(WorldFormat.MAP_NAMES[m], k, b);
                }
            }
        }
    }

    /**
     * Streams the committed pages as they are once {@code removeTransient} has taken the pairs a
     * snapshot leaves out out of the in-memory state (it returns whether it removed any); that
     * change is never committed: the committed state is read back afterwards. Runs where a
     * transaction would (the caller marks one open).
     */
    void forEachSnapshotPage(WorldPages.PageVisitor visitor, java.util.function.BooleanSupplier removeTransient) {
        boolean removed = false;
        try {
            format.readEverything(); // whole and unbounded: the removal below must not be forgotten
            removed = removeTransient.getAsBoolean();
            if (removed) { // as a commit would, without writing (the format's bookkeeping follows)
                parts.tables().dropEmpty(changes.shrunk());
                format.pagesFor(changes);
                changes.clear();
            }
            forEachPage(visitor);
        } finally {
            if (removed) {
                rollback(new IllegalStateException("snapshot view"), true);
            } else {
                trim(); // the state read whole is the committed one: back to the writer's bounds
            }
        }
    }

    /**
     * Commits snapshot pages into a new world's store.
     *
     * @throws BadInputException when a page names an unknown map
     */
    static void commitPages(Store st, Iterable<WorldPages.Page> pages) {
        var entries = new ArrayList<Journal.Entry>();
        for (WorldPages.Page p : pages) {
            int m = Arrays.asList(WorldFormat.MAP_NAMES).indexOf(p.mapName());
            if (m < 0) {
                throw new BadInputException("unknown map '" + p.mapName() + "' in pages");
            }
            entries.add(new Journal.Entry(m, p.key(), p.blob()));
        }
        st.commit(entries);
    }
}
