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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The storage kind of a relationship never changes an answer (issue 8 section 5, FEATURES
 * TRT-16): the same seeded graph is built twice, once with its relationships fragmenting and once
 * with them DontFragment (Union for the Exclusive one), and every query of a list gives the same
 * rows, uncached, cached and table by table; then the fragmenting world switches to sparse storage
 * automatically (after planning) and the compiled queries still agree. Reproduce with
 * {@code -Dquiver.seed=N}.
 */
class SparseStorageQueryTest {
    @TempDir
    Path tmp;

    private static final String[] QUERIES = {
        "(R, *)", "(R, _)", "(R, n3)", "(R, $x)", "(R, $x), Tag($x)", "(R, $x), (R, $y), $x != $y",
        "(*, n3)", "(_, n3)", "($rel, n3)", "($rel, $x), Tag", "!(R, *), Tag", "!(R, n3), Tag", "?(R, n3), Tag",
        "(R, n3) || (S, n4)", "(S, *)", "(S, $x), (R, $x)", "(U, *)", "(U, $x)", "Tag(up R)", "Tag(self|up R)",
        "(T, n0)", "(T, $x)", "T($this, $x), Tag($x)", "T(n9, $x)", "(T, *)", "(R, $x), (T, $x)",
        "$this == n5, (*, *)", "$this == n5, (R, $x)", "Tag, (R, *)", "(R, *), !Tag",
    };

    private long[] build(World w, boolean sparse, long seed) {
        long[] out = new long[1];
        w.transaction(x -> {
            long r = x.entity("R"), s = x.entity("S"), t = x.entity("T"), u = x.entity("U"), tag = x.entity("Tag");
            x.add(t, Builtin.TRANSITIVE);
            x.add(r, Builtin.TRAVERSABLE);
            if (sparse) {
                x.add(r, Builtin.DONT_FRAGMENT);
                x.add(s, Builtin.DONT_FRAGMENT);
                x.add(t, Builtin.DONT_FRAGMENT);
                x.add(u, Builtin.UNION);
            } else {
                x.add(u, Builtin.EXCLUSIVE);
            }
            Random rnd = new Random(seed);
            int n = 60;
            long[] e = new long[n];
            for (int i = 0; i < n; i++) {
                e[i] = x.entity("n" + i);
            }
            for (int i = 0; i < n; i++) {
                if (rnd.nextInt(3) == 0) {
                    x.add(e[i], tag);
                }
                for (int k = rnd.nextInt(3); k > 0; k--) {
                    x.add(e[i], Ids.pair(r, e[rnd.nextInt(n)]));
                }
                if (rnd.nextInt(2) == 0) {
                    x.add(e[i], Ids.pair(s, e[rnd.nextInt(n)]));
                }
                if (i > 0 && rnd.nextInt(4) != 0) {
                    x.add(e[i], Ids.pair(t, e[rnd.nextInt(i)])); // acyclic
                }
                for (int k = rnd.nextInt(3); k > 0; k--) {
                    x.add(e[i], Ids.pair(u, e[rnd.nextInt(n)])); // Exclusive: the last one stays
                }
            }
            x.remove(e[7], Ids.pair(r, Builtin.WILDCARD));
            out[0] = r;
        });
        return out;
    }

    private static List<String> rows(Query q) {
        var out = new ArrayList<String>();
        for (QueryRow r : q.rows(-1)) {
            out.add(r.toString());
        }
        Collections.sort(out);
        assertEquals(out.size(), q.count(), "count() of " + q);
        return out;
    }

    private static List<String> cached(World w, String text) {
        var out = new ArrayList<String>();
        for (QueryRow r : CachedQuery.parse(w, text).rows(-1)) {
            out.add(r.toString());
        }
        Collections.sort(out);
        return out;
    }

    /** The $this entity of each result, table by table ({@code forEachTable}), sorted. */
    private static List<Long> tableByTable(Query q) {
        var out = new ArrayList<Long>();
        q.forEachTable(t -> {
            for (int i = 0; i < t.count(); i++) {
                out.add(t.entity(i));
            }
            return true;
        });
        Collections.sort(out);
        return out;
    }

