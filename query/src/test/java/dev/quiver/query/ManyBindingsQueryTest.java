package dev.quiver.query;

import dev.quiver.index.Ids;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.World;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Queries whose steps bind a variable to hundreds of entities that the engine looks up a chunk at
 * a time ({@code engine.Located}): a pair with a variable target followed by terms on that target
 * ({@code (Likes, $y), Pos($y)}, the RG-1 join) and a transitive walk to a fixed target handing out
 * its sources ({@code (Dep, t)}, the RG-1 trans and Debian queries). Each is compared with a brute
 * force answer computed from the pairs the test added, in both storage kinds (fragmenting and
 * DontFragment), with more results than one chunk, holders of several targets, Prefab entities
 * (never matched through a variable source, QS-47), deleted entities, and entities spread over many
 * tables. A wrong table, row or entity bound to a located variable changes a row here. Reproduce
 * with {@code -Dquiver.seed=N}.
 */
class ManyBindingsQueryTest {
    @TempDir
    Path tmp;

    private static final int N = 1500;

    /** The pairs and tags the test added, by entity index in the build order. */
    private static final class Model {
        final List<long[]> likes = new ArrayList<>();
        final List<long[]> deps = new ArrayList<>();
        long[] e;
        final Set<Long> pos = new HashSet<>();
        final Set<Long> prefab = new HashSet<>();
        final Set<Long> dead = new HashSet<>();
        long likesRel, depRel, posTag;

        List<Long> targets(List<long[]> pairs, long src) {
            List<Long> out = new ArrayList<>();
            for (long[] p : pairs) {
                if (p[0] == src && !dead.contains(p[1])) {
                    out.add(p[1]);
                }
            }
            return out;
        }
    }

    private static Model build(World w, boolean sparse, long seed) {
        Model m = new Model();
        w.transaction(x -> {
            m.likesRel = x.entity("Likes");
            m.depRel = x.entity("Dep");
            m.posTag = x.entity("Pos");
            x.add(m.depRel, Builtin.TRANSITIVE);
            if (sparse) {
                x.add(m.likesRel, Builtin.DONT_FRAGMENT);
                x.add(m.depRel, Builtin.DONT_FRAGMENT);
            }
            long[] tags = new long[8];
            for (int i = 0; i < tags.length; i++) {
                tags[i] = x.entity("T" + i);
            }
            Random rnd = new Random(seed);
            m.e = new long[N];
            for (int i = 0; i < N; i++) {
                m.e[i] = x.entity("n" + i);
            }
            for (int i = 0; i < N; i++) {
                long e = m.e[i];
                if (rnd.nextInt(3) != 0) {
                    x.add(e, m.posTag);
                    m.pos.add(e);
                }
                if (rnd.nextInt(4) == 0) { // many tables: short runs of rows
                    x.add(e, tags[rnd.nextInt(tags.length)]);
                }
                if (rnd.nextInt(40) == 0) {
                    x.add(e, Builtin.PREFAB);
                    m.prefab.add(e);
                }
                if (rnd.nextInt(2) == 0) {
                    for (int k = rnd.nextInt(6) == 0 ? 3 : 1; k > 0; k--) {
                        long t = m.e[rnd.nextInt(N)];
                        if (!x.has(e, Ids.pair(m.likesRel, t))) {
                            x.add(e, Ids.pair(m.likesRel, t));
                            m.likes.add(new long[] {e, t});
                        }
                    }
                }
                // a tree below n0 (siblings often in runs of rows), some extra edges making cycles
                long parent = i == 0 ? 0 : m.e[rnd.nextInt(Math.max(1, i / 3))];
                if (parent != 0) {
                    x.add(e, Ids.pair(m.depRel, parent));
                    m.deps.add(new long[] {e, parent});
                }
                if (rnd.nextInt(15) == 0) {
                    long t = m.e[rnd.nextInt(N)];
                    if (!x.has(e, Ids.pair(m.depRel, t))) {
                        x.add(e, Ids.pair(m.depRel, t));
                        m.deps.add(new long[] {e, t});
                    }
                }
            }
        });
        for (int i = 0; i < 12; i++) { // deleted: their pairs (as source or target) are gone
            long e = m.e[11 + i * 97];
            w.delete(e);
            m.dead.add(e);
        }
        return m;
    }

