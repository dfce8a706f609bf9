package dev.quiver.storage;

import dev.quiver.error.BadInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A prefab's sparse children are found once and kept across the commits that did not change them
 * ({@code Prefabs.childrenScans}, counted, never timed); a commit or a refused transaction that
 * changes them makes the next instantiation see the change.
 */
class PrefabChildrenMemoTest {
    @TempDir
    Path tmp;

    @Test
    void childrenSurviveCommitsThatDidNotTouchThem() {
        SparseChildOfTest.inMode("always", "32", () -> {
            try (World w = World.create(tmp.resolve("w"))) {
                long[] prefab = new long[1];
                w.transaction(t -> {
                    prefab[0] = t.entity("Ship");
                    t.add(prefab[0], Builtin.PREFAB);
                    for (int i = 0; i < 3; i++) {
                        t.add(t.entity("Ship.part" + i), Builtin.PREFAB);
                    }
                });
                w.instantiate(prefab[0], 5);
                long scans = w.m.prefabs.childrenScans();
                for (int k = 0; k < 4; k++) { // commits that leave the prefab's children alone
                    w.entity("other" + k);
                    long[] made = w.instantiate(prefab[0], 5);
                    assertNotEquals(0, w.lookup(made[4], "part2"));
                }
                assertEquals(scans, w.m.prefabs.childrenScans(), "no rescan while the children stay the same");

                w.entity("Ship.part3"); // a new child, committed: seen by the next instantiation
                long[] made = w.instantiate(prefab[0], 2);
                assertNotEquals(0, w.lookup(made[1], "part3"));
                // Ship's children are scanned again, and part3's (a new base of the instances' part3) for the first time
                assertEquals(scans + 2, w.m.prefabs.childrenScans());

                // a child added in a refused transaction: the instantiation inside it sees it, the next one does not
                assertThrows(BadInputException.class, () -> w.transaction(t -> {
                    t.entity("Ship.part4");
                    long[] inside = t.instantiate(prefab[0], 1);
                    assertNotEquals(0, t.lookup(inside[0], "part4"));
                    t.entity("not a name!");
                }));
                long[] after = w.instantiate(prefab[0], 2);
                assertEquals(0, w.lookup(after[1], "part4"));
                assertNotEquals(0, w.lookup(after[1], "part3"));

                w.close();
                try (World r = World.open(tmp.resolve("w"))) {
                    assertNotEquals(0, r.lookup(after[1], "part3"));
                    assertEquals(0, r.lookup(after[1], "part4"));
                }
            }
            return null;
        });
    }
}
