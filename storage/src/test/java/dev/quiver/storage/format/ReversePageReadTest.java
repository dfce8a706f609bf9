package dev.quiver.storage.format;

import dev.quiver.error.CorruptionException;
import dev.quiver.index.ReverseIndex;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@link ReversePage#read} puts a block's lists into the index as it decodes them: a page read
 * back gives the writer's lists, and a malformed page (its lists whole, then bytes past them)
 * leaves none of its lists behind.
 */
class ReversePageReadTest {
    private static final long KEY = 3;
    private static final int BASE = (int) KEY << ReversePage.SHIFT;

    private static byte[] body(ReverseIndex writer) {
        Bytes.Writer w = new Bytes.Writer(64);
        if (!ReversePage.write(writer, KEY, w)) {
            throw new AssertionError("no lists");
        }
        return Arrays.copyOf(w.buffer(), w.size());
    }

    private static ReverseIndex writer() {
        ReverseIndex writer = new ReverseIndex();
        writer.add(BASE, (5L << 32) | 10);
        writer.add(BASE + 7, (5L << 32) | 11);
        writer.add(BASE + 7, (6L << 32) | 12);
        writer.add(BASE + 1023, (5L << 32) | 13);
        return writer;
    }

    @Test
    void aPageReadBackGivesTheWritersLists() {
        ReverseIndex writer = writer();
        ReverseIndex reader = new ReverseIndex();
        ReversePage.read(reader, KEY, body(writer));
        for (int t = BASE - 1; t <= BASE + 1024; t++) {
            assertEquals(writer.get(t), reader.get(t), "target " + t);
        }
        assertEquals(3, reader.targetCount());
    }

    @Test
    void aMalformedPageLeavesNoneOfItsLists() {
        byte[] good = body(writer());
        byte[] bad = Arrays.copyOf(good, good.length + 1); // a byte past the last target's entries
        ReverseIndex reader = new ReverseIndex();
        reader.add(BASE + 2048, (5L << 32) | 99); // another block's list, which stays
        assertThrows(CorruptionException.class, () -> ReversePage.read(reader, KEY, bad));
        for (int t = BASE; t < BASE + 1024; t++) {
            assertNull(reader.get(t), "target " + t + " of the malformed page");
        }
        assertEquals(new LongArrayList(new long[] {(5L << 32) | 99}), reader.get(BASE + 2048).toList());
        assertEquals(1, reader.targetCount());
    }
}