    /** A world whose relationships switch to sparse storage only when declared DontFragment (dense: never). */
    /** A world whose pairs are stored sparse past the threshold (the default) or never sparse. */
    private static World create(Path dir, boolean sparse) {
        return SparseChildOfQueryTest.create(dir, sparse ? "auto" : "never");
    }

    private static boolean alive(Model m, long e) {
        return !m.dead.contains(e);
    }

    private static List<String> rows(Query q) {
        List<String> out = new ArrayList<>();
        for (QueryRow r : q.rows(-1)) {
            out.add(IterationCheck.key(r));
        }
        Collections.sort(out);
        assertEquals(out.size(), q.count(), "count() of " + q.text());
        return out;
    }

    private static String key(long self, long[] vars, long... fields) {
        StringBuilder sb = new StringBuilder().append(self).append(' ').append(java.util.Arrays.toString(vars));
        for (int f = 0; f < fields.length; f += 2) {
            sb.append(' ').append(fields[f] + "@" + fields[f + 1]);
        }
        return sb.toString();
    }

    /** The expected rows of the join queries, from the model. */
    private static Map<String, List<String>> joins(Model m) {
        Map<String, List<String>> want = new TreeMap<>();
        List<String> pos = new ArrayList<>(), notPos = new ArrayList<>(), chain = new ArrayList<>();
        for (long e : m.e) {
            if (!alive(m, e) || m.prefab.contains(e)) {
                continue;
            }
            for (long y : m.targets(m.likes, e)) {
                long pair = Ids.pair(m.likesRel, y);
                boolean matches = m.pos.contains(y) && !m.prefab.contains(y);
                if (matches) {
                    pos.add(key(e, new long[] {y}, pair, e, m.posTag, y));
                    for (long z : m.targets(m.likes, y)) {
                        chain.add(key(e, new long[] {y, z}, pair, e, m.posTag, y, Ids.pair(m.likesRel, z), y));
                    }
                } else {
                    notPos.add(key(e, new long[] {y}, pair, e) + " -");
                }
            }
        }
        want.put("(Likes, $y), Pos($y)", pos);
        want.put("(Likes, $y), !Pos($y)", notPos);
        want.put("(Likes, $y), Pos($y), Likes($y, $z)", chain);
        for (List<String> l : want.values()) {
            Collections.sort(l);
        }
        return want;
    }

    @Test
    void aTargetVariableBoundForManyRowsFindsEachTargetsOwnTable() {
        long seed = Long.getLong("quiver.seed", System.nanoTime() % 100000);
        System.out.println("ManyBindingsQueryTest seed " + seed + " (-Dquiver.seed=" + seed + ")");
        for (boolean sparse : new boolean[] {true, false}) {
            try (World w = create(tmp.resolve(sparse ? "sparse" : "dense"), sparse)) {
                Model m = build(w, sparse, seed);
                assertEquals(sparse, w.tableAccess().sparse().isSparse(Ids.index(m.likesRel)));
                assertEquals(sparse, w.tableAccess().sparse().isSparse(Ids.index(m.depRel)));
                Map<String, List<String>> want = joins(m);
                assertTrue(want.get("(Likes, $y), Pos($y)").size() > 300, "more rows than one chunk");
                for (var en : want.entrySet()) {
                    Query q = Query.parse(w, en.getKey());
                    assertEquals(en.getValue(), rows(q), "seed " + seed + (sparse ? ", sparse: " : ", dense: ") + en.getKey());
                    IterationCheck.check(q);
                }
            }
        }
    }

