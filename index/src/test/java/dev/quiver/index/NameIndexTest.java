package dev.quiver.index;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The name index against a HashMap model: random puts (new keys and replacements) and removes
 * (whose backward shifts must keep every probe chain whole), with names repeated under several
 * parents, through many resizes. Seed: {@code -Dtests.seed}.
 */
class NameIndexTest {
    record Key(int parent, String name) {}

    @Test
    void randomOperationsAgreeWithAHashMap() {
        long seed = Long.getLong("tests.seed", 7L);
        Random rnd = new Random(seed);
        int entities = 60_000;
        String[] names = new String[entities];
        for (int i = 1; i < entities; i++) {
            names[i] = "n" + rnd.nextInt(5_000); // names repeat under different parents
        }
        NameIndex index = new NameIndex(i -> names[i]);
        Map<Key, Long> model = new HashMap<>();
        for (int step = 0; step < 300_000; step++) {
            int i = 1 + rnd.nextInt(entities - 1);
            int parent = rnd.nextInt(4);
            Key k = new Key(parent, names[i]);
            if (rnd.nextInt(3) == 0) {
                index.remove(parent, names[i]);
                model.remove(k);
            } else {
                long e = Ids.entity(i, rnd.nextInt(3));
                index.put(parent, names[i], e);
                model.put(k, e);
            }
            if (step % 1000 == 0) {
                Key probe = new Key(rnd.nextInt(4), "n" + rnd.nextInt(5_000));
                assertEquals(model.getOrDefault(probe, 0L), index.get(probe.parent(), probe.name()),
                        "seed " + seed + " step " + step + " " + probe);
            }
        }
        assertEquals(model.size(), index.size(), "seed " + seed);
        for (var en : model.entrySet()) {
            assertEquals(en.getValue(), index.get(en.getKey().parent(), en.getKey().name()), "seed " + seed + " " + en.getKey());
        }
        int[] visited = {0};
        index.forEach((parent, e) -> {
            assertEquals(e, model.get(new Key(parent, names[Ids.index(e)])), "seed " + seed);
            visited[0]++;
        });
        assertEquals(model.size(), visited[0]);
    }
}
