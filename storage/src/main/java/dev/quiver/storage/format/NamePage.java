package dev.quiver.storage.format;

import dev.quiver.error.CorruptionException;
import dev.quiver.index.Ids;
import dev.quiver.index.NameIndex;
import dev.quiver.storage.entity.EntityIndex;
import dev.quiver.storage.entity.EntityNames;
import dev.quiver.storage.tx.Changes;
import it.unimi.dsi.fastutil.longs.Long2LongOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongArrayList;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Codec of a {@code names} page: the name-index entries of one bucket ({@link EntityNames#bucket}:
 * the top {@value EntityNames#BUCKET_BITS} bits of the key's hash), so that a lookup by name reads
 * one page. Since format 7 each entry carries the entity's generation and the key's hash, so that
 * a bucket is read without any entity page (a lookup then reads the entity page of the one
 * candidate whose hash matches, to compare its name). A commit logs what it changed in every
 * bucket as one delta ({@link #writeDelta}), whose part for a bucket is applied to the page by
 * whoever reads it and sealed into a whole page at a checkpoint ({@link #applyDelta}).
 */
final class NamePage {
    private NamePage() {}

    /**
     * Writes bucket {@code key}; false when it holds no entry. Layout: varint n entries in
     * ascending entity index, each: varint index gap (the entity's index minus the previous
     * entry's minus 1, the first from -1), the zigzag of the parent index's difference from the
     * previous entry's parent (the first from 0), varint generation, i32 the key's hash
     * ({@link NameIndex#hash}). The name is the {@code entities} page's.
     */
    static boolean write(WorldParts p, long key, Bytes.Writer w) {
        EntityNames names = p.names();
        int b = (int) key;
        if (names.bucketEmpty(b)) {
            return false;
        }
        var map = new Long2LongOpenHashMap();
        names.forEachInBucket(b, (parent, e, hash) -> map.put(entry(Ids.index(e), parent),
                payload(Ids.generation(e), hash)));
        writeEntries(map, w);
        return true;
    }

    /** An entry's key as one long: {@code (entity index << 32) | parent index}, so that longs sort by entity index. */
    static long entry(int index, int parent) {
        return ((long) index << 32) | (parent & 0xFFFF_FFFFL);
    }

    /** An entry's payload: {@code (generation << 32) | hash}. */
    private static long payload(int generation, int hash) {
        return ((long) generation << 32) | (hash & 0xFFFF_FFFFL);
    }

    /** Writes entries (key to payload) as the page body does, in ascending key. */
    private static void writeEntries(Long2LongOpenHashMap entries, Bytes.Writer w) {
        long[] keys = entries.keySet().toLongArray();
        Arrays.sort(keys);
        w.varint(keys.length);
        long prevIdx = -1, prevParent = 0;
        for (long en : keys) {
            long idx = en >>> 32, parent = en & 0xFFFF_FFFFL;
            long pl = entries.get(en);
            w.varint(idx - prevIdx - 1);
            w.zigzag(parent - prevParent);
            w.varint(pl >>> 32);
            w.i32((int) pl);
            prevIdx = idx;
            prevParent = parent;
        }
    }

    /** Writes keys only (a delta's removed entries): varint n, then each key's index gap and parent delta. */
    private static void writeKeys(long[] sorted, int n, Bytes.Writer w) {
        w.varint(n);
        long prevIdx = -1, prevParent = 0;
        for (int i = 0; i < n; i++) {
            long en = sorted[i];
            long idx = en >>> 32, parent = en & 0xFFFF_FFFFL;
            w.varint(idx - prevIdx - 1);
            w.zigzag(parent - prevParent);
            prevIdx = idx;
            prevParent = parent;
        }
    }

    /** Receives the entries {@link #readEntries} reads, one at a time. */
    @FunctionalInterface
    private interface EntrySink {
        void entry(long key, long payload);
    }

    /**
     * Reads entries written by {@link #writeEntries} (payloads: {@code withPayload}) or
     * {@link #writeKeys} into {@code out} (key and payload, 0 for keys only), checking their shape
     * (ascending entity indices above 0, parents and generations in range, each hash in bucket
     * {@code key}); {@code delta}: a delta's entries, else a page's (named so in messages, which are
     * made only on error: a checkpoint reads thousands of deltas). The entity indices ascend
     * strictly, so no key comes twice. Returns the number of entries.
     */
    private static int readEntries(Bytes.Reader r, long key, boolean withPayload, EntrySink out, boolean delta) {
        int n = r.vcount(withPayload ? 7 : 2);
        long idx = -1, parent = 0;
        for (int i = 0; i < n; i++) {
            idx += 1 + r.varint();
            parent += r.zigzag();
            if (idx <= 0 || idx > Integer.MAX_VALUE) {
                throw new CorruptionException(what(key, delta) + " files entity index " + idx);
            }
            if (parent < 0 || parent > Integer.MAX_VALUE) {
                throw new CorruptionException(what(key, delta) + " files entity #" + idx + " under parent #" + parent);
            }
            long pl = 0;
            if (withPayload) {
                long gen = r.varint(Ids.MAX_GENERATION);
                int hash = r.i32();
                if (hash >>> (32 - EntityNames.BUCKET_BITS) != key) {
                    throw new CorruptionException(what(key, delta) + " files entity #" + idx + " under #" + parent
                            + " with a hash of bucket " + (hash >>> (32 - EntityNames.BUCKET_BITS)));
                }
                pl = payload((int) gen, hash);
            }
            out.entry(entry((int) idx, (int) parent), pl);
        }
        return n;
    }

    private static String what(long key, boolean delta) {
        return delta ? "name delta of bucket " + key : "name page " + key;
    }

    /**
     * The names delta of one commit (a WAL family delta, {@code Journal.FAMILY_DELTA}, never stored
     * in a generation): what the transaction changed in each bucket it changed
     * ({@link Changes#forEachNameDelta}), in one blob, so that a bulk commit, which touches every
     * bucket, logs one entry and not one per bucket. Layout: i32 m (1 to {@value EntityNames#BUCKETS}
     * buckets), then m directory entries in ascending bucket, each u8 u8 the bucket (big-endian)
     * and i32 the end of its part (from the end of the directory; a part starts where the one
     * before ends, the first at 0), then the parts. A part: the entries present at the
     * transaction's end that it added or filed again (as a page body, {@link #writeEntries}: an
     * entry filed again replaces the committed one, whose hash may differ after a rename), then
     * the keys it removed ({@link #writeKeys}). Null when nothing changed.
     */
    static byte[] writeDelta(EntityIndex ei, Changes c, Bytes.Writer w) {
        w.reset();
        int touched = c.nameBlocks().size(); // at most this many buckets change: the directory never grows
        var buckets = new it.unimi.dsi.fastutil.ints.IntArrayList(touched);
        var ends = new it.unimi.dsi.fastutil.ints.IntArrayList(touched);
        c.forEachNameDelta((b, added, hashes, na, removed, nr) -> {
            writePart(ei, added, hashes, na, removed, nr, w);
            buckets.add(b);
            ends.add(w.size());
        });
        int m = buckets.size();
        if (m == 0) {
            return null;
        }
        int head = 4 + DIRECTORY_ENTRY * m;
        byte[] out = new byte[head + w.size()];
        ByteBuffer bb = ByteBuffer.wrap(out);
        bb.putInt(m);
        for (int i = 0; i < m; i++) {
            bb.putShort((short) buckets.getInt(i));
            bb.putInt(ends.getInt(i));
        }
        System.arraycopy(w.buffer(), 0, out, head, w.size());
        return out;
    }

    /** Bytes of a directory entry of a names delta: u16 bucket, i32 end. */
    private static final int DIRECTORY_ENTRY = 6;

    /**
     * One bucket's part of a names delta ({@link #writeDelta}), appended to {@code w}: each added
     * entry with the hash the name index filed it with (not computed again from the name).
     */
    private static void writePart(EntityIndex ei, long[] added, int[] hashes, int addedCount, long[] removed,
                                  int removedCount, Bytes.Writer w) {
        w.varint(addedCount);
        long prevIdx = -1, prevParent = 0;
        for (int i = 0; i < addedCount; i++) {
            long en = added[i];
            int idx = (int) (en >>> 32), parent = (int) en;
            w.varint(idx - prevIdx - 1);
            w.zigzag(parent - prevParent);
            w.varint(ei.generation(idx));
            w.i32(hashes[i]);
            prevIdx = idx;
            prevParent = parent;
        }
        writeKeys(removed, removedCount, w);
    }

    /** The number of buckets of names delta {@code d}, its directory checked to fit in it. */
    private static int directorySize(byte[] d) {
        if (d.length < 4) {
            throw new CorruptionException("names delta of " + d.length + " bytes has no directory");
        }
        int m = ByteBuffer.wrap(d).getInt(0);
        if (m < 1 || m > EntityNames.BUCKETS || 4L + (long) DIRECTORY_ENTRY * m > d.length) {
            throw new CorruptionException("names delta of " + d.length + " bytes lists " + m + " buckets");
        }
        return m;
    }

    /**
     * The buckets names delta {@code d} changes, ascending (its whole directory checked: buckets
     * ascending and in range, parts in order and within the blob).
     */
    static long[] bucketsOf(byte[] d) {
        int m = directorySize(d);
        ByteBuffer bb = ByteBuffer.wrap(d);
        int head = 4 + DIRECTORY_ENTRY * m;
        long[] out = new long[m];
        int prevBucket = -1, prevEnd = 0;
        for (int i = 0; i < m; i++) {
            int b = bucketAt(bb, i);
            int end = partEnd(bb, i);
            if (b <= prevBucket || b >= EntityNames.BUCKETS) {
                throw new CorruptionException("names delta lists bucket " + b + " after bucket " + prevBucket);
            }
            if (end < prevEnd || end > d.length - head) {
                throw new CorruptionException("names delta gives bucket " + b + " the part [" + prevEnd + ", " + end
                        + ") of " + (d.length - head) + " bytes");
            }
            out[i] = b;
            prevBucket = b;
            prevEnd = end;
        }
        if (prevEnd != d.length - head) {
            throw new CorruptionException("names delta holds " + (d.length - head - prevEnd) + " bytes past its parts");
        }
        return out;
    }

    /** The bucket of directory entry {@code i} of a names delta. */
    private static int bucketAt(ByteBuffer d, int i) {
        return d.getShort(4 + DIRECTORY_ENTRY * i) & 0xFFFF;
    }

    /** The end of directory entry {@code i}'s part, from the end of the directory. */
    private static int partEnd(ByteBuffer d, int i) {
        return d.getInt(4 + DIRECTORY_ENTRY * i + 2);
    }

    /** Bucket {@code key}'s part of names delta {@code d} (a binary search of its directory), or null when it has none. */
    private static byte[] partOf(byte[] d, long key) {
        int m = directorySize(d);
        ByteBuffer bb = ByteBuffer.wrap(d);
        int head = 4 + DIRECTORY_ENTRY * m;
        int lo = 0, hi = m - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int b = bucketAt(bb, mid);
            if (b < key) {
                lo = mid + 1;
            } else if (b > key) {
                hi = mid - 1;
            } else {
                int from = mid == 0 ? 0 : partEnd(bb, mid - 1);
                int to = partEnd(bb, mid);
                if (from < 0 || to < from || to > d.length - head) {
                    throw new CorruptionException("names delta gives bucket " + key + " the part [" + from + ", " + to
                            + ") of " + (d.length - head) + " bytes");
                }
                return Arrays.copyOfRange(d, head + from, head + to);
            }
        }
        return null;
    }

    /**
     * The stored blob of bucket {@code key} once the parts for it of {@code deltas} (names deltas,
     * oldest first, {@link #writeDelta}) are applied to the stored blob {@code base} (null: no
     * page); null when the bucket ends empty, and {@code base} itself when no delta changes the
     * bucket. Works on entries only (no names needed), so that the file layer can apply a WAL's
     * deltas before any entity is read.
     *
     * @throws CorruptionException when the page or a delta is malformed
     */
    static byte[] applyDelta(long key, byte[] base, List<byte[]> deltas) {
        checkBucket(key);
        List<byte[]> parts = new ArrayList<>();
        for (byte[] d : deltas) {
            byte[] part = partOf(d, key);
            if (part != null) {
                parts.add(part);
            }
        }
        if (parts.isEmpty()) {
            return base;
        }
        // room for every entry the base and the parts could hold (at least 7 bytes each), so
        // that the set grows at most once; a part's entries go straight into it (a checkpoint
        // applies thousands of parts of a few entries each)
        byte[] body = base == null ? null : PageCompression.open("names", key, base);
        long bytes = body == null ? 0 : body.length;
        for (byte[] d : parts) {
            bytes += d.length;
        }
        var set = new Long2LongOpenHashMap((int) Math.min(1 << 20, bytes / 7 + 1));
        if (body != null) {
            Bytes.Reader r = new Bytes.Reader(body);
            readEntries(r, key, true, set::put, false);
            if (r.remaining() != 0) {
                throw new CorruptionException("name page " + key + " holds " + r.remaining() + " bytes past its entries");
            }
        }
        var added = new LongArrayList();
        for (byte[] d : parts) {
            Bytes.Reader r = new Bytes.Reader(d);
            added.clear();
            readEntries(r, key, true, (k, pl) -> {
                added.add(k);
                added.add(pl);
            }, true);
            readEntries(r, key, false, (k, pl) -> set.remove(k), true); // removed before added: a delta's net change
            if (r.remaining() != 0) {
                throw new CorruptionException("name delta of bucket " + key + " holds " + r.remaining() + " bytes past its entries");
            }
            long[] a = added.elements();
            for (int i = 0; i < added.size(); i += 2) {
                set.put(a[i], a[i + 1]);
            }
        }
        if (set.isEmpty()) {
            return null;
        }
        Bytes.Writer w = new Bytes.Writer(16 + 12 * set.size());
        writeEntries(set, w);
        return PageCompression.seal(w.buffer(), w.size());
    }

    private static void checkBucket(long key) {
        if (key < 0 || key >= EntityNames.BUCKETS) {
            throw new CorruptionException("name page " + key + " is no bucket (0 to " + (EntityNames.BUCKETS - 1) + ")");
        }
    }

    /**
     * Reads bucket {@code key} into {@code names} (without reading it through its loader). Reads
     * no entity: that each entry names an alive entity of that generation, name and parent is the
     * checker's (a lookup compares the candidate's name with the entity index's).
     */
    static void read(EntityNames names, long key, byte[] b) {
        checkBucket(key);
        Bytes.Reader r = new Bytes.Reader(b);
        var entries = new LongArrayList();
        readEntries(r, key, true, (k, pl) -> {
            entries.add(k);
            entries.add(pl);
        }, false); // all read and checked before any is filed (the entity indices ascend: no key twice)
        if (r.remaining() != 0) {
            throw new CorruptionException("name page " + key + " holds " + r.remaining() + " bytes past its entries");
        }
        long[] a = entries.elements();
        for (int i = 0; i < entries.size(); i += 2) { // an entity holds one entry: one in another bucket is damage
            int index = (int) (a[i] >>> 32);
            if (names.filed(index)) {
                throw new CorruptionException("name page " + key + " files entity index " + index
                        + ", which another name bucket holds");
            }
        }
        names.reserve((int) key, entries.size() / 2);
        for (int i = 0; i < entries.size(); i += 2) {
            long k = a[i], pl = a[i + 1];
            names.restore((int) k, (int) pl, Ids.entity((int) (k >>> 32), (int) (pl >>> 32)));
        }
    }
}
