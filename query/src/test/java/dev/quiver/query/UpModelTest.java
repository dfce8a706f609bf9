package dev.quiver.query;

import dev.quiver.index.Ids;
import dev.quiver.storage.Builtin;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Randomized check of {@code up} / {@code self|up} traversal against a naive model: random graphs
 * of a Traversable relationship P (several targets, cycles, self loops) and of a Transitive Q
 * (acyclic), tags T and U; the engine's rows (with field sources) and count must equal a recursive
 * depth-first search written from the definition (Flecs v4 Queries manual: targets in type order,
 * the first target's chain to its root before the next, nearest owner reported). The seed is in
 * the test name; rerun one with {@code -Dtest=UpModelTest}.
 */
class UpModelTest extends QueryTestSupport {
    private static final int N = 40;

    private final List<Long> ents = new ArrayList<>();
    private final Map<Long, List<Long>> p = new HashMap<>();
    private final Map<Long, List<Long>> q = new HashMap<>();
    private final Set<Long> tagT = new HashSet<>();
    private final Set<Long> tagU = new HashSet<>();

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {11, 12, 13, 14, 15, 16, 17, 18})
    void engineAgreesWithNaiveModel(long seed) {
        Random rnd = new Random(seed);
        long relP = e("P"), relQ = e("Q");
        w.add(relP, Builtin.TRAVERSABLE);
        transitive("Q");
        long t = e("T"), u = e("U");
        for (int i = 0; i < N; i++) {
            ents.add(e("n" + i));
        }
        for (int i = 0; i < N; i++) {
            long x = ents.get(i);
            p.put(x, new ArrayList<>());
            q.put(x, new ArrayList<>());
            int k = rnd.nextInt(10) < 3 ? 0 : 1 + rnd.nextInt(rnd.nextInt(10) < 2 ? 3 : 1);
            for (int j = 0; j < k; j++) {
                long y = ents.get(rnd.nextInt(N)); // self loops and cycles allowed
                if (!p.get(x).contains(y)) {
                    p.get(x).add(y);
                    w.add(x, Ids.pair(relP, y));
                }
            }
            if (i > 0 && rnd.nextInt(3) > 0) {
                long y = ents.get(rnd.nextInt(i)); // Q is acyclic: targets have lower numbers
                q.get(x).add(y);
                w.add(x, Ids.pair(relQ, y));
            }
            if (rnd.nextInt(4) == 0) {
                w.add(x, t);
                tagT.add(x);
            }
            if (rnd.nextBoolean()) {
                w.add(x, u);
                tagU.add(x);
            }
        }
        String msg = "seed " + seed;
        List<String> up = new ArrayList<>(), selfUp = new ArrayList<>(), withU = new ArrayList<>();
        List<String> notU = new ArrayList<>(), optU = new ArrayList<>(), upQ = new ArrayList<>();
        for (long x : ents) {
            Long o = nearest(x, p);
            Long s = tagT.contains(x) ? Long.valueOf(x) : o;
            Long oq = nearest(x, q);
            if (o != null) {
                up.add(w.name(x) + " | - | T" + at(x, o));
            }
            if (s != null) {
                selfUp.add(w.name(x) + " | - | T" + at(x, s));
            }
            if (oq != null) {
                upQ.add(w.name(x) + " | - | T" + at(x, oq));
            }
            if (tagU.contains(x)) {
                if (o != null) {
                    withU.add(w.name(x) + " | - | U T" + at(x, o));
                } else {
                    notU.add(w.name(x) + " | - | U -");
                }
                optU.add(w.name(x) + " | - | U " + (o == null ? "-" : "T" + at(x, o)));
            }
        }
        check(msg, "T(up P)", up);
        check(msg, "T(self|up P)", selfUp);
        check(msg, "U, T(up P)", withU);
        check(msg, "U, !T(up P)", notU);
        check(msg, "U, ?T(up P)", optU);
        check(msg, "T(up Q)", upQ);
        for (int probe = 0; probe < 5; probe++) {
            long x = ents.get(rnd.nextInt(N));
            Long o = nearest(x, p);
            check(msg, "T(" + w.name(x) + "|up P)", o == null ? List.of() : List.of("- | - | T@" + w.name(o)));
        }
    }

    private String at(long x, long owner) {
        return owner == x ? "" : "@" + w.name(owner);
    }

    private void check(String msg, String query, List<String> expected) {
        List<String> exp = new ArrayList<>(expected);
        exp.sort(null);
        assertEquals(exp, rows(query), msg + ": " + query);
    }

    /** Recursive depth-first search from the definition; targets in type (entity index) order. */
    private Long nearest(long x, Map<Long, List<Long>> rel) {
        return dfs(x, rel, new HashSet<>());
    }

    private Long dfs(long a, Map<Long, List<Long>> rel, Set<Long> visited) {
        List<Long> targets = new ArrayList<>(rel.get(a));
        targets.sort(Comparator.comparingInt(Ids::index));
        for (long y : targets) {
            if (!visited.add(y)) {
                continue;
            }
            if (tagT.contains(y)) {
                return y;
            }
            Long r = dfs(y, rel, visited);
            if (r != null) {
                return r;
            }
        }
        return null;
    }
}
