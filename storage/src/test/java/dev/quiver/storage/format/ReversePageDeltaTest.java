package dev.quiver.storage.format;

import dev.quiver.index.ReverseEntries;
import dev.quiver.index.ReverseIndex;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/**
 * {@link ReversePage#applyDelta}: a block's page once its commits' deltas are applied is the page
 * of the writer's lists after the same adds and removes ({@link ReverseIndex#add},
 * {@link ReverseIndex#remove}), whatever the base page, however many deltas, with targets emptied
 * and filled again and many adds per target (each list is sized once from the adds counted
 * first). Seeded: reproduce with {@code -Dquiver.seed=N} (printed).
 */
class ReversePageDeltaTest {
    @Test
    void deltasAppliedToAPageGiveTheWritersPage() {
        long seed = Long.getLong("quiver.seed", System.nanoTime() % 100000);
        System.out.println("ReversePageDeltaTest seed " + seed + " (-Dquiver.seed=" + seed + ")");
        Random rnd = new Random(seed);
        Bytes.Writer w = new Bytes.Writer(64);
        for (int round = 0; round < 40; round++) {
            long key = rnd.nextInt(4);
            int base = (int) key << ReversePage.SHIFT;
            int targets = 1 + rnd.nextInt(rnd.nextBoolean() ? 8 : 1 << ReversePage.SHIFT);
            ReverseIndex writer = new ReverseIndex();
            // a base page (or none)
            byte[] page = null;
            if (rnd.nextBoolean()) {
                for (int k = rnd.nextInt(200); k > 0; k--) {
                    writer.add(base + rnd.nextInt(targets), entry(rnd));
                }
                page = sealed(writer, key, w);
            }
            List<byte[]> deltas = new ArrayList<>();
            for (int d = rnd.nextInt(6); d > 0; d--) {
                LongArrayList ops = new LongArrayList();
                for (int k = rnd.nextInt(rnd.nextBoolean() ? 30 : 3000); k > 0; k--) {
                    int t = rnd.nextInt(targets);
                    ReverseEntries l = writer.get(base + t);
                    if (l != null && rnd.nextInt(3) == 0) { // remove an entry it holds (or, rarely, one it does not)
                        long e = rnd.nextInt(10) == 0 ? entry(rnd) : l.getLong(rnd.nextInt(l.size()));
                        writer.remove(base + t, e);
                        ops.add(((long) t << 1) | 1);
                        ops.add(e);
                    } else {
                        long e = entry(rnd);
                        writer.add(base + t, e);
                        ops.add((long) t << 1);
                        ops.add(e);
                    }
                }
                byte[] delta = ReversePage.writeDelta(ops, w);
                if (delta != null) {
                    deltas.add(delta);
                }
            }
            byte[] want = sealed(writer, key, w);
            byte[] got = ReversePage.applyDelta(key, page, deltas);
            assertArrayEquals(want, got, "seed " + seed + " round " + round);
        }
    }

    private static long entry(Random rnd) {
        return ((long) (1 + rnd.nextInt(4)) << 32) | rnd.nextInt(50);
    }

    private static byte[] sealed(ReverseIndex r, long key, Bytes.Writer w) {
        w.reset();
        if (!ReversePage.write(r, key, w)) {
            return null;
        }
        return PageCompression.seal(w.buffer(), w.size());
    }
}
