package dev.quiver.query;

import dev.quiver.index.Ids;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Randomized check of the engine against a naive model: random graphs of a transitive relationship
 * R (with cycles, diamonds, several targets, optionally Reflexive) and tags T and U; for a set of
 * query shapes, the engine's distinct ($this, variables) answers and its count must equal a
 * brute-force evaluation over every entity with a BFS closure. The seed is in the test name.
 */
class ModelTest extends QueryTestSupport {
    private static final int N = 40;

    private final List<Long> ents = new ArrayList<>();
    private final Map<Long, List<Long>> out = new HashMap<>();
    private final Set<Long> tagT = new LinkedHashSet<>();
    private final Set<Long> tagU = new LinkedHashSet<>();
    private boolean reflexiveR;

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void engineAgreesWithNaiveModel(long seed) {
        Random rnd = new Random(seed);
        reflexiveR = seed % 2 == 0;
        long r = e("R");
        transitive("R");
        if (reflexiveR) {
            reflexive("R");
        }
        long t = e("T"), u = e("U");
        for (int i = 0; i < N; i++) {
            ents.add(e("n" + i));
        }
        for (long x : ents) {
            List<Long> targets = new ArrayList<>();
            int k = rnd.nextInt(10) < 3 ? 0 : 1 + rnd.nextInt(rnd.nextInt(10) < 2 ? 3 : 1);
            for (int j = 0; j < k; j++) {
                long y = ents.get(rnd.nextInt(N));
                if (y != x && !targets.contains(y)) {
                    targets.add(y);
                    w.add(x, Ids.pair(r, y));
                }
            }
            out.put(x, targets);
            if (rnd.nextBoolean()) {
                w.add(x, t);
                tagT.add(x);
            }
            if (rnd.nextInt(3) == 0) {
                w.add(x, u);
                tagU.add(x);
            }
        }
        String msg = "seed " + seed + (reflexiveR ? " (reflexive)" : "");
        for (int probe = 0; probe < 4; probe++) {
            long s = ents.get(rnd.nextInt(N)), tt = ents.get(rnd.nextInt(N));
            String sn = w.name(s), tn = w.name(tt);
            check(msg, "(R, " + tn + ")", model(x -> reach(x, tt) ? List.of(List.of(x)) : List.of()));
            check(msg, "R(" + sn + ", $x)", rowsNoThis(up(s, true)));
            check(msg, "R(" + sn + ", " + tn + ")", reach(s, tt) ? List.of(List.of()) : List.of());
            check(msg, "T, !(R, " + tn + ")", model(x -> tagT.contains(x) && !reach(x, tt) ? List.of(List.of(x)) : List.of()));
            check(msg, "?T, (R, " + tn + ")", model(x -> reach(x, tt) ? List.of(List.of(x)) : List.of()));
            check(msg, "R($a, " + tn + ")", model(x -> reach(x, tt) ? List.of(List.of(x)) : List.of()));
            check(msg, "$this == " + sn + ", (R, $x)", pairs(s, up(s, true)));
            check(msg, "U, (R, " + tn + "|self)", model(x -> tagU.contains(x) && out.get(x).contains(tt)
                ? List.of(List.of(x)) : List.of()));
        }
        // (R, $x) with $this unbound: self rows only for entities with an R pair (NOTES K4)
        check(msg, "(R, $x)", model(x -> pairs(x, up(x, !out.get(x).isEmpty()))));
        check(msg, "T, (R, $x)", model(x -> tagT.contains(x) ? pairs(x, up(x, true)) : List.of()));
        check(msg, "(R, $x), U($x)", model(x -> pairs(x, filter(up(x, !out.get(x).isEmpty()), tagU))));
        check(msg, "R($a, $b)", model(x -> pairs(x, up(x, !out.get(x).isEmpty()))));
        check(msg, "U, (R, $x), !T($x)", model(x -> tagU.contains(x) ? pairs(x, minus(up(x, true), tagT)) : List.of()));
        check(msg, "(R, *|self)", model(x -> {
            List<List<Long>> l = new ArrayList<>();
            for (long y : out.get(x)) {
                l.add(List.of(x));
            }
            return l;
        }));
        check(msg, "(R, _)", model(x -> out.get(x).isEmpty() ? List.of() : List.of(List.of(x))));
        check(msg, "T || U, (R, $x)", model(x -> tagT.contains(x) || tagU.contains(x) ? pairs(x, up(x, true)) : List.of()));
        check(msg, "U, !{ (R, $y), T($y) }", model(x -> tagU.contains(x) && filter(up(x, true), tagT).isEmpty()
            ? List.of(List.of(x)) : List.of()));
    }

    private interface RowsOf {
        List<List<Long>> rows(long x);
    }

    private List<List<Long>> model(RowsOf f) {
        List<List<Long>> l = new ArrayList<>();
        for (long x : ents) {
            l.addAll(f.rows(x));
        }
        return l;
    }

    private static List<List<Long>> pairs(long x, Set<Long> ys) {
        List<List<Long>> l = new ArrayList<>();
        for (long y : ys) {
            l.add(List.of(x, y));
        }
        return l;
    }

    private static List<List<Long>> rowsNoThis(Set<Long> ys) {
        List<List<Long>> l = new ArrayList<>();
        for (long y : ys) {
            l.add(List.of(y));
        }
        return l;
    }

    private static Set<Long> minus(Set<Long> s, Set<Long> drop) {
        Set<Long> r = new LinkedHashSet<>(s);
        r.removeAll(drop);
        return r;
    }

    private static Set<Long> filter(Set<Long> s, Set<Long> keep) {
        Set<Long> r = new LinkedHashSet<>(s);
        r.retainAll(keep);
        return r;
    }

    /** Entities reachable from x over one or more edges, plus x itself when reflexive (and asked). */
    private Set<Long> up(long x, boolean selfIfReflexive) {
        Set<Long> seen = new LinkedHashSet<>();
        if (reflexiveR && selfIfReflexive) {
            seen.add(x);
        }
        Set<Long> visited = new LinkedHashSet<>();
        ArrayDeque<Long> q = new ArrayDeque<>(out.get(x));
        while (!q.isEmpty()) {
            long y = q.poll();
            if (visited.add(y)) {
                seen.add(y);
                q.addAll(out.get(y));
            }
        }
        return seen;
    }

    private boolean reach(long s, long t) {
        return (reflexiveR && s == t) || up(s, false).contains(t);
    }

    private void check(String msg, String query, List<List<Long>> expected) {
        Query q = Query.parse(w, query);
        TreeSet<String> want = new TreeSet<>();
        for (List<Long> row : expected) {
            want.add(row.toString());
        }
        TreeSet<String> got = new TreeSet<>();
        List<QueryRow> rows = q.rows(-1);
        for (QueryRow row : rows) {
            List<Long> key = new ArrayList<>();
            if (q.hasThis()) {
                key.add(row.thisEntity());
            }
            for (long v : row.variables()) {
                key.add(v);
            }
            got.add(key.toString());
        }
        assertEquals(want, got, msg + ": " + query);
        boolean distinctRows = !query.contains("*|self");
        if (distinctRows) {
            assertEquals(want.size(), rows.size(), msg + ": duplicate rows for " + query);
        }
        assertEquals(rows.size(), q.count(), msg + ": count of " + query);
    }
}
