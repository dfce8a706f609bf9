package dev.quiver.index;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The reverse index keeps its lists in slices of {@link ReverseIndex#SLICE} targets: every method
 * answers as a plain map from target to list would, for targets in the same slice, in slices far
 * apart, on slice edges, and after a lazily read block is forgotten and read again. Seeded:
 * reproduce with {@code -Dquiver.seed=N} (printed).
 */
class ReverseIndexSlicesTest {
    private static final int[] SPOTS = {0, 1, 1023, 1024, 1025, 2047, 2048, 5000, 65_535, 65_536, 3_000_000, 3_000_001};

    @Test
    void everyMethodAnswersAsAMapWould() {
        long seed = Long.getLong("quiver.seed", System.nanoTime() % 100000);
        System.out.println("ReverseIndexSlicesTest seed " + seed + " (-Dquiver.seed=" + seed + ")");
        Random rnd = new Random(seed);
        var r = new ReverseIndex();
        var model = new TreeMap<Integer, List<Long>>();
        for (int step = 0; step < 20_000; step++) {
            int target = rnd.nextInt(4) == 0 ? SPOTS[rnd.nextInt(SPOTS.length)] + rnd.nextInt(3) : rnd.nextInt(8192);
            long entry = ((long) rnd.nextInt(4) << 32) | rnd.nextInt(50);
            switch (rnd.nextInt(6)) {
                case 0, 1, 2 -> {
                    r.add(target, entry);
                    model.computeIfAbsent(target, t -> new ArrayList<>()).add(entry);
                }
                case 3 -> {
                    r.remove(target, entry);
                    List<Long> l = model.get(target);
                    if (l != null) {
                        int p = l.lastIndexOf(entry);
                        if (p >= 0) {
                            l.set(p, l.get(l.size() - 1));
                            l.remove(l.size() - 1);
                        }
                        if (l.isEmpty()) {
                            model.remove(target);
                        }
                    }
                }
                case 4 -> {
                    boolean had = r.removeAll(target);
                    assertEquals(model.remove(target) != null, had, "removeAll(" + target + "), seed " + seed);
                }
                default -> {
                    r.reserve(target, 1 + rnd.nextInt(4));
                }
            }
            if (step % 997 == 0) {
                check(r, model, seed);
            }
        }
        check(r, model, seed);
    }

    private static void check(ReverseIndex r, TreeMap<Integer, List<Long>> model, long seed) {
        assertEquals(model.size(), r.targetCount(), "targets, seed " + seed);
        assertEquals(new IntArrayList(model.keySet()), r.targets(), "seed " + seed);
        for (int s : SPOTS) {
            for (int t = Math.max(0, s - 1); t < s + 3; t++) {
                List<Long> want = model.get(t);
                LongArrayList got = list(r, t);
                assertEquals(want == null ? null : new LongArrayList(want), got, "target " + t + ", seed " + seed);
            }
        }
        for (var e : model.entrySet()) {
            IntArrayList out = new IntArrayList();
            r.sources(e.getKey(), -1, out);
            assertEquals(e.getValue().size(), out.size(), "target " + e.getKey() + ", seed " + seed);
        }
    }

    @Test
    void aForgottenBlockIsReadAgainAndTheOthersStay() {
        // blocks of 1024 targets, one slice each: stored lists at both edges of blocks 0, 1, 2 and 3000
        var stored = new TreeMap<Integer, long[]>();
        for (int t : new int[] {0, 1023, 1024, 2047, 2048, 3071, 3000 * 1024, 3000 * 1024 + 1023}) {
            stored.put(t, new long[] {(7L << 32) | t});
        }
        var r = new ReverseIndex();
        int[] reads = {0};
        r.lazy(10, b -> {
            reads[0]++;
            stored.forEach((t, l) -> {
                if (t >>> 10 == b) {
                    r.put(t, new LongArrayList(l));
                }
            });
        }, null);
        for (int t : stored.keySet()) {
            assertEquals(new LongArrayList(stored.get(t)), list(r, t), "target " + t);
        }
        assertEquals(4, reads[0]);
        r.unload(1);
        assertEquals(4, r.blocksLoaded() + 1, "block 1 forgotten");
        assertEquals(new LongArrayList(stored.get(0)), list(r, 0), "block 0 stays");
        assertEquals(new LongArrayList(stored.get(1023)), list(r, 1023), "block 0 stays");
        assertEquals(new LongArrayList(stored.get(2048)), list(r, 2048), "block 2 stays");
        assertEquals(new LongArrayList(stored.get(3071)), list(r, 3071), "block 2 stays");
        assertEquals(new LongArrayList(stored.get(3000 * 1024)), list(r, 3000 * 1024), "block 3000 stays");
        assertEquals(4, reads[0], "no block read again yet");
        assertNull(list(r, 1500), "no list in block 1 (read again)");
        assertEquals(5, reads[0], "block 1 read again on touch");
        assertEquals(new LongArrayList(stored.get(1024)), list(r, 1024));
        assertEquals(new LongArrayList(stored.get(2047)), list(r, 2047));
    }

    /** The entries of {@code t} as a list, or null (a copy of {@link ReverseIndex#get}'s view). */
    private static LongArrayList list(ReverseIndex r, int t) {
        ReverseEntries e = r.get(t);
        return e == null ? null : e.toList();
    }
}
