package dev.quiver.storage.format;

import dev.quiver.storage.entity.EntityNames;
import dev.quiver.storage.table.SparseStore;
import it.unimi.dsi.fastutil.ints.IntAVLTreeSet;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static dev.quiver.storage.format.WorldFormat.ENTITIES;
import static dev.quiver.storage.format.WorldFormat.META;
import static dev.quiver.storage.format.WorldFormat.NAMES;
import static dev.quiver.storage.format.WorldFormat.REVERSE;
import static dev.quiver.storage.format.WorldFormat.ROWS;
import static dev.quiver.storage.format.WorldFormat.SCHEMAS;
import static dev.quiver.storage.format.WorldFormat.SPARSE;
import static dev.quiver.storage.format.WorldFormat.TABLES;

/**
 * What a state must hold on disk, from the in-memory structures: the keys of every family's pages
 * (for the checker and for streaming every page), the {@code sparse} pages streamed without
 * decoding the blocks nobody asked about, and whether the reverse blocks' summaries cover their
 * blocks. Reads through its {@link WorldFormat} (whole-state reads, serialization). Not
 * thread-safe.
 */
public final class StatePages {
    private final WorldParts parts;
    private final ReverseSummary summary;
    private final WorldFormat format;

    StatePages(WorldParts parts, ReverseSummary summary, WorldFormat format) {
        this.parts = parts;
        this.summary = summary;
        this.format = format;
    }

    /** The keys of every page family {@code map} must hold for the in-memory state. */
    public long[] expectedKeys(int map) {
        format.readEverything();
        var out = new LongArrayList();
        switch (map) {
            case META:
                out.add(0);
                break;
            case SCHEMAS:
                for (int k : parts.schemas().indices()) {
                    out.add(k);
                }
                break;
            case ENTITIES:
                for (int p = 0; p <= (parts.entities().nextIndex() - 1) >>> EntityPage.SHIFT; p++) {
                    out.add(p);
                }
                break;
            case TABLES: {
                var groups = new LongOpenHashSet();
                parts.tables().forEach(t -> groups.add(t.id() >>> TablePage.GROUP_SHIFT));
                out.addAll(groups);
                break;
            }
            case ROWS:
                parts.tables().forEach(t -> {
                    if (t.count() > RowPage.INLINE_ROWS) {
                        for (int c = 0; c * (1 << RowPage.CHUNK_SHIFT) < t.count(); c++) {
                            out.add(RowPage.key(t.id(), c));
                        }
                    }
                });
                break;
            case REVERSE: {
                var pages = new LongOpenHashSet();
                for (int k : parts.reverse().targets()) {
                    pages.add(k >>> ReversePage.SHIFT);
                }
                out.addAll(pages);
                out.addAll(LongArrayList.wrap(summary.keys(parts.entities().nextIndex())));
                break;
            }
            case NAMES:
                for (int b = 0; b < EntityNames.BUCKETS; b++) {
                    if (!parts.names().bucketEmpty(b)) {
                        out.add(b);
                    }
                }
                break;
            case SPARSE:
                for (int rel : parts.sparse().columns()) {
                    for (int b : parts.sparse().heldBlocks(rel)) {
                        out.add(SparsePage.key(rel, b));
                    }
                }
                break;
            default:
                break;
        }
        return out.toLongArray();
    }

    /**
     * Calls {@code visitor} with every {@code sparse} page of the in-memory state, which outside a
     * transaction is the committed one, without decoding the blocks no one asked about: a block
     * in memory is serialized from it, a block still to be read is its page as {@code committed}
     * stores it (an enveloped blob, like {@link WorldFormat#serialize}'s). Keys ascending. A
     * snapshot of RG-1 depth 6 read all 2,000 of them before, building both forward columns whole.
     */
    public void forEachSparsePage(PageSource committed, PageSource.PageVisitor visitor) {
        SparseStore st = parts.sparse();
        var held = new LongArrayList();
        for (int rel : st.columns()) {
            for (int b : st.heldBlocks(rel, false)) {
                held.add(SparsePage.key(rel, b));
            }
        }
        long[] inMemory = held.toLongArray();
        Arrays.sort(inMemory);
        int[] next = {0}; // the first in-memory key not visited yet
        // one pass, merged in key order: each committed page is read once (a block is in memory or
        // still to be read, never both)
        committed.forEach(SPARSE, (k, blob) -> {
            next[0] = serializeBelow(inMemory, next[0], k, visitor);
            if (st.unread(SparsePage.relationship(k), SparsePage.block(k))) {
                visitor.visit(k, blob);
            }
        });
        serializeBelow(inMemory, next[0], Long.MAX_VALUE, visitor);
    }

    /** Visits {@code keys[from..]} below {@code bound}, serialized from memory; returns the first index not visited. */
    private int serializeBelow(long[] keys, int from, long bound, PageSource.PageVisitor visitor) {
        int i = from;
        for (; i < keys.length && keys[i] < bound; i++) {
            byte[] blob = format.serialize(SPARSE, keys[i]);
            if (blob != null) {
                visitor.visit(keys[i], blob);
            }
        }
        return i;
    }

    /**
     * Where the reverse blocks' summaries fail to cover the blocks (every block read first): one
     * line per block whose entries name a relationship its summary lacks, at most {@code max}.
     */
    public List<String> reverseSummaryViolations(int max) {
        format.readEverything();
        var out = new ArrayList<String>();
        var blocks = new IntAVLTreeSet();
        for (int t : parts.reverse().targets()) {
            blocks.add(t >>> ReversePage.SHIFT);
        }
        for (int b : blocks) {
            int[] have = summary.of(b);
            for (int r : ReverseSummary.relationshipsOf(parts.reverse(), b)) {
                if (Arrays.binarySearch(have, r) < 0 && out.size() < max) {
                    out.add("reverse block " + b + " holds entries of relationship #" + r + ", which its summary lacks");
                }
            }
        }
        return out;
    }
}
