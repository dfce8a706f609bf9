package dev.quiver.storage;

import dev.quiver.index.Ids;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A cleanup cascade larger than the point where the doomed set turns from a hash set into a bit
 * set (6,001 doomed entities against 4,096): every doomed entity is gone, and every survivor loses
 * exactly the ids that name a doomed entity (as a tag, as a relationship, as a target, fragmenting
 * and sparse), before and after a reopen.
 */
class CleanupLargeCascadeTest {
    private static final int CHILDREN = 60, GRANDCHILDREN = 100;

    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"never", "always"})
    void aSubtreeOfSixThousandGoesAndSurvivorsLoseOnlyItsIds(String sparse) {
        Path dir = tmp.resolve(sparse);
        List<Long> doomed = new ArrayList<>();
        long[] survivors;
        long keep;
        try (World w = SparseChildOfTest.inMode(sparse, "8", () -> World.create(dir))) {
            long likes = w.entity("Likes"), tag = w.entity("Keep");
            keep = w.entity("kept");
            w.transaction(x -> {
                long root = x.entity("root");
                doomed.add(root);
                for (int c = 0; c < CHILDREN; c++) {
                    long child = x.entity("root.c" + c);
                    doomed.add(child);
                    for (int g = 0; g < GRANDCHILDREN; g++) {
                        doomed.add(x.entity("root.c" + c + ".g" + g));
                    }
                }
            });
            survivors = new long[50];
            w.transaction(x -> {
                for (int s = 0; s < survivors.length; s++) {
                    long e = x.entity("s" + s);
                    survivors[s] = e;
                    long d = doomed.get((s * 7919) % doomed.size());
                    x.add(e, tag);
                    x.add(e, x.pair(likes, d));        // a doomed target
                    x.add(e, x.pair(likes, keep));     // a surviving target, kept
                    if (s % 5 == 0) {
                        x.add(e, d);                   // a doomed entity as a tag
                        x.add(e, x.pair(d, keep));     // a doomed entity as a relationship
                    }
                }
            });
            w.delete(doomed.get(0));
            verify(w, doomed, survivors, likes, tag, keep);
        }
        try (World w = SparseChildOfTest.inMode(sparse, "8", () -> World.open(dir))) {
            verify(w, doomed, survivors, w.lookup("Likes"), w.lookup("Keep"), keep);
        }
    }

    private static void verify(World w, List<Long> doomed, long[] survivors, long likes, long tag, long keep) {
        assertEquals(1 + CHILDREN + CHILDREN * GRANDCHILDREN, doomed.size());
        var dead = new java.util.HashSet<Integer>();
        doomed.forEach(d -> dead.add(Ids.index(d)));
        for (long d : doomed) {
            assertFalse(w.isAlive(d), () -> "still alive: " + d);
        }
        assertEquals(0, w.lookup("root"));
        for (long s : survivors) {
            assertTrue(w.isAlive(s));
            assertArrayEquals(new long[] {keep}, w.targets(s, likes), "only the surviving target stays");
            assertTrue(w.has(s, tag));
            for (long id : w.type(s)) {
                boolean refers = Ids.isPair(id) ? dead.contains(Ids.first(id)) || dead.contains(Ids.second(id)) : dead.contains(Ids.index(id));
                assertFalse(refers, () -> "survivor kept an id of a deleted entity: " + id);
            }
        }
        assertEquals(List.of(), w.check());
    }
}