    /** Each result as its $this and each field's id and source, row by row ({@code rows}), sorted. */
    private static List<String> rowKeys(Query q) {
        var out = new ArrayList<String>();
        for (QueryRow r : q.rows(-1)) {
            StringBuilder sb = new StringBuilder().append(r.thisEntity());
            for (int f = 0; f < r.fieldCount(); f++) {
                sb.append(' ').append(r.fieldId(f)).append('@').append(r.fieldSource(f));
            }
            out.add(sb.toString());
        }
        Collections.sort(out);
        return out;
    }

    /** {@link #rowKeys} read from the steps of {@code forEachTable} (per-row field ids included), sorted. */
    private static List<String> stepKeys(Query q) {
        var out = new ArrayList<String>();
        q.forEachTable(t -> {
            for (int i = 0; i < t.count(); i++) {
                StringBuilder sb = new StringBuilder().append(q.hasThis() ? t.entity(i) : 0);
                for (int f = 0; f < t.fieldCount(); f++) {
                    sb.append(' ').append(t.fieldId(f, i)).append('@').append(t.fieldSource(f, i));
                }
                out.add(sb.toString());
            }
            return true;
        });
        Collections.sort(out);
        return out;
    }

    private static List<Long> thisOf(Query q) {
        var out = new ArrayList<Long>();
        for (QueryRow r : q.rows(-1)) {
            out.add(r.thisEntity());
        }
        Collections.sort(out);
        return out;
    }

    private static World create(Path dir, String mode, String threshold) {
        String oldMode = System.getProperty("quiver.sparse"), oldThreshold = System.getProperty("quiver.sparse.threshold");
        System.setProperty("quiver.sparse", mode);
        System.setProperty("quiver.sparse.threshold", threshold);
        try {
            return World.create(dir);
        } finally {
            restore("quiver.sparse", oldMode);
            restore("quiver.sparse.threshold", oldThreshold);
        }
    }

    private static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }

    @Test
    void everyQueryAnswersTheSameInBothStorageKinds() {
        long seed = Long.getLong("quiver.seed", System.nanoTime() % 100000);
        System.out.println("SparseStorageQueryTest seed " + seed + " (-Dquiver.seed=" + seed + ")");
        try (World dense = create(tmp.resolve("dense"), "never", "32"); World sparse = World.create(tmp.resolve("sparse"))) {
            long r = build(dense, false, seed)[0];
            build(sparse, true, seed);
            assertTrue(!dense.tableAccess().sparse().isSparse(Ids.index(r)) && sparse.tableAccess().sparse().isSparse(Ids.index(r)));
            assertEquals(List.of(), sparse.check());
            for (String text : QUERIES) {
                Query d = Query.parse(dense, text), s = Query.parse(sparse, text);
                List<String> want = rows(d);
                assertEquals(want, rows(s), "seed " + seed + ": " + text);
                assertEquals(want, cached(sparse, text), "seed " + seed + ", cached: " + text);
                assertEquals(thisOf(d), tableByTable(s), "seed " + seed + ", table by table: " + text);
                assertEquals(rowKeys(d), stepKeys(s), "seed " + seed + ", table by table with ids: " + text);
                IterationCheck.check(s);
            }
        }
    }

    @Test
    void aPlannedQueryFollowsTheAutomaticSwitch() {
        try (World w = create(tmp.resolve("auto"), "auto", "6")) {
            long r = w.entity("R"), tag = w.entity("Tag");
            long[] e = new long[20];
            for (int i = 0; i < e.length; i++) {
                e[i] = w.entity("n" + i);
            }
            w.add(e[1], Ids.pair(r, e[2]));
            w.add(e[2], Ids.pair(r, e[3]));
            w.add(e[3], tag);
            var planned = new ArrayList<Query>();
            for (String text : QUERIES) {
                if (!text.contains("(S,") && !text.contains("(T,") && !text.contains("(U,") && !text.contains("T(") && !text.contains("up")) {
                    planned.add(Query.parse(w, text));
                }
            }
            assertTrue(!w.tableAccess().sparse().isSparse(Ids.index(r)));
            for (int i = 4; i < e.length; i++) {
                w.add(e[i], Ids.pair(r, e[i - 1]));
            }
            assertTrue(w.tableAccess().sparse().isSparse(Ids.index(r)), "switched past 6 tables");
            assertEquals(List.of(), w.check());
            for (Query q : planned) {
                assertEquals(rows(Query.parse(w, q.text())), rows(q), q.text());
            }
        }
    }
}