    /** The sources from which {@code t} is reachable over one or more Dep pairs, by brute force. */
    private static Set<Long> reaching(Model m, long t) {
        Set<Long> out = new TreeSet<>();
        ArrayDeque<Long> queue = new ArrayDeque<>(List.of(t));
        while (!queue.isEmpty()) {
            long x = queue.poll();
            for (long[] p : m.deps) {
                if (p[1] == x && alive(m, p[0]) && out.add(p[0])) {
                    queue.add(p[0]);
                }
            }
        }
        return out;
    }

    @Test
    void aTransitiveWalkHandsOutEverySourceOnceWithItsOwnRow() {
        long seed = Long.getLong("quiver.seed", System.nanoTime() % 100000);
        System.out.println("ManyBindingsQueryTest seed " + seed + " (-Dquiver.seed=" + seed + ")");
        for (boolean sparse : new boolean[] {true, false}) {
            try (World w = create(tmp.resolve(sparse ? "sparse" : "dense"), sparse)) {
                Model m = build(w, sparse, seed);
                for (int k = 0; k < 4; k++) {
                    long t = m.e[k];
                    Set<Long> from = reaching(m, t);
                    List<String> plain = new ArrayList<>(), tagged = new ArrayList<>();
                    for (long e : from) {
                        if (!m.prefab.contains(e)) {
                            plain.add(key(e, new long[0], Ids.pair(m.depRel, t), e));
                            if (m.pos.contains(e)) {
                                tagged.add(key(e, new long[0], Ids.pair(m.depRel, t), e, m.posTag, e));
                            }
                        }
                    }
                    Collections.sort(plain);
                    Collections.sort(tagged);
                    assertTrue(k > 0 || plain.size() > 300, "more sources than one chunk");
                    String what = "seed " + seed + (sparse ? ", sparse: " : ", dense: ");
                    Query q = Query.parse(w, "(Dep, n" + k + ")");
                    assertEquals(plain, rows(q), what + q.text());
                    IterationCheck.check(q);
                    Query qt = Query.parse(w, "(Dep, n" + k + "), Pos");
                    assertEquals(tagged, rows(qt), what + qt.text());
                    IterationCheck.check(qt);
                }
            }
        }
    }

    /**
     * {@code (Dep, $x)} over a DontFragment Dep whose marker table has more rows than the engine
     * reads first targets for at once (4096): runs of siblings sharing a target cross the slices'
     * borders and must come out whole, every (source, ancestor) once.
     */
    @Test
    void aTransitiveVariableTargetOverALargeMarkerTableKeepsEveryRow() {
        int n = 9_000;
        try (World w = World.create(tmp.resolve("large"))) {
            long[] e = new long[n];
            long[] dep = new long[1];
            w.transaction(x -> {
                dep[0] = x.entity("Dep");
                x.add(dep[0], Builtin.TRANSITIVE);
                x.add(dep[0], Builtin.DONT_FRAGMENT);
                for (int i = 0; i < n; i++) {
                    e[i] = x.entity("n" + i);
                    if (i > 0) {
                        x.add(e[i], Ids.pair(dep[0], e[(i - 1) / 10])); // ten siblings in consecutive rows
                    }
                }
            });
            List<String> want = new ArrayList<>();
            for (int i = 1; i < n; i++) {
                for (int a = (i - 1) / 10; ; a = (a - 1) / 10) {
                    want.add(key(e[i], new long[] {e[a]}, Ids.pair(dep[0], e[a]), e[i]));
                    if (a == 0) {
                        break;
                    }
                }
            }
            Collections.sort(want);
            Query q = Query.parse(w, "(Dep, $x)");
            assertEquals(want, rows(q));
            long[] seen = {0};
            q.forEachTable(t -> {
                seen[0] += t.count();
                return true;
            });
            assertEquals(want.size(), seen[0]);
        }
    }
}
