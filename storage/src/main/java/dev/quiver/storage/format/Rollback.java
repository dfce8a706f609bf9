package dev.quiver.storage.format;

import dev.quiver.error.CorruptionException;
import dev.quiver.index.Ids;
import dev.quiver.storage.entity.EntityIndex;
import dev.quiver.storage.table.Table;
import dev.quiver.storage.table.TableSet;
import dev.quiver.storage.table.Types;
import dev.quiver.storage.tx.Changes;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;


/**
 * Rolls the in-memory state back to the committed state after a transaction failed, by reading
 * again only the pages the transaction touched (its {@link Changes}), not the whole world: the
 * cost follows the transaction's size. The committed pages are the before-images: in-memory state
 * equals them when a transaction starts.
 *
 * <p>The persistence bookkeeping of {@link WorldFormat} (tables kept in row pages) changes only when
 * a commit's pages are computed, so it still describes the committed state.
 *
 * <p>Order matters: the touched name-index buckets are dropped first, then meta, entities (forgotten or reset), schemas, tables (refilled
 * in place where the table survived), the entity pages of an index never read lazily, the touched tables' component-index entries follow their
 * tables (a table's records change only when it is created or dropped, which touches it), then
 * reverse-index blocks (forgotten, when the index reads its blocks lazily: the next touch reads
 * the committed page) and names are read back.
 */
final class Rollback {
    private final WorldParts p;
    private final PageSource src;
    private final WorldFormat format;

    Rollback(WorldParts parts, PageSource src, WorldFormat format) {
        this.p = parts;
        this.src = src;
        this.format = format;
    }

    /** Reads back every unit {@code c} names; {@code c} is cleared at the end. */
    void run(Changes c) {
        int[] nameBlocks = c.nameBlocks().toIntArray();
        int[] entityBlocks = c.entityBlocks().toIntArray();
        int[] schemas = c.schemas().toIntArray();
        int[] tableIds = c.tables().toIntArray();
        int[] targetBlocks = c.targetBlocks().toIntArray();
        EntityIndex ei = p.entities();
        TableSet tables = p.tables();

        // 1. the name-index buckets touched: dropped (read again on next touch when the index is lazy)
        boolean namesLazy = true;
        for (int b : nameBlocks) {
            namesLazy &= p.names().unload(b);
        }
        // 2. meta: entity index range, free list, table id count
        int oldNext = ei.nextIndex();
        byte[] meta = src.get(WorldFormat.META, 0);
        if (meta == null) {
            throw new CorruptionException("world has no meta page");
        }
        int tableCount = MetaPage.read(p, meta, "(rollback)");
        ei.resetRange(ei.nextIndex(), oldNext);
        // 3. entities of the touched blocks: forgotten (lazy) or reset, read after the tables
        var entityPages = new it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap<byte[]>();
        for (int b : entityBlocks) {
            if (ei.unloadBlock(b)) {
                continue; // read again from the committed page when next touched
            }
            byte[] page = src.get(WorldFormat.ENTITIES, b);
            if (page != null) {
                entityPages.put(b, page);
            }
        }
        // 4. schemas
        for (int k : schemas) {
            byte[] page = src.get(WorldFormat.SCHEMAS, k);
            if (page == null) {
                p.schemas().remove(k);
            } else {
                p.schemas().put(k, SchemaPage.read(page));
            }
        }
        // 5. tables: out with the touched ones, then read back those the committed state has
        var old = new Int2ObjectOpenHashMap<Table>();
        var touched = new IntOpenHashSet(tableIds);
        var groups = new IntOpenHashSet();
        for (int id : tableIds) {
            Table t = tables.get(id);
            if (t != null) {
                old.put(id, t);
                tables.unfile(t);
                tables.unplace(id);
            }
            groups.add(id >>> TablePage.GROUP_SHIFT);
        }
        tables.truncate(tableCount);
        tables.reserve(tableCount);
        var chunkedNow = new IntOpenHashSet();
        for (int g : groups) {
            byte[] page = src.get(WorldFormat.TABLES, g);
            if (page != null) { // a table in row pages reads them when next touched
                TablePage.read(p, page, chunkedNow, (t, count) -> format.lazyRows(src, t, count), touched::contains, old::get);
            }
        }
        tables.restoreFreeIds(tableCount);
        // entity pages once the tables are back (a page's rows are checked against them)
        for (var en : entityPages.int2ObjectEntrySet()) {
            EntityPage.read(ei, tables, en.getIntKey(), en.getValue(), false);
        }
        // 6. the component-index entries of the touched tables as they are now
        for (int id : tableIds) {
            Table t = id < tables.size() ? tables.get(id) : null;
            if (t != null) {
                tables.file(t);
            }
        }
        // 7. reverse-index blocks
        for (int b : targetBlocks) {
            if (p.reverse().unload(b)) {
                continue; // read again from the committed page when next touched
            }
            byte[] page = src.get(WorldFormat.REVERSE, b);
            if (page != null) {
                ReversePage.read(p.reverse(), b, page); // replaces the block's entries
                continue;
            }
            int from = b << ReversePage.SHIFT;
            for (int t = from; t < from + (1 << ReversePage.SHIFT); t++) {
                p.reverse().removeAll(t);
            }
        }
        // 8. names of the touched buckets, unless the index reads them itself
        if (!namesLazy) {
            for (int b : nameBlocks) {
                byte[] page = src.get(WorldFormat.NAMES, b);
                if (page != null) {
                    NamePage.read(p.names(), b, page);
                }
            }
        }
        c.clear();
    }
}
