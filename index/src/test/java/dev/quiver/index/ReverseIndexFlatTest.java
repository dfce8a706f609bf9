package dev.quiver.index;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Slices read whole ({@link ReverseIndex#putBlock}) are kept flat, and a change of one of their
 * targets turns the slice into lists: every lookup answers, in the same entry order, as a model
 * of the lists (adds appending, removes swapping the last entry in) says, for slices read flat,
 * slices turned into lists by a change, and slices changed, committed, forgotten and read flat
 * again. Seeded: reproduce with {@code -Dquiver.seed=N} (printed).
 */
class ReverseIndexFlatTest {
    /** Slices used: targets 0 to {@code SLICES * 1024 - 1}, and a far one. */
    private static final int SLICES = 5;
    private static final int FAR = 3000;

    private final TreeMap<Integer, List<Long>> model = new TreeMap<>();
    /** The committed slices ("pages"): entries and offsets as a page read gives them. */
    private final Map<Integer, long[]> pageEntries = new HashMap<>();
    private final Map<Integer, int[]> pageStarts = new HashMap<>();

    private int target(Random rnd) {
        int s = rnd.nextInt(8) == 0 ? FAR : rnd.nextInt(SLICES);
        int i = rnd.nextInt(4) == 0 ? (rnd.nextBoolean() ? 0 : 1023) : rnd.nextInt(rnd.nextBoolean() ? 40 : 1024);
        return (s << 10) + i;
    }

    /** The model's slices as pages: one array of entries and 1025 offsets per slice holding entries. */
    private void commit() {
        pageEntries.clear();
        pageStarts.clear();
        var bySlice = new TreeMap<Integer, TreeMap<Integer, List<Long>>>();
        model.forEach((t, l) -> bySlice.computeIfAbsent(t >>> 10, k -> new TreeMap<>()).put(t & 1023, l));
        bySlice.forEach((s, lists) -> {
            var entries = new LongArrayList();
            int[] start = new int[1025];
            for (int i = 0; i < 1024; i++) {
                start[i] = entries.size();
                for (long e : lists.getOrDefault(i, List.of())) {
                    entries.add(e);
                }
            }
            start[1024] = entries.size();
            pageEntries.put(s, entries.toLongArray());
            pageStarts.put(s, start);
        });
    }

    private ReverseIndex open() {
        var r = new ReverseIndex();
        r.lazy(10, b -> {
            if (pageEntries.containsKey(b)) {
                r.putBlock(b, pageEntries.get(b), pageStarts.get(b));
            }
        }, () -> {
            for (int b : pageEntries.keySet()) {
                if (!r.blocks().isLoaded(b)) {
                    r.blocks().markLoaded(b);
                    r.putBlock(b, pageEntries.get(b), pageStarts.get(b));
                }
            }
            r.blocks().eager();
        });
        return r;
    }

    @Test
    void flatConvertedAndReadAgainSlicesAnswerAsTheirListsSay() {
        long seed = Long.getLong("quiver.seed", System.nanoTime() % 100000);
        System.out.println("ReverseIndexFlatTest seed " + seed + " (-Dquiver.seed=" + seed + ")");
        Random rnd = new Random(seed);
        ReverseIndex r = open(); // nothing committed: an empty index
        int flatSeen = 0;
        int thawSeen = 0;
        for (int round = 0; round < 20; round++) {
            for (int step = rnd.nextInt(rnd.nextBoolean() ? 20 : 3000); step > 0; step--) {
                int target = target(rnd);
                long entry = ((long) rnd.nextInt(4) << 32) | rnd.nextInt(60);
                int flatBefore = r.flatBlocks();
                switch (rnd.nextInt(6)) {
                    case 0, 1, 2 -> {
                        r.add(target, entry);
                        model.computeIfAbsent(target, t -> new ArrayList<>()).add(entry);
                    }
                    case 3 -> {
                        ReverseEntries held = r.get(target);
                        long e = held != null && rnd.nextBoolean() ? held.getLong(rnd.nextInt(held.size())) : entry;
                        r.remove(target, e);
                        List<Long> l = model.get(target);
                        if (l != null) {
                            int p = l.lastIndexOf(e);
                            if (p >= 0) {
                                l.set(p, l.get(l.size() - 1));
                                l.remove(l.size() - 1);
                            }
                            if (l.isEmpty()) {
                                model.remove(target);
                            }
                        }
                    }
                    case 4 -> assertEquals(model.remove(target) != null, r.removeAll(target), "removeAll(" + target + "), seed " + seed);
                    default -> r.reserve(target, 1 + rnd.nextInt(4));
                }
                thawSeen += flatBefore - r.flatBlocks();
                if (rnd.nextInt(2000) == 0) {
                    check(r, seed, "round " + round);
                }
            }
            check(r, seed, "round " + round + ", changed");
            commit();
            switch (rnd.nextInt(3)) {
                case 0 -> r = open(); // a reopen: every slice read flat on first touch
                case 1 -> { // some slices forgotten, read flat again on next touch
                    for (int b = 0; b <= FAR; b = b < SLICES ? b + 1 : FAR + 1) {
                        if (rnd.nextBoolean()) {
                            r.unload(b);
                        }
                    }
                }
                default -> { } // the writer's lists and flat slices as they are
            }
            check(r, seed, "round " + round + ", committed");
            flatSeen = Math.max(flatSeen, r.flatBlocks());
        }
        assertTrue(flatSeen > 0 && thawSeen > 0, flatSeen + " flat slices at most, " + thawSeen + " turned into lists, seed " + seed);
        int flat = r.flatBlocks();
        assertEquals(model.size(), r.targetCount(), "targets, seed " + seed); // reads every slice: flat too
        assertTrue(r.flatBlocks() >= flat, "reading every slice keeps them flat");
        assertEquals(new IntArrayList(model.keySet()), r.targets(), "seed " + seed);
        check(r, seed, "end");
    }

    /** Every lookup of every target of the slices used (and just past them), against the model, in order. */
    private void check(ReverseIndex r, long seed, String when) {
        var all = new IntArrayList();
        for (int s : new int[] {0, 1, 2, 3, 4, 5, FAR, FAR + 1}) {
            for (int t = s << 10; t < (s + 1) << 10; t++) {
                all.add(t);
            }
        }
        for (int t : all) {
            List<Long> want = model.get(t);
            ReverseEntries got = r.get(t);
            String at = when + ", target " + t + ", seed " + seed;
            assertEquals(want == null ? null : new LongArrayList(want), got == null ? null : got.toList(), at);
            assertEquals(want == null ? 0 : want.size(), r.entryCount(t), at);
            assertEquals(want != null, r.contains(t), at);
            for (int rel = -1; rel < 4; rel++) {
                var wantSources = new IntArrayList();
                for (long e : want == null ? List.<Long>of() : want) {
                    if (rel < 0 || (int) (e >>> 32) == rel) {
                        wantSources.add((int) (long) e);
                    }
                }
                var each = new IntArrayList();
                r.forEachSource(t, rel, each::add);
                assertEquals(wantSources, each, at + ", relationship " + rel);
                var appended = IntArrayList.of(-7);
                assertEquals(wantSources.size(), r.sources(t, rel, appended), at);
                assertEquals(wantSources, appended.subList(1, appended.size()), at + ", relationship " + rel);
            }
        }
        // the batch forms over every target at once, against the single ones
        int[] ts = all.toIntArray();
        for (int rel = -1; rel < 4; rel++) {
            var want = new IntArrayList();
            int bound = 0;
            for (int t : ts) {
                r.sources(t, rel, want);
                bound += r.entryCount(t);
            }
            assertEquals(bound, r.entryCount(ts, 0, ts.length), when + ", seed " + seed);
            var got = new IntArrayList();
            r.sources(ts, 0, ts.length, rel, got);
            assertEquals(want, got, when + ", relationship " + rel + ", seed " + seed);
        }
    }

    @Test
    void aBlockOfBadOffsetsIsRefused() {
        var r = new ReverseIndex();
        int[] start = new int[1025];
        start[1024] = 2;
        assertThrows(IllegalArgumentException.class, () -> r.putBlock(0, new long[3], start), "offsets end short of the entries");
        int[] descending = new int[1025];
        descending[1] = 2;
        descending[1024] = 1;
        assertThrows(IllegalArgumentException.class, () -> r.putBlock(0, new long[1], descending));
        assertThrows(IllegalArgumentException.class, () -> r.putBlock(0, new long[0], new int[1024]));
        assertThrows(IllegalArgumentException.class, () -> r.putBlock(-1, new long[0], new int[1025]));
        assertNull(r.get(0));
        assertEquals(0, r.flatBlocks());
    }
}
