package dev.quiver.storage.format;

import dev.quiver.storage.entity.EntityIndex;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An {@code entities} page carries its names as its layout says (EntityPage's Javadoc, format
 * 12: the entries as runs, then the names section), whatever the entity index keeps them in: the page written from the
 * index equals, byte for byte, one encoded here from the names as Strings, for names that are not
 * ASCII (2, 3 and 4 bytes a character), long names (lengths and shared prefixes past one varint
 * byte), a name that is a prefix of the one before, equal names one after another, anonymous and
 * dead entities between named ones (which leave the name to share with as it was), on three
 * blocks; and decoding the page gives the names back. Seeded ({@code -Dquiver.seed=N}, printed).
 */
class EntityPageNamesTest {
    private static final String[] ODD = {"é", "naïve", "日本語", "😀", "ß-ẞ", "x-y_z"};

    @Test
    @Timeout(60)
    void pagesCarryTheNamesAsTheLayoutSays() {
        long seed = Long.getLong("quiver.seed", System.nanoTime());
        System.out.println("EntityPageNamesTest seed " + seed + " (-Dquiver.seed=" + seed + ")");
        Random rnd = new Random(seed);
        EntityIndex ei = new EntityIndex(null);
        ei.reserve(1);
        int entries = 3 * EntityIndex.BLOCK - 1 - rnd.nextInt(100);
        String[] names = new String[entries + 1];
        byte[] states = new byte[entries + 1];
        String prev = "start";
        for (int k = 1; k <= entries; k++) {
            int i = ei.allocate();
            assertEquals(k, i);
            String name = switch (rnd.nextInt(9)) {
                case 0 -> null;
                case 1 -> ODD[rnd.nextInt(ODD.length)] + k;
                case 2 -> "L".repeat(130 + rnd.nextInt(200)) + ODD[rnd.nextInt(ODD.length)] + k;
                case 3 -> prev.substring(0, prev.offsetByCodePoints(0, // a prefix of the one before
                        1 + rnd.nextInt(prev.codePointCount(0, prev.length()))));
                case 4 -> prev; // the same again
                case 5 -> prev + ODD[rnd.nextInt(ODD.length)];
                default -> "n" + k;
            };
            ei.revive(i, name);
            ei.place(i, rnd.nextInt(3), k);
            states[k] = EntityIndex.ALIVE;
            names[k] = name;
            if (name != null) {
                prev = name;
            }
        }
        for (int k = 1; k <= entries; k++) {
            if (rnd.nextInt(12) == 0) {
                ei.kill(k); // dead: no name on the page
                states[k] = EntityIndex.DEAD;
                names[k] = null;
            }
        }
        int pages = 0;
        for (long key = 0; key <= entries / EntityIndex.BLOCK; key++) {
            Bytes.Writer w = new Bytes.Writer(64);
            assertTrue(EntityPage.write(ei, key, w));
            byte[] page = w.toBytes();
            assertArrayEquals(expected(ei, names, key), page, "entities page " + key + ", seed " + seed);
            List<String> decoded = decodeNames(page);
            int base = (int) key * EntityIndex.BLOCK;
            for (int j = 0; j < decoded.size(); j++) {
                int k = base + j;
                String want = k == 0 || k > entries || states[k] != EntityIndex.ALIVE ? null : names[k];
                assertEquals(want == null ? "" : want, decoded.get(j) == null ? "" : decoded.get(j),
                        "entity #" + k + ", seed " + seed);
            }
            pages++;
        }
        assertEquals(3, pages);
    }

    /** The page as its layout says, encoded here from the names as Strings (UTF-8). */
    private static byte[] expected(EntityIndex ei, String[] names, long key) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), entries = new ByteArrayOutputStream(),
                section = new ByteArrayOutputStream();
        int base = (int) key * EntityIndex.BLOCK;
        int n = Math.min(EntityIndex.BLOCK, ei.nextIndex() - base);
        varint(out, n);
        byte[] prev = new byte[0];
        long prevTable = 0, prevRow = -1;
        int prevK = -1;
        for (int i = 0; i < n; ) { // the runs (format 12): one state, generation and table, consecutive rows
            int idx = base + i;
            byte st = ei.state(idx);
            long gen = st == EntityIndex.FREE_NEVER ? 0 : ei.generation(idx);
            int len = 1;
            while (i + len < n && ei.state(idx + len) == st && (st == EntityIndex.FREE_NEVER || ei.generation(idx + len) == gen
                    && (st != EntityIndex.ALIVE || ei.table(idx + len) == ei.table(idx) && ei.row(idx + len) == ei.row(idx) + len))) {
                len++;
            }
            varint(entries, gen << 2 | st);
            varint(entries, len - 1);
            if (st == EntityIndex.ALIVE) {
                long table = ei.table(idx), row = ei.row(idx);
                zigzag(entries, table - prevTable);
                zigzag(entries, row - prevRow - 1);
                prevTable = table;
                prevRow = row + len - 1;
            }
            i += len;
        }
        for (int i = 0; i < n; i++) {
            int idx = base + i;
            if (ei.state(idx) == EntityIndex.ALIVE) {
                byte[] b = idx < names.length && names[idx] != null ? names[idx].getBytes(StandardCharsets.UTF_8) : new byte[0];
                if (b.length == 0) {
                    continue; // anonymous: not in the names section
                }
                int shared = 0;
                while (shared < Math.min(b.length, prev.length) && b[shared] == prev[shared]) {
                    shared++;
                }
                varint(section, i - prevK - 1);
                varint(section, shared);
                varint(section, b.length - shared);
                section.write(b, shared, b.length - shared);
                prev = b;
                prevK = i;
            }
        }
        int m = section.size();
        out.write(m >>> 24);
        out.write(m >>> 16);
        out.write(m >>> 8);
        out.write(m);
        out.writeBytes(entries.toByteArray());
        out.writeBytes(section.toByteArray());
        return out.toByteArray();
    }

    /** Each entry's name read back from the page (null: anonymous, dead or never used). */
    private static List<String> decodeNames(byte[] page) {
        Bytes.Reader r = new Bytes.Reader(page);
        int n = r.varint(EntityIndex.BLOCK);
        int m = r.i32();
        for (int i = 0; i < n; ) {
            long code = r.varint();
            i += 1 + (int) r.varint();
            if ((code & 3) == EntityIndex.ALIVE) {
                r.zigzag();
                r.zigzag();
            }
        }
        assertEquals(m, r.remaining(), "the names section is what follows the entries");
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(null);
        }
        byte[] prev = new byte[0];
        int k = -1;
        while (r.remaining() > 0) {
            k += 1 + (int) r.varint();
            int shared = r.varint(prev.length);
            int suffix = r.vcount(1);
            byte[] b = Arrays.copyOf(prev, shared + suffix);
            r.raw(b, shared, suffix);
            assertTrue(b.length > 0, "a name in the section is never empty");
            out.set(k, new String(b, StandardCharsets.UTF_8));
            prev = b;
        }
        return out;
    }

    private static void varint(ByteArrayOutputStream out, long v) {
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }

    private static void zigzag(ByteArrayOutputStream out, long v) {
        varint(out, (v << 1) ^ (v >> 63));
    }
}
