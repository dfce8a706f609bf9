package dev.quiver.storage.format;

import dev.quiver.error.CorruptionException;
import dev.quiver.index.LazyBlocks;
import dev.quiver.storage.entity.EntityNames;
import dev.quiver.storage.Schema;
import dev.quiver.storage.table.Table;
import dev.quiver.storage.table.TableSet;
import dev.quiver.storage.tx.Changes;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The page layout of a world (documented in this package's {@code package-info}): turns a
 * transaction's {@link Changes} into the page images to write, serializes any page from the
 * in-memory structures, reads a committed state back, and lists the pages a state must have.
 *
 * <p>It keeps one piece of persistence bookkeeping that in-memory code never sees: which tables
 * keep their rows in row pages on disk (more than {@link RowPage#INLINE_ROWS} rows at their last
 * commit). The component index is not stored: it is a function of the table types, rebuilt when a
 * world is read ({@link TableSet#fileAll}). Not thread-safe.
 */
public final class WorldFormat {
    /**
     * The page format version, the first i32 of the meta page. 2: tables persisted 64 to a page
     * with their rows inline up to 64 rows. 3: varint and delta encodings, LZ4 for pages over 256
     * bytes ({@link PageCompression}), names pages without the names. 4: no {@code components}
     * pages (the component index is rebuilt from the table types; family 5 stays reserved);
     * schema pages carry default field values; the builtins CanToggle (index 28) and Transient
     * (29) exist, whose meaning older builds lack (a {@code (Disabled, C)} pair is a disabled
     * component; Transient pairs are left out of snapshots). 5: the builtins DontFragment (30) and
     * Union (31) exist; a table type may hold the sparse marker {@code (R, *)} of a relationship
     * whose pairs are stored without fragmenting (their targets are in the reverse pages only; the
     * forward store is rebuilt from them at load, {@code rules.SparsePairs}).
     * Also in 5: {@code names} pages by bucket of
     * the key's hash instead of by entity block, so that a lookup by name reads one page (open in
     * place: the name index and the reverse index are read page by page when first touched).
     * 6: a commit logs the changes of {@code names} pages as deltas (the entries each bucket
     * gained and lost, {@link PageImage#delta()}) in its WAL record, flagged in the entry's map
     * byte; whole bucket pages are written when a checkpoint seals a generation. A build of
     * format 5 would misread such a WAL, so the version changes with it.
     * 7 (open in place): an {@code entities} page gives each alive entity's table and row (row
     * pages no longer place entities, so the entity index is read block by block when touched);
     * the meta page gives the number of alive entities; a {@code names} entry carries the
     * entity's generation and the key's hash (a bucket is read without entity pages).
     * Also in 7: schema pages carry field ranges ({@code Schema.Range}) after the defaults.
     * Also in 7: the builtin DisabledRelationship (32) exists: it marks the toggle companion R~ of a
     * relationship R with CanToggle (a child of R named {@code ~}), whose pairs {@code (R~, T)} are
     * disabled pairs {@code (R, T)} ({@code rules.Toggles}); an older build would read them as
     * pairs of an ordinary relationship, and a format-6 world lacks the builtin.
     * Also in 7: {@code reverse} pages take deltas too (the adds and removes a commit made to a block's
     * lists, in order, {@link ReversePage#writeDelta}): a prefab's block lists every instance, and
     * rewriting it whole made each instantiation cost O(instances).
     * 8 (a first query after an open reads few pages): {@code reverse} pages hold blocks of 1024
     * targets (64 before), keyed by target index / 1024; a build of format 7 would misread their
     * keys. Entity pages are unchanged (their names, front-coded, are kept as bytes when read and
     * decoded when first asked, which is no change of layout).
     * 9: a commit logs its {@code names} changes as one family delta (WAL key
     * {@link #FAMILY_DELTA}: every bucket's part behind a directory, {@link NamePage#writeDelta})
     * instead of one delta entry per bucket; a bulk commit touched every bucket, so 4,096 entries.
     * A build of format 8 would reject the WAL's key.
     * 10 (a first query after an open skips the blocks it cannot need): {@code reverse} pages keyed
     * from {@code 2^32} on are summaries ({@link ReverseSummary}): for each block of a group of 1024,
     * the relationships its entries may name, so that a lookup of one relationship's sources
     * reads no block that holds none. A build of format 9 would take them for blocks of targets.
     * 11: an {@code entities} page's names follow all its entries, as a section of their own, so
     * that reading a block stops before them ({@link EntityPage}).
     * 12 (the first query after an open restores entity blocks in bulk): an {@code entities}
     * page's entries are runs (one state, generation and table, consecutive rows), read as a few
     * fills per block instead of one decode and one call per entity; a build of format 11 would
     * read a run as one entry.
     * 13 (open in place for non-fragmenting relationships): {@code sparse} pages ({@link SparsePage},
     * family 8) hold the forward half of the sparse pairs, by relationship and block of 1024
     * sources, read when a source is first asked about; before, the first sparse check after an
     * open rebuilt every sparse pair from the reverse pages. A format-12 world has no such pages
     * (and its generation files one family less).
     */
    public static final int VERSION = 13;
    /**
     * Page families, in map-id order (the id is part of every stored key, so it never changes).
     * {@code components} ({@link #COMPONENTS}) is retired since version 4: no page of it is written
     * or expected, and one found in a world is reported by the checker.
     */
    public static final String[] MAP_NAMES = {"meta", "schemas", "entities", "tables", "rows", "components", "reverse", "names", "sparse"};
    public static final int META = 0, SCHEMAS = 1, ENTITIES = 2, TABLES = 3, ROWS = 4, COMPONENTS = 5, REVERSE = 6, NAMES = 7,
            SPARSE = 8;
    /**
     * The key of a family delta image ({@link PageImage#delta()}): the changes of one commit to many
     * pages of its family (the file layer's {@code Journal.FAMILY_DELTA}, the same value).
     */
    public static final long FAMILY_DELTA = -1;

    private final WorldParts parts;
    /** Tables whose committed rows are in row pages. */
    private IntOpenHashSet chunkedOnDisk = new IntOpenHashSet();
    /** The committed pages the lazy structures read from (set by {@link #load}), or null. */
    private PageSource lazySource;
    /** The world is a reader's: its tables stay the committed ones (entity pages are checked against their rows). */
    private boolean readOnly;
    /** The state was read from committed pages by {@link #load} (not built in memory). */
    private boolean readFromPages;
    /** A writer's bounds ({@link #writerBudget}): entity blocks, reverse blocks, name buckets; MAX_VALUE: unbounded. */
    private int writerEntityBlocks = Integer.MAX_VALUE, writerReverseBlocks = Integer.MAX_VALUE,
            writerNameBuckets = Integer.MAX_VALUE;
    /** Row pages decoded (tables read when first touched). */
    private long rowPagesRead;
    /** The buffer pages are serialized into (toBytes copies each page out). */
    private final Bytes.Writer writer = new Bytes.Writer(1 << 16);
    /** The relationships each reverse block may hold (page format 10). */
    private final ReverseSummary summary = new ReverseSummary();
    /** The pages a state must hold ({@link StatePages}). */
    private final StatePages statePages;

    public WorldFormat(WorldParts parts) {
        this.parts = parts;
        this.statePages = new StatePages(parts, summary, this);
    }

    /** The pages the in-memory state must hold: their keys, the sparse pages streamed, the summaries' coverage. */
    public StatePages statePages() {
        return statePages;
    }

    /** Forgets the bookkeeping (before a reload). */
    public void clear() {
        chunkedOnDisk = new IntOpenHashSet();
        lazySource = null;
        readFromPages = false;
        rowPagesRead = 0;
        readOnly = false;
        summary.clear();
    }

    // ------------------------------------------------------------------ writing

    /**
     * The page images that make the committed state reflect {@code c}, sorted by family and key,
     * and the bookkeeping updated as if they were written. A page left empty has a null blob.
     */
    public List<PageImage> pagesFor(Changes c) {
        var dirty = new LongOpenHashSet[MAP_NAMES.length];
        for (int m = 0; m < dirty.length; m++) {
            dirty[m] = new LongOpenHashSet();
        }
        if (c.metaChanged()) {
            dirty[META].add(0);
        }
        for (int k : c.schemas()) {
            dirty[SCHEMAS].add(k);
        }
        for (int k : c.entityBlocks()) {
            dirty[ENTITIES].add(k);
        }
        for (int k : c.wholeTargetBlocks()) {
            dirty[REVERSE].add(k);
        }
        parts.sparse().forEachChangedBlock((rel, b) -> dirty[SPARSE].add(SparsePage.key(rel, b)));
        // tables: a group page holds the tables' types and their inline rows; a table whose rows
        // move between inline and row pages gets every row page written (or removed)
        for (int id : c.tables()) {
            Table t = parts.tables().get(id);
            boolean chunked = t != null && t.count() > RowPage.INLINE_ROWS;
            boolean wasChunked = chunkedOnDisk.contains(id);
            if (!chunked || chunked != wasChunked) {
                dirty[TABLES].add(id >>> TablePage.GROUP_SHIFT);
            }
            if (t != null && chunked != wasChunked) {
                for (int ch = 0; ch == 0 || ch <= (t.count() - 1) >>> RowPage.CHUNK_SHIFT; ch++) {
                    dirty[ROWS].add(RowPage.key(id, ch));
                }
            }
        }
        for (long key : c.rowChunks()) {
            int id = (int) (key >>> 20);
            Table t = parts.tables().get(id);
            if ((t != null && t.count() > RowPage.INLINE_ROWS) || chunkedOnDisk.contains(id)) {
                dirty[ROWS].add(key);
                dirty[TABLES].add(id >>> TablePage.GROUP_SHIFT); // its page gives the row count (format 7)
            }
        }
        var out = new ArrayList<PageImage>();
        for (int m = 0; m < dirty.length; m++) {
            long[] keys = dirty[m].toLongArray();
            Arrays.sort(keys);
            for (long k : keys) {
                out.add(new PageImage(m, k, serialize(m, k)));
            }
        }
        // names: the entries each bucket gained and lost, not the bucket, all buckets in one
        // family delta (a bulk commit touches every bucket; whole pages are written when a
        // checkpoint seals them, applyDelta)
        byte[] names = NamePage.writeDelta(parts.entities(), c, writer);
        if (names != null) {
            out.add(new PageImage(NAMES, FAMILY_DELTA, names, true));
        }
        // reverse blocks changed entry by entry: the operations, not the block (a prefab's block
        // lists every instance; ReversePage.applyDelta)
        int[] blocks = c.reverseOps().keySet().toIntArray();
        Arrays.sort(blocks);
        for (int b : blocks) {
            byte[] d = ReversePage.writeDelta(c.reverseOps().get(b), writer);
            if (d != null) {
                out.add(new PageImage(REVERSE, b, d, true));
            }
        }
        // the summaries of the blocks changed, in the same record (ReverseSummary)
        for (long g : summarize(c)) {
            out.add(new PageImage(REVERSE, g, serialize(REVERSE, g)));
        }
        for (long g : dirty[TABLES]) {
            int from = (int) g << TablePage.GROUP_SHIFT;
            for (int id = from; id < from + (1 << TablePage.GROUP_SHIFT); id++) {
                Table t = parts.tables().get(id);
                if (t != null && t.count() > RowPage.INLINE_ROWS) {
                    chunkedOnDisk.add(id);
                } else {
                    chunkedOnDisk.remove(id);
                }
            }
        }
        return out;
    }

    /**
     * Brings the reverse blocks' summaries up to what {@code c} did to the blocks: an add adds its
     * relationship to its block's set (a remove leaves it: a superset is safe, and a block's
     * exact set would cost a scan of the block per commit), a block written whole gets exactly
     * its relationships. The keys of the summary pages that changed, ascending.
     */
    private long[] summarize(Changes c) {
        var changed = new LongOpenHashSet();
        for (var en : c.reverseOps().int2ObjectEntrySet()) {
            int b = en.getIntKey();
            LongArrayList ops = en.getValue();
            long[] a = ops.elements();
            int last = -1;
            for (int k = 0; k + 1 < ops.size(); k += 2) {
                int rel = (int) (a[k + 1] >>> 32);
                if ((a[k] & 1) == 0 && rel != last) {
                    last = rel;
                    if (summary.add(b, rel)) {
                        changed.add(ReverseSummary.KEY_BASE + (b >>> ReverseSummary.GROUP_SHIFT));
                    }
                }
            }
        }
        for (int b : c.wholeTargetBlocks()) {
            if (summary.set(b, ReverseSummary.relationshipsOf(parts.reverse(), b))) {
                changed.add(ReverseSummary.KEY_BASE + (b >>> ReverseSummary.GROUP_SHIFT));
            }
        }
        long[] keys = changed.toLongArray();
        Arrays.sort(keys);
        return keys;
    }

    /**
     * The stored blob of page {@code key} of family {@code map} once {@code deltas} (the bodies of
     * {@link PageImage#delta()} images, oldest first) are applied to its stored blob {@code base}
     * (null: no page); null when the page ends empty. The file layer calls it to read a page the
     * WAL holds deltas of, and when a checkpoint seals the page. Only {@code names} pages (by
     * family deltas, {@code familyDeltas} true: each commit's names delta, of which the bucket's
     * part applies; {@code base} itself when none changes it) and {@code reverse} pages (by their
     * own deltas) take deltas.
     *
     * @throws CorruptionException when the family takes no deltas of that kind, or the page or a delta is malformed
     */
    public static byte[] applyDelta(int map, long key, byte[] base, List<byte[]> deltas, boolean familyDeltas) {
        if (map == REVERSE && !familyDeltas) {
            return ReversePage.applyDelta(key, base, deltas);
        }
        if (map == NAMES && familyDeltas) {
            return NamePage.applyDelta(key, base, deltas);
        }
        throw new CorruptionException("a " + (familyDeltas ? "family delta" : "delta") + " of a "
                + (map >= 0 && map < MAP_NAMES.length ? MAP_NAMES[map] : "family " + map)
                + " page (key " + key + "): only names pages take family deltas and only reverse pages their own");
    }

    /**
     * The keys of the pages family delta {@code delta} of family {@code map} changes, ascending
     * (only {@code names} takes family deltas).
     *
     * @throws CorruptionException when the family takes none or the delta is malformed
     */
    public static long[] familyDeltaPages(int map, byte[] delta) {
        if (map != NAMES) {
            throw new CorruptionException("a family delta of " + (map >= 0 && map < MAP_NAMES.length ? MAP_NAMES[map] : "family " + map)
                    + " pages: only names pages take family deltas");
        }
        return NamePage.bucketsOf(delta);
    }

    /**
     * True when {@code stored} and {@code mine}, two blobs of page {@code key} of family {@code map}
     * (either null: no page), hold the same page: the same bytes, or (every family but meta)
     * envelopes that open to the same body, as a page sealed by another build's compressor does.
     */
    public static boolean samePage(int map, long key, byte[] stored, byte[] mine) {
        return map == META ? Arrays.equals(stored, mine) : PageCompression.sameBody(MAP_NAMES[map], key, stored, mine);
    }

    /** The blob of a page from the in-memory state, or null when the page is empty (to be removed). */
    public byte[] serialize(int map, long key) {
        Bytes.Writer w = writer.reset();
        boolean any;
        switch (map) {
            case META:
                MetaPage.write(parts, w);
                any = true;
                break;
            case SCHEMAS: {
                Schema s = parts.schemas().get((int) key);
                any = s != null;
                if (any) {
                    SchemaPage.write(s, w);
                }
                break;
            }
            case ENTITIES:
                any = EntityPage.write(parts.entities(), key, w);
                break;
            case TABLES:
                any = TablePage.write(parts.tables(), key, w);
                break;
            case ROWS:
                any = RowPage.write(parts.tables().get((int) (key >>> 20)), (int) (key & 0xFFFFF), w);
                break;
            case REVERSE:
                any = ReverseSummary.isSummaryKey(key) ? summary.write(key, w) : ReversePage.write(parts.reverse(), key, w);
                break;
            case NAMES:
                any = NamePage.write(parts, key, w);
                break;
            case SPARSE:
                any = SparsePage.write(parts.sparse(), key, w);
                break;
            default:
                throw new IllegalArgumentException("map " + map);
        }
        if (!any) {
            return null;
        }
        return map == META ? w.toBytes() : PageCompression.seal(w.buffer(), w.size());
    }

    // ------------------------------------------------------------------ reading

    /**
     * Reads a committed state into the (cleared) in-memory structures.
     *
     * @param where the world directory, for messages
     * @throws CorruptionException when a page is missing, malformed, or contradicts another
     */
    public void load(PageSource stored, String where) {
        PageSource src = opened(stored);
        byte[] meta = src.get(META, 0);
        if (meta == null) {
            throw new CorruptionException("world " + where + " has no meta page (corrupt or never committed)");
        }
        int tableCount = MetaPage.read(parts, meta, where);
        src.forEach(SCHEMAS, (k, b) -> parts.schemas().put((int) k, SchemaPage.read(b)));
        parts.tables().reserve(tableCount);
        src.forEach(TABLES, (k, b) -> TablePage.read(parts, b, chunkedOnDisk, (t, count) -> lazyRows(src, t, count)));
        parts.tables().restoreFreeIds(tableCount);
        parts.tables().fileAll();
        lazySource = src;
        readFromPages = true;
        parts.entities().lazy(entityLoader(src), this::readEverything);
        summary.lazy(src);
        parts.reverse().lazy(ReversePage.SHIFT, reverseLoader(src), this::readEverything, summary);
        parts.names().lazy(nameLoader(src), this::readEverything);
        var marked = markedRelationships(parts.tables());
        parts.sparse().lazy((rel, b) -> {
            long key = SparsePage.key(rel, b);
            return readPage(src, SPARSE, key, page -> SparsePage.read(parts.sparse(), key, page));
        }, parts.entities().nextIndex(), marked.keySet().toIntArray(), marked.values().toIntArray());
    }

    /**
     * By relationship index whose sparse marker {@code (R, *)} some non-empty table holds (the
     * ones {@code sparse} pages may exist for: every holder of a sparse pair holds the marker),
     * the rows of those tables: its holders.
     */
    private static it.unimi.dsi.fastutil.ints.Int2IntLinkedOpenHashMap markedRelationships(TableSet tables) {
        var rels = new it.unimi.dsi.fastutil.ints.Int2IntLinkedOpenHashMap();
        tables.forEach(t -> {
            if (t.count() == 0) {
                return;
            }
            for (long x : t.type()) {
                if (!dev.quiver.index.Ids.isPair(x)) {
                    break;
                }
                if (dev.quiver.storage.table.Types.isMarker(x)) {
                    rels.addTo(dev.quiver.index.Ids.first(x), t.count());
                }
            }
        });
        return rels;
    }

    private java.util.function.IntConsumer entityLoader(PageSource src) {
        return b -> readPage(src, ENTITIES, b, page -> EntityPage.read(parts.entities(), parts.tables(), b, page, readOnly));
    }

    private java.util.function.IntConsumer reverseLoader(PageSource src) {
        return b -> readPage(src, REVERSE, b, page -> ReversePage.read(parts.reverse(), b, page));
    }

    private java.util.function.IntConsumer nameLoader(PageSource src) {
        return b -> readPage(src, NAMES, b, page -> NamePage.read(parts.names(), b, page));
    }

    // ------------------------------------------------------------------ a writer's working set

    /**
     * Bounds what a writer keeps in memory between transactions (issue 8 section 2: memory follows
     * the working set, not the world): after each commit or rollback ({@link #trimWriter}) at most
     * {@code entityBlocks} entity blocks (of 1024 entities: their names; the fixed-size fields stay
     * in flat arrays), {@code reverseBlocks} reverse-index blocks (of 1024 targets since page format 8) and
     * {@code nameBuckets} name buckets stay decoded, the ones read longest ago forgotten first;
     * within a transaction nothing is forgotten (its changed blocks are not committed yet).
     * {@link Integer#MAX_VALUE} leaves a structure unbounded. A world built in memory (a new
     * world) becomes lazy at its first bounded trim, over the pages it committed. The bounds
     * outlive a reload ({@link #load} applies them again); a reader's bounds are {@link #boundCaches}.
     */
    public void writerBudget(int entityBlocks, int reverseBlocks, int nameBuckets) {
        writerEntityBlocks = Math.max(1, entityBlocks);
        writerReverseBlocks = Math.max(1, reverseBlocks);
        writerNameBuckets = Math.max(1, nameBuckets);
        applyWriterBudget();
    }

    /** Gives the structures the writer's bounds (after a reload cleared them). */
    public void applyWriterBudget() {
        parts.entities().blocks().writerBudget(writerEntityBlocks);
        parts.reverse().blocks().writerBudget(writerReverseBlocks);
        parts.names().blocks().writerBudget(writerNameBuckets);
    }

    /**
     * Forgets decoded blocks past the writer's budget ({@link #writerBudget}); only when the
     * in-memory state equals the committed pages of {@code committed} (after a commit or a
     * rollback). A bounded structure that is not lazy (built in memory, or read whole by
     * {@link #readEverything}) first becomes lazy over {@code committed}, every block counting as read.
     */
    public void trimWriter(PageSource committed) {
        PageSource src = null;
        if (writerEntityBlocks != Integer.MAX_VALUE) {
            if (!parts.entities().blocks().isLazy()) {
                src = src != null ? src : opened(committed);
                parts.entities().lazyInMemory(entityLoader(src), this::readEverything);
            }
            parts.entities().blocks().trim();
        }
        if (writerReverseBlocks != Integer.MAX_VALUE) {
            if (!parts.reverse().blocks().isLazy()) {
                src = src != null ? src : opened(committed);
                var held = new IntOpenHashSet();
                for (int t : parts.reverse().targets()) {
                    held.add(t >>> ReversePage.SHIFT);
                }
                int[] blocks = held.toIntArray();
                Arrays.sort(blocks);
                var loader = reverseLoader(src);
                parts.reverse().lazy(ReversePage.SHIFT, loader, this::readEverything, summary);
                parts.reverse().blocks().lazyInMemory(loader, this::readEverything, blocks);
            }
            parts.reverse().blocks().trim();
        }
        if (writerNameBuckets != Integer.MAX_VALUE) {
            if (!parts.names().blocks().isLazy()) {
                src = src != null ? src : opened(committed);
                var held = new it.unimi.dsi.fastutil.ints.IntArrayList();
                for (int b = 0; b < EntityNames.BUCKETS; b++) {
                    if (!parts.names().bucketEmpty(b)) {
                        held.add(b);
                    }
                }
                var loader = nameLoader(src);
                parts.names().lazy(loader, this::readEverything);
                parts.names().blocks().lazyInMemory(loader, this::readEverything, held.toIntArray());
            }
            parts.names().blocks().trim();
        }
        if (src != null) {
            lazySource = src;
        }
    }

    /**
     * Makes table {@code t} read its {@code count} rows from its row pages (chunks 0, 1, ..., each
     * full but the last), a chunk the first time one of its rows is touched.
     */
    void lazyRows(PageSource src, Table t, int count) {
        t.lazyRows(count, RowPage.CHUNK_SHIFT, (table, ch, values) -> {
            long key = RowPage.key(table.id(), ch);
            byte[] page = src.get(ROWS, key);
            if (page == null) {
                throw new CorruptionException("table " + table.id() + " misses rows page " + key + " (chunk " + ch + ")");
            }
            rowPagesRead++;
            int rows = Math.min(1 << RowPage.CHUNK_SHIFT, table.count() - (ch << RowPage.CHUNK_SHIFT));
            decodePage(ROWS, key, page, b -> RowPage.readChunk(table, ch, rows, b, values)); // fetched once
        });
    }

    /** Row pages decoded since the world was read. */
    public long rowPagesRead() {
        return rowPagesRead;
    }

    /**
     * Reads page {@code key} of {@code map} from {@code src} (opened) into memory through
     * {@code reader}, if the page exists (then true); a corruption it finds names the family and key.
     */
    private static boolean readPage(PageSource src, int map, long key, java.util.function.Consumer<byte[]> reader) {
        byte[] page = src.get(map, key);
        if (page != null) {
            decodePage(map, key, page, reader);
        }
        return page != null;
    }

    /** Decodes {@code page}, page {@code key} of {@code map}, through {@code reader}; a corruption it finds names the family and key. */
    private static void decodePage(int map, long key, byte[] page, java.util.function.Consumer<byte[]> reader) {
        try {
            reader.accept(page);
        } catch (CorruptionException e) {
            String name = MAP_NAMES[map] + " page " + key;
            throw e.getMessage() != null && e.getMessage().startsWith(name) ? e
                    : new CorruptionException(name + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads every page the lazy structures have not read yet (entity blocks, reverse-index blocks, name buckets), so that
     * the whole state is in memory: for the checker and for streaming every page. Costs what an
     * eager open cost; a no-op once done (and for a world never read from pages).
     */
    public void readEverything() {
        parts.tables().forEach(Table::loadRows);
        parts.entities().readAll();
        summary.readAll(parts.entities().nextIndex());
        readRest(REVERSE, parts.reverse().blocks(), (k, b) -> {
            if (!ReverseSummary.isSummaryKey(k)) {
                ReversePage.read(parts.reverse(), k, b);
            }
        });
        readRest(NAMES, parts.names().blocks(), (k, b) -> NamePage.read(parts.names(), k, b));
        // sparse pages stay lazy: every accessor of the store reads the blocks it needs, and
        // StatePages.forEachSparsePage streams the unread ones as stored
    }

    /** Reads the pages of {@code map} that {@code blocks} does not hold yet, then ends its laziness. */
    private void readRest(int map, LazyBlocks blocks, PageSource.PageVisitor read) {
        if (lazySource != null) {
            lazySource.forEach(map, (k, b) -> {
                if (k <= Integer.MAX_VALUE && !blocks.isLoaded((int) k)) {
                    blocks.markLoaded((int) k);
                    read.visit(k, b);
                }
            });
        }
        blocks.eager();
    }

    /** True when the in-memory state was read from committed pages ({@link #load}) rather than built in memory. */
    public boolean readFromPages() {
        return readFromPages;
    }

    /** Reverse-index blocks in memory (read or marked), since the world was read. */
    public int reverseBlocksInMemory() {
        return parts.reverse().blocksLoaded();
    }

    /** Reverse pages decoded since the world was read (a page forgotten and read again counts again). */
    public long reverseBlocksRead() {
        return parts.reverse().blocksRead();
    }

    /** Lookups of one relationship's sources answered by the reverse blocks' summaries without reading the block. */
    public long reverseLookupsSkipped() {
        return parts.reverse().lookupsSkipped();
    }

    /** Reverse summary pages read since the world was read. */
    public long reverseSummariesRead() {
        return summary.pagesRead();
    }

    /** Sparse pages decoded since the world was read. */
    public long sparseBlocksRead() {
        return parts.sparse().blocksRead();
    }

    /** Name buckets in memory (read or marked), since the world was read. */
    public int nameBucketsInMemory() {
        return parts.names().bucketsLoaded();
    }

    /** Name pages decoded since the world was read (a page forgotten and read again counts again). */
    public long nameBucketsRead() {
        return parts.names().bucketsRead();
    }

    /**
     * A reader's bound on the pages the lazy structures keep decoded: by default
     * {@value #READER_REVERSE_BLOCKS} reverse blocks (of 1024 targets: 512K targets, as 8192 blocks of 64 before format 8) and
     * {@value #READER_NAME_BUCKETS} of the {@value EntityNames#BUCKETS} name buckets, the pages
     * read longest ago forgotten first, and {@value #READER_ENTITY_BLOCKS} entity blocks. Only for a world nobody changes through these structures (its entity pages are then checked, when read, against the rows of their tables).
     */
    public void boundCaches(int reverseBlocks, int nameBuckets) {
        boundCaches(reverseBlocks, nameBuckets, READER_ENTITY_BLOCKS);
    }

    /** As {@link #boundCaches(int, int)}, keeping at most {@code entityBlocks} entity blocks (of 1024 entities) decoded. */
    public void boundCaches(int reverseBlocks, int nameBuckets, int entityBlocks) {
        readOnly = true;
        parts.reverse().budget(reverseBlocks);
        parts.names().budget(nameBuckets);
        parts.entities().budget(entityBlocks);
    }

    /** Entity blocks in memory (read or marked), since the world was read. */
    public int entityBlocksInMemory() {
        return parts.entities().blocks().loadedCount();
    }

    /** Entity pages decoded since the world was read (a page forgotten and read again counts again). */
    public long entityBlocksRead() {
        return parts.entities().blocks().reads();
    }

    /**
     * Names made into Strings from entity pages since the world was read: an entity page keeps its
     * names as bytes until one is asked for (a query that prints no names decodes none).
     */
    public long namesDecoded() {
        return parts.entities().namesDecoded();
    }

    /**
     * Entity blocks whose names section was decoded since the world was read: a block keeps its
     * page's names undecoded until one of them is used (format 11).
     */
    public long entityNameBlocksDecoded() {
        return parts.entities().nameBlocksDecoded();
    }

    /** Entity blocks (of 1024 entities) a reader keeps decoded ({@link #boundCaches}). */
    public static final int READER_ENTITY_BLOCKS = 256;

    /** Reverse blocks a reader keeps decoded ({@link #boundCaches}). */
    public static final int READER_REVERSE_BLOCKS = 512;
    /** Name buckets a reader keeps decoded ({@link #boundCaches}). */
    public static final int READER_NAME_BUCKETS = 1024;

    /**
     * Rolls the in-memory state back to the committed state by reading again only the pages
     * {@code touched} names ({@link Rollback}); valid while {@link #pagesFor} has not been called
     * for these changes. Clears {@code touched}.
     */
    public void rollback(PageSource src, Changes touched) {
        new Rollback(parts, opened(src), this).run(touched);
    }

    /**
     * The pages of {@code stored} with their envelopes opened ({@link PageCompression}): the
     * bodies the codecs read. The meta page has no envelope. A corruption a visitor finds in a
     * page is reported with the page's family and key.
     */
    static PageSource opened(PageSource stored) {
        return new PageSource() {
            @Override
            public byte[] get(int map, long key) {
                byte[] b = stored.get(map, key);
                return b == null || map == META ? b : PageCompression.open(MAP_NAMES[map], key, b);
            }

            @Override
            public void forEach(int map, PageVisitor visitor) {
                stored.forEach(map, (k, b) -> {
                    byte[] body = map == META ? b : PageCompression.open(MAP_NAMES[map], k, b);
                    try {
                        visitor.visit(k, body);
                    } catch (CorruptionException e) {
                        String page = MAP_NAMES[map] + " page " + k;
                        throw e.getMessage() != null && e.getMessage().startsWith(page) ? e
                                : new CorruptionException(page + ": " + e.getMessage(), e);
                    }
                });
            }
        };
    }


}
