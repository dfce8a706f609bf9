package dev.quiver.query;

import dev.quiver.index.Ids;
import dev.quiver.query.cache.CachedQuery;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.World;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Queries over ChildOf stored sparse (issue 8 section 5) answer as over ChildOf fragmenting: pair
 * terms, wildcards, variables, {@code up ChildOf}, {@code self|up}, and the cached {@code cascade}
 * and {@code cascade|desc} orders (depth worked out row by row: every child shares one table), on
 * a seeded random forest built the same way in both modes.
 */
public class SparseChildOfQueryTest {
    @TempDir
    Path tmp;

    static final String[] QUERIES = {
        "(ChildOf, *)", "(ChildOf, top)", "(ChildOf, top.a)", "(ChildOf, $p), Tag($p)", "Tag(up ChildOf)", "Tag(up)", "Tag(self|up)",
        "Tag, !Tag(up)", "Other, Tag(up ChildOf)", "(ChildOf, $p), ChildOf($p, $q)", "!(ChildOf, *)",
        "Tag(self|up), (ChildOf, *)",
    };

    static final String[] CASCADES = {
        "Tag(cascade)", "Tag(self|cascade)", "Tag(cascade ChildOf|desc)", "Other, Tag(self|cascade)",
    };

    /** A world created with {@code quiver.sparse} set to {@code mode} (restored afterwards); also used by the other sparse query tests. */
    public static World create(Path dir, String mode) {
        String old = System.getProperty("quiver.sparse");
        System.setProperty("quiver.sparse", mode);
        try {
            return World.create(dir);
        } finally {
            if (old == null) {
                System.clearProperty("quiver.sparse");
            } else {
                System.setProperty("quiver.sparse", old);
            }
        }
    }

    private static void build(World w, long seed) {
        var rnd = new Random(seed);
        w.transaction(x -> {
            long tag = x.entity("Tag"), other = x.entity("Other");
            x.add(x.entity("top.a.b"), tag);
            x.entity("top.c");
            var made = new ArrayList<Long>();
            for (int i = 0; i < 60; i++) {
                long parent = made.isEmpty() || rnd.nextInt(5) == 0 ? 0 : made.get(rnd.nextInt(made.size()));
                long e = x.entity(parent == 0 ? "n" + i : x.path(parent) + ".n" + i);
                if (rnd.nextInt(3) == 0) {
                    x.add(e, tag);
                }
                if (rnd.nextInt(2) == 0) {
                    x.add(e, other);
                }
                made.add(e);
            }
            // a few moves, so that depths change after the first placement
            for (int k = 0; k < 8; k++) {
                long e = made.get(rnd.nextInt(made.size()));
                long p = made.get(rnd.nextInt(made.size()));
                try {
                    x.add(e, Ids.pair(Builtin.CHILD_OF, p));
                } catch (dev.quiver.error.BadInputException cycleOrName) {
                    // refused alike in both modes (the storage test compares the refusals)
                }
            }
        });
    }

    private static List<String> rows(World w, Iterable<QueryRow> rows, boolean sort) {
        var out = new ArrayList<String>();
        for (QueryRow r : rows) {
            out.add(w.path(r.thisEntity()) + " " + r);
        }
        if (sort) {
            Collections.sort(out);
        }
        return out;
    }

    /** The depth of each row of a cascade, in the order handed out (rows of one depth come in any order). */
    private static List<Long> depths(World w, CachedQuery q) {
        var out = new ArrayList<Long>();
        for (QueryRow r : q.rows(-1)) {
            long d = 0;
            for (long p = w.parent(r.thisEntity()); p != 0; p = w.parent(p)) {
                d++;
            }
            out.add(d);
        }
        return out;
    }

    @Test
    void queriesOverASparseChildOfAnswerAsOverAFragmentingOne() {
        long seed = Long.getLong("quiver.seed", System.nanoTime() % 100000);
        System.out.println("SparseChildOfQueryTest seed " + seed + " (-Dquiver.seed=" + seed + ")");
        try (World dense = create(tmp.resolve("dense"), "never"); World sparse = create(tmp.resolve("sparse"), "always")) {
            build(dense, seed);
            build(sparse, seed);
            int cf = Ids.index(Builtin.CHILD_OF);
            assertFalse(dense.tableAccess().sparse().isSparse(cf));
            assertTrue(sparse.tableAccess().sparse().isSparse(cf));
            long wild = Ids.pair(Builtin.CHILD_OF, Builtin.WILDCARD);
            assertTrue(sparse.tableAccess().tables(wild).size() <= 4, "children share the tables of their other ids: " + sparse.tableAccess().tables(wild));
            assertTrue(dense.tableAccess().tables(wild).size() > 4, "fragmenting: a table per parent");
            assertEquals(List.of(), sparse.check());
            for (String text : QUERIES) {
                List<String> want = rows(dense, Query.parse(dense, text).rows(-1), true);
                assertEquals(want, rows(sparse, Query.parse(sparse, text).rows(-1), true), "seed " + seed + ": " + text);
                assertEquals(want, rows(sparse, CachedQuery.parse(sparse, text).rows(-1), true), "seed " + seed + ", cached: " + text);
            }
            for (String text : CASCADES) {
                CachedQuery d = CachedQuery.parse(dense, text), s = CachedQuery.parse(sparse, text);
                assertEquals(rows(dense, d.rows(-1), true), rows(sparse, s.rows(-1), true), "seed " + seed + ": " + text);
                assertEquals(d.groups(), s.groups(), "seed " + seed + ", groups: " + text);
                List<Long> sd = depths(sparse, s);
                assertEquals(depths(dense, d), sd, "seed " + seed + ", depth order: " + text);
                List<Long> sorted = new ArrayList<>(sd);
                sorted.sort(text.contains("desc") ? Collections.reverseOrder() : null);
                assertEquals(sorted, sd, "seed " + seed + ", " + text + " hands out rows by depth");
                for (long g : d.groups()) {
                    var dg = new ArrayList<String>();
                    var sg = new ArrayList<String>();
                    d.forEachInGroup(g, r -> dg.add(dense.path(r.thisEntity())));
                    s.forEachInGroup(g, r -> sg.add(sparse.path(r.thisEntity())));
                    Collections.sort(dg);
                    Collections.sort(sg);
                    assertEquals(dg, sg, "seed " + seed + ", group " + g + " of " + text);
                }
            }
        }
    }
}
