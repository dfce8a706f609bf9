package dev.quiver.query.engine;

import dev.quiver.index.Ids;
import dev.quiver.query.Query;
import dev.quiver.query.SparseChildOfQueryTest;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.World;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The backward closures kept across evaluations ({@link DownCache}) follow every change of the
 * world: a pair added or removed, an entity deleted, a change inside a transaction (not kept while
 * it is open) and a refused transaction, and a reopen. Each step checks the answer of
 * {@code (Dep, root)} against the sources expected, and that the closure is kept when the world
 * is at rest (so the checks after a change run against a filled cache). Both storage kinds.
 */
class DownCacheTest {
    @TempDir
    Path tmp;

    /** The names of the sources of {@code (Dep, root)}, sorted. */
    private static TreeSet<String> sources(World w) {
        TreeSet<String> out = new TreeSet<>();
        Query q = Query.parse(w, "(Dep, root)");
        q.forEach(r -> {
            out.add(w.path(r.thisEntity()));
            // rows handed out one at a time share their step's data: each keeps its own table row
            assertEquals(r.thisEntity(), r.thisTable() == null ? r.thisEntity() : r.thisTable().entity(r.thisRow()));
        });
        assertEquals(out.size(), q.count());
        return out;
    }

    private static TreeSet<String> set(String... names) {
        return new TreeSet<>(java.util.List.of(names));
    }

    /** The closure of root kept in the cache now (null when none is). */
    private static int[] kept(World w) {
        DownCache.View v = DownCache.of(w);
        return v.get(Ids.index(w.lookup("Dep")), Ids.index(w.lookup("root")));
    }

    @Test
    void keptClosuresFollowEveryChange() {
        for (String mode : new String[] {"auto", "never"}) {
            Path dir = tmp.resolve(mode);
            World w = SparseChildOfQueryTest.create(dir, mode);
            try {
                w.transaction(x -> {
                    long dep = x.entity("Dep");
                    x.add(dep, Builtin.TRANSITIVE);
                    if (mode.equals("auto")) {
                        x.add(dep, Builtin.DONT_FRAGMENT);
                    }
                    long root = x.entity("root");
                    long a = x.entity("a"), b = x.entity("b"), c = x.entity("c");
                    x.add(a, Ids.pair(dep, root));
                    x.add(b, Ids.pair(dep, a));
                    x.add(c, Ids.pair(dep, b));
                    x.add(root, Ids.pair(dep, c)); // a cycle through root
                    x.entity("d");
                });
                long dep = w.lookup("Dep");
                assertNull(kept(w));
                assertEquals(set("a", "b", "c", "root"), sources(w), mode);
                assertNotNull(kept(w), mode + ": kept at rest");
                assertEquals(set("a", "b", "c", "root"), sources(w), mode + ": from the cache");

                w.add(w.lookup("d"), Ids.pair(dep, w.lookup("b"))); // add a pair
                assertNull(kept(w), mode);
                assertEquals(set("a", "b", "c", "d", "root"), sources(w), mode + ": pair added");

                w.remove(w.lookup("root"), Ids.pair(dep, w.lookup("c"))); // remove a pair: the cycle is gone
                assertEquals(set("a", "b", "c", "d"), sources(w), mode + ": pair removed");

                w.delete(w.lookup("a")); // delete an entity: b, c and d reached root through it
                assertEquals(set(), sources(w), mode + ": entity deleted");
                assertNotNull(kept(w), mode);

                // inside a transaction: answers follow its changes, nothing is kept meanwhile
                w.transaction(x -> {
                    x.add(x.lookup("b"), Ids.pair(dep, x.lookup("root")));
                    assertNull(DownCache.of(x), "no cache inside a transaction");
                    assertEquals(set("b", "c", "d"), sources(x), mode + ": in the transaction");
                    x.add(x.lookup("c"), Ids.pair(dep, x.lookup("root")));
                    assertEquals(set("b", "c", "d"), sources(x), mode + ": in the transaction, again");
                });
                assertEquals(set("b", "c", "d"), sources(w), mode + ": committed");

                // a refused transaction: its changes are undone, so must be any answer computed during it
                assertThrows(IllegalStateException.class, () -> w.transaction(x -> {
                    x.remove(x.lookup("b"), Ids.pair(dep, x.lookup("root")));
                    x.remove(x.lookup("c"), Ids.pair(dep, x.lookup("root")));
                    assertEquals(set(), sources(x), mode + ": in the refused transaction");
                    throw new IllegalStateException("refused");
                }));
                assertEquals(set("b", "c", "d"), sources(w), mode + ": after the refused transaction");
            } finally {
                w.close();
            }
            // a reopen: a new world object, its own cache, the committed answer
            try (World r = World.open(dir)) {
                assertNull(kept(r));
                assertEquals(set("b", "c", "d"), sources(r), mode + ": reopened");
                r.add(r.lookup("root"), Ids.pair(r.lookup("Dep"), r.lookup("d")));
                assertEquals(set("b", "c", "d", "root"), sources(r), mode + ": reopened, then changed");
            }
        }
    }
}
