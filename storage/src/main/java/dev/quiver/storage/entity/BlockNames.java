package dev.quiver.storage.entity;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The names of one block of entity indices ({@link EntityIndex#BLOCK}), kept as UTF-8 bytes in
 * one arena instead of one String per entity (issue 8: the live heap). Entry k's name is a record
 * of the arena: its length as a varint, then its bytes; {@code at[k]} is 1 + the record's
 * position (0: anonymous). A renamed entry appends a new record; the arena is compacted when
 * more than half of it is garbage. A String is made only when asked ({@link #get}); a lookup
 * compares bytes ({@link #is}) and the name index hashes them ({@link #hashCode(int)}, equal to
 * the name's {@link String#hashCode}). Not thread-safe.
 *
 * <p>A block named in index order (entities created one after another, nearly all named: a bulk
 * load, a batch of prefab instances) sizes its arena for the whole block once a few dozen entries
 * are named, from the bytes they take, instead of growing by half again a dozen times (issue 9: the
 * arena's copies were 11% of a prefab batch's allocation); a block named another way grows by half.
 */
final class BlockNames {
    /** Entries named in order before the arena is sized for the whole block from them. */
    private static final int SAMPLE = 32;

    private byte[] bytes;
    private int used;
    private int garbage;
    private final int[] at;
    /** Entries named now. */
    private int named;
    /** The highest entry ever named (-1: none). */
    private int top = -1;

    BlockNames(int entries) {
        this.at = new int[entries];
        this.bytes = new byte[64];
    }

    /**
     * The names of a page: entry k is {@code utf8[ends[k - 1], ends[k])} ({@code ends[-1]} is 0; an
     * empty range: anonymous), for k below {@code ends.length}.
     */
    static BlockNames of(int entries, byte[] utf8, int[] ends) {
        BlockNames n = new BlockNames(entries);
        int total = 0, from = 0;
        for (int k = 0; k < ends.length; k++) {
            int len = ends[k] - from;
            if (len > 0) {
                total += len + varintSize(len);
            }
            from = ends[k];
        }
        n.bytes = new byte[Math.max(16, total)];
        from = 0;
        for (int k = 0; k < ends.length; k++) {
            int len = ends[k] - from;
            if (len > 0) {
                n.at[k] = 1 + n.used;
                n.used = writeVarint(n.bytes, n.used, len);
                System.arraycopy(utf8, from, n.bytes, n.used, len);
                n.used += len;
                n.named++;
                n.top = k;
            }
            from = ends[k];
        }
        return n;
    }

    private static int varintSize(int v) {
        int n = 1;
        while ((v >>>= 7) != 0) {
            n++;
        }
        return n;
    }

    private static int writeVarint(byte[] b, int p, int v) {
        while ((v & ~0x7F) != 0) {
            b[p++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        b[p++] = (byte) v;
        return p;
    }

    /** Position of entry k's bytes; {@link #length} gives their count. The entry must be named. */
    private int start(int k) {
        int p = at[k] - 1;
        while (bytes[p] < 0) {
            p++;
        }
        return p + 1;
    }

    /** Byte length of entry k's name (0: anonymous). */
    int length(int k) {
        int p = at[k] - 1;
        if (p < 0) {
            return 0;
        }
        int v = 0, shift = 0;
        byte b;
        do {
            b = bytes[p++];
            v |= (b & 0x7F) << shift;
            shift += 7;
        } while (b < 0);
        return v;
    }

    boolean named(int k) {
        return at[k] != 0;
    }

    /** Entry k's name as a new String, or null when anonymous. */
    String get(int k) {
        if (at[k] == 0) {
            return null;
        }
        int len = length(k);
        return new String(bytes, start(k), len, StandardCharsets.UTF_8);
    }

    /** Points {@code out} at entry k's UTF-8 bytes in the arena (no copy); false when anonymous. */
    boolean bytes(int k, NameBytes out) {
        if (at[k] == 0) {
            return false;
        }
        out.set(bytes, start(k), length(k));
        return true;
    }

    /** True when entry k is named {@code name} (compared without making a String when the name is ASCII). */
    boolean is(int k, String name) {
        if (at[k] == 0) {
            return false;
        }
        int len = length(k), s = start(k), n = name.length();
        if (len < n) {
            return false; // every char takes at least one byte
        }
        for (int i = 0; i < n; i++) {
            char c = name.charAt(i);
            if (c >= 0x80) {
                return name.equals(get(k));
            }
            if (i >= len || bytes[s + i] != c) {
                return false;
            }
        }
        return len == n;
    }

    /** Entry k's name's {@link String#hashCode} (0 when anonymous), from its bytes when they are ASCII. */
    int hashCode(int k) {
        if (at[k] == 0) {
            return 0;
        }
        int len = length(k), s = start(k), h = 0;
        for (int i = 0; i < len; i++) {
            byte b = bytes[s + i];
            if (b < 0) {
                return get(k).hashCode();
            }
            h = 31 * h + b;
        }
        return h;
    }

    /** Names entry k {@code name} (null: anonymous). */
    void set(int k, String name) {
        drop(k);
        if (name == null) {
            return;
        }
        int n = name.length();
        int p = reserve(k, n); // as ASCII (one byte a char, Names.check's grammar) until a char says otherwise
        byte[] b = bytes;
        for (int i = 0; i < n; i++) {
            char c = name.charAt(i);
            if (c >= 0x80) {
                used = at[k] - 1; // not ASCII: drop the record just appended, write it from the UTF-8 encoding
                named--;
                byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
                p = reserve(k, utf8.length);
                System.arraycopy(utf8, 0, bytes, p, utf8.length);
                break;
            }
            b[p + i] = (byte) c;
        }
        if (k == at.length - 1 && bytes.length - used > 16 + used / 8) {
            bytes = Arrays.copyOf(bytes, used + used / 16); // a block named to its end keeps about what it uses
        }
    }

    /** Appends a record of {@code len} bytes for entry k: returns where its bytes go. */
    private int reserve(int k, int len) {
        int need = len + varintSize(len);
        if (used + need > bytes.length) {
            if (garbage > used / 2) {
                compact();
            }
            if (used + need > bytes.length) {
                bytes = Arrays.copyOf(bytes, grown(k, need));
            }
        }
        at[k] = 1 + used;
        used = writeVarint(bytes, used, len);
        int p = used;
        used += len;
        named++;
        top = Math.max(top, k);
        return p;
    }

    /**
     * The arena's next length, with room for a record of {@code need} bytes for entry k: half again
     * its length, or, when entry k extends a block named in index order (k past every named entry,
     * at least {@link #SAMPLE} entries in, three quarters of them named), what the block's entries
     * take at the rate of the live records so far and this one, and a thirty-second more.
     */
    private int grown(int k, int need) {
        long len = Math.max(used + (long) need, bytes.length + (long) (bytes.length >>> 1));
        if (k > top && k >= SAMPLE && 4L * named >= 3L * (k + 1)) {
            long whole = (used - garbage + (long) need) * at.length / (k + 1);
            len = Math.max(len, whole + whole / 32);
        }
        return (int) Math.min(len, Integer.MAX_VALUE - 8);
    }

    /** Makes entry k anonymous. */
    void drop(int k) {
        if (at[k] != 0) {
            int len = length(k);
            garbage += len + varintSize(len);
            at[k] = 0;
            named--;
        }
    }

    /** True when no entry is named. */
    boolean isEmpty() {
        return used == garbage;
    }

    private void compact() {
        byte[] b = new byte[Math.max(64, (used - garbage) * 2)];
        int p = 0;
        for (int k = 0; k < at.length; k++) {
            if (at[k] != 0) {
                int len = length(k), s = start(k);
                at[k] = 1 + p;
                p = writeVarint(b, p, len);
                System.arraycopy(bytes, s, b, p, len);
                p += len;
            }
        }
        bytes = b;
        used = p;
        garbage = 0;
    }

    /** Heap bytes held (arena and offsets), for statistics. */
    long footprint() {
        return bytes.length + 4L * at.length + 48;
    }
}
