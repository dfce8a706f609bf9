package dev.quiver.query;

import dev.quiver.index.Ids;
import dev.quiver.query.cache.CachedQuery;
import dev.quiver.storage.World;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The randomized model test of the query engine (issue 10, "Proofs"): random worlds built through
 * the public World API ({@link ModelWorld}) and random queries of the whole language supported
 * today ({@link ModelQuery}), each answered by the engine and by the brute-force evaluator
 * {@link BruteForce}; the result multisets must be equal: {@code $this}, every variable, and per
 * field whether it is set, its source and (except for transitive terms, NOTES K1) its id. Beside
 * that, for every query: {@link Query#count()} equals the number of rows, two runs give the same
 * rows in the same order (QS-48), and {@code rows(k)} is a prefix of all rows; the same query built
 * through {@link dev.quiver.query.builder.QueryBuilder} ({@link ModelQuery#builder()}) has the same
 * canonical text and the same rows in the same order; and, with {@code $this}, the same query
 * cached ({@link CachedQuery}) gives the same rows as a multiset, and with {@code $this} set
 * before evaluation to one entity the rows of that entity ({@link #thisPreset}). A few cached queries per world
 * are kept open while the world changes ({@link ModelWorld#mutate}, {@value #MUTATIONS} times):
 * after each change they must give the rows of the uncached query, which is checked against the
 * model again. The language covered includes the *From operators and member-value terms.
 *
 * <p>World i uses seed {@code S + i}; S is printed and read from {@code -Dquiver.seed=S}, the
 * number of worlds from {@code -Dquiver.modelIterations=N} (default 30, about 30 s on a busy 2-core machine;
 * raise it to run long). A failure names the world seed, the query and a minimal failing query
 * (items dropped while the disagreement stays). Queries the engine refuses with
 * {@link UnsupportedQueryException} are skipped and counted by reason (today only a query scope
 * written as the first term; an Inherit id with IsA subsets in use is answered since issue 9's
 * leftovers); they must stay a minority.
 */
class WholeLanguageModelTest {
    private static final int QUERIES_PER_WORLD = 120;
    /** Cached queries kept per world, and the changes of the world each is run after. */
    private static final int KEPT = 6, MUTATIONS = 4;
    private static final String REFUSED = "engine refused the query: ";

    @TempDir
    Path dir;

    @Test
    void engineAgreesWithBruteForce() {
        long seed = Long.getLong("quiver.seed", new Random().nextInt(1_000_000));
        int worlds = Integer.getInteger("quiver.modelIterations", 30);
        System.out.println("WholeLanguageModelTest: -Dquiver.seed=" + seed + " -Dquiver.modelIterations=" + worlds);
        List<String> failures = new ArrayList<>();
        int checked = 0, refused = 0, nonEmpty = 0;
        java.util.Map<String, Integer> refusals = new java.util.TreeMap<>();
        for (int i = 0; i < worlds; i++) {
            long worldSeed = seed + i;
            Random rnd = new Random(worldSeed);
            List<ModelQuery> kept = new ArrayList<>();
            List<CachedQuery> keptCached = new ArrayList<>();
            try (World w = World.create(dir.resolve("w" + i))) {
                ModelWorld mw = new ModelWorld(w, rnd);
                for (int k = 0; k < QUERIES_PER_WORLD + MUTATIONS * KEPT; k++) {
                    ModelQuery q;
                    String when = "";
                    if (k < QUERIES_PER_WORLD) {
                        q = ModelQuery.random(mw, rnd);
                    } else { // after a change of the world: the kept cached queries again
                        int j = (k - QUERIES_PER_WORLD) % KEPT;
                        if (j == 0) {
                            mw.mutate(rnd);
                        }
                        if (j >= kept.size()) {
                            continue;
                        }
                        q = kept.get(j);
                        when = " (kept cached query after " + (1 + (k - QUERIES_PER_WORLD) / KEPT) + " changes)";
                        String stale = staleness(keptCached.get(j), w, q.text());
                        if (stale != null) {
                            failures.add("world seed " + worldSeed + ": cached query " + q.text() + when + ": " + stale);
                            continue;
                        }
                    }
                    if (Boolean.getBoolean("quiver.modelShow")) {
                        System.out.println("query: " + q.text());
                    }
                    String problem;
                    try {
                        problem = check(mw, q);
                    } catch (UnsupportedQueryException e) {
                        refused++;
                        refusals.merge(e.getMessage().replaceAll("'[^']*'", "'...'").replaceAll("\\(.*", ""), 1,
                            Integer::sum);
                        continue;
                    }
                    checked++;
                    if (problem == null && k < QUERIES_PER_WORLD && kept.size() < KEPT && rnd.nextInt(8) == 0) {
                        try {
                            keptCached.add(CachedQuery.parse(w, q.text()));
                            kept.add(q);
                        } catch (dev.quiver.error.BadInputException e) {
                            // a query without $this or refused as cached: not kept
                        }
                    }
                    if (problem == null) {
                        if (!new BruteForce(mw, q).evaluate().isEmpty()) {
                            nonEmpty++;
                        }
                        continue;
                    }
                    String minimal = failures.size() < 20 ? minimize(mw, q) : "(not minimized)";
                    String f = "world seed " + worldSeed + " (-Dquiver.seed=" + worldSeed
                        + " -Dquiver.modelIterations=1), query #" + k + when + ": " + q.text() + "\n  minimal: " + minimal
                        + "\n  " + problem;
                    System.out.println("DISAGREEMENT " + f);
                    if (Boolean.getBoolean("quiver.modelDump")) {
                        System.out.print(mw.dump());
                    }
                    failures.add(f);
                }
            } finally {
                keptCached.forEach(CachedQuery::close);
            }
        }
        System.out.println("WholeLanguageModelTest: " + checked + " queries checked (" + nonEmpty + " with results), "
            + refused + " refused as unsupported " + refusals + ", " + failures.size() + " disagreements");
        if (!failures.isEmpty()) {
            fail(failures.size() + " disagreements; first:\n" + String.join("\n", failures.subList(0, Math.min(5, failures.size()))));
        }
        assertTrue(refused * 4 < checked, "too many queries refused as unsupported: " + refused + " of " + (checked + refused));
        assertTrue(nonEmpty * 4 > checked, "too few queries with results: " + nonEmpty + " of " + checked);
    }

    /** Drops items while the disagreement stays; the smallest failing query's text and problem. */
    private static String minimize(ModelWorld mw, ModelQuery q) {
        ModelQuery cur = q;
        boolean shrunk = true;
        while (shrunk && cur.items.size() > 1) {
            shrunk = false;
            for (int i = 0; i < cur.items.size(); i++) {
                ModelQuery smaller = new ModelQuery(mw);
                smaller.items.addAll(cur.items);
                smaller.items.remove(i);
                String p;
                try {
                    p = check(mw, smaller);
                } catch (RuntimeException e) {
                    continue;
                }
                if (p != null && !p.startsWith(REFUSED)) { // a refusal: not a valid query on its own
                    cur = smaller;
                    shrunk = true;
                    break;
                }
            }
        }
        String p;
        try {
            p = check(mw, cur);
        } catch (RuntimeException e) {
            p = e.toString();
        }
        return cur.text() + "\n    " + p;
    }

    /**
     * Runs the query on the engine and on the model.
     *
     * @return null when they agree, else a description of the difference
     * @throws UnsupportedQueryException when the engine refuses the query as unsupported
     */
    static String check(ModelWorld mw, ModelQuery mq) {
        String text = mq.text();
        Query q;
        List<QueryRow> rows;
        try {
            q = Query.parse(mw.w, text);
            rows = q.rows(-1);
        } catch (UnsupportedQueryException e) {
            throw e;
        } catch (dev.quiver.error.BadInputException e) {
            return REFUSED + e;
        } catch (RuntimeException e) {
            java.io.StringWriter sw = new java.io.StringWriter();
            e.printStackTrace(new java.io.PrintWriter(sw));
            String[] lines = sw.toString().split("\n");
            return "engine threw " + String.join("\n    ", java.util.Arrays.copyOf(lines, Math.min(6, lines.length)));
        }
        BruteForce model = new BruteForce(mw, mq);
        List<BruteForce.Row> expected;
        try {
            expected = model.evaluate();
        } catch (RuntimeException e) {
            return "model threw " + e;
        }
        if (q.fieldCount() != model.fieldCount()) {
            return "field count " + q.fieldCount() + ", model " + model.fieldCount();
        }
        boolean[] idKnown = new boolean[model.fieldCount()];
        java.util.Arrays.fill(idKnown, true);
        for (BruteForce.Row r : expected) {
            for (int f = 0; f < idKnown.length; f++) {
                if (r.fields()[f] != null && r.fields()[f].set() && r.fields()[f].id() == BruteForce.UNKNOWN) {
                    idKnown[f] = false;
                }
            }
        }
        List<String> want = new ArrayList<>();
        for (BruteForce.Row r : expected) {
            long[] vars = new long[q.variableNames().size()];
            for (int i = 0; i < vars.length; i++) {
                vars[i] = r.vars().getOrDefault(q.variableNames().get(i), 0L);
            }
            long self = q.hasThis() ? r.vars().getOrDefault("this", 0L) : 0;
            BruteForce.Field[] fs = r.fields();
            boolean[] set = new boolean[fs.length];
            long[] ids = new long[fs.length], srcs = new long[fs.length];
            for (int f = 0; f < fs.length; f++) {
                set[f] = fs[f] != null && fs[f].set();
                ids[f] = set[f] ? fs[f].id() : 0;
                srcs[f] = set[f] ? fs[f].src() : 0;
            }
            want.add(key(mw, q, self, vars, set, ids, srcs, idKnown));
        }
        List<String> got = new ArrayList<>();
        for (QueryRow r : rows) {
            int n = r.fieldCount();
            boolean[] set = new boolean[n];
            long[] ids = new long[n], srcs = new long[n];
            for (int f = 0; f < n; f++) {
                set[f] = r.fieldSet(f);
                ids[f] = set[f] ? r.fieldId(f) : 0;
                srcs[f] = set[f] ? r.fieldSource(f) : 0;
            }
            got.add(key(mw, q, q.hasThis() ? r.thisEntity() : 0, r.variables(), set, ids, srcs, idKnown));
        }
        String diff = multisetDiff(want, got);
        if (diff != null) {
            return diff;
        }
        if (q.count() != rows.size()) {
            return "count() " + q.count() + " but " + rows.size() + " rows";
        }
        if (!rows.equals(q.rows(-1))) {
            return "a second run gave other rows or another order (QS-48)";
        }
        int k = rows.size() / 2;
        if (!q.rows(k).equals(rows.subList(0, k))) {
            return "rows(" + k + ") is not a prefix of the rows";
        }
        // the same query through the builder: the same canonical text and the same rows, in order
        try {
            Query built = mq.builder().build(mw.w);
            if (!built.canonicalText().equals(q.canonicalText())) {
                return "the builder's query reads '" + built.canonicalText() + "', the text's '" + q.canonicalText() + "'";
            }
            if (!built.rows(-1).equals(rows)) {
                return "the builder's query gave other rows: " + sameRows(built.rows(-1), rows);
            }
        } catch (RuntimeException e) {
            return "the builder threw " + e;
        }
        // the same query cached: the same rows as a multiset
        if (q.hasThis()) {
            try (CachedQuery cq = CachedQuery.parse(mw.w, text)) {
                String d = sameRows(cq.rows(-1), rows);
                if (d != null) {
                    return "cached: " + d;
                }
                if (cq.count() != rows.size()) {
                    return "cached count() " + cq.count() + " but " + rows.size() + " rows";
                }
            } catch (RuntimeException e) {
                return "the cached query threw " + e;
            }
            String preset = thisPreset(mw, q, rows);
            if (preset != null) {
                return preset;
            }
        }
        return null;
    }

    /**
     * {@code $this} set before evaluation ({@link Query#set} with {@code "this"}): for some
     * {@code $this} of the rows and some other entities (builtins, prefabs and disabled ones
     * among them, picked from the query text's hash), the set query's rows are exactly the rows
     * whose {@code $this} is that entity, as a multiset; its count agrees, its table-at-a-time
     * iteration hands out one row per step, and the cached query set the same way agrees.
     */
    private static String thisPreset(ModelWorld mw, Query q, List<QueryRow> rows) {
        java.util.LinkedHashSet<Long> picks = new java.util.LinkedHashSet<>();
        for (QueryRow r : rows) {
            if (picks.size() >= 3) {
                break;
            }
            picks.add(r.thisEntity());
        }
        int h = q.text().hashCode() & 0x7fffffff;
        List<Long> others = new ArrayList<>(mw.all);
        others.addAll(mw.kits);
        for (int i = 0; i < 3 && !others.isEmpty(); i++) {
            picks.add(others.get(Math.floorMod(h + i * 7919, others.size()))); // h + i * 7919 may overflow
        }
        for (long e : picks) {
            if (!mw.w.isAlive(e)) {
                continue;
            }
            String what = "with $this set to " + name(mw, e) + ": ";
            try {
                Query set = q.set("this", e);
                List<QueryRow> want = new ArrayList<>();
                for (QueryRow r : rows) {
                    if (r.thisEntity() == e) {
                        want.add(r);
                    }
                }
                List<QueryRow> got = set.rows(-1);
                String d = sameRows(got, want);
                if (d != null) {
                    return what + d;
                }
                if (set.count() != want.size()) {
                    return what + "count() " + set.count() + " but " + want.size() + " rows";
                }
                long[] steps = new long[2];
                set.forEachTable(t -> {
                    steps[0]++;
                    steps[1] += t.count() == 1 && t.entity(0) == e ? 1 : 1_000_000;
                    return true;
                });
                if (steps[0] != want.size() || steps[1] != want.size()) {
                    return what + "forEachTable gave " + steps[0] + " steps, not one row of $this each, for "
                        + want.size() + " rows";
                }
                try (CachedQuery unset = CachedQuery.parse(mw.w, q.text()); CachedQuery cq = unset.set("this", e)) {
                    d = sameRows(cq.rows(-1), want);
                    if (d != null) {
                        return what + "cached: " + d;
                    }
                }
            } catch (RuntimeException ex) {
                return what + "threw " + ex;
            }
        }
        return null;
    }

    /**
     * Null when a kept cached query gives the rows of the query planned now, else what differs. A
     * query refused now (its *From E lost its ids, so nothing binds a variable any more) must be
     * refused cached too, with the same exception class.
     */
    private static String staleness(CachedQuery cq, World w, String text) {
        List<QueryRow> now;
        try {
            now = Query.parse(w, text).rows(-1);
        } catch (dev.quiver.error.BadInputException e) {
            try {
                cq.rows(-1);
                return "refused uncached (" + e + ") but not cached";
            } catch (dev.quiver.error.BadInputException c) {
                return c.getClass() == e.getClass() ? null : "refused uncached by " + e + ", cached by " + c;
            }
        }
        return sameRows(cq.rows(-1), now);
    }

    /** Null when the two row lists are equal as multisets, else what differs. */
    static String sameRows(List<QueryRow> got, List<QueryRow> want) {
        Map<QueryRow, Integer> c = new HashMap<>();
        want.forEach(r -> c.merge(r, 1, Integer::sum));
        got.forEach(r -> c.merge(r, -1, Integer::sum));
        List<String> diff = new ArrayList<>();
        c.forEach((r, n) -> {
            if (n != 0) {
                diff.add((n > 0 ? "missing " : "extra ") + r);
            }
        });
        return diff.isEmpty() ? null : got.size() + " rows against " + want.size() + ": "
            + diff.subList(0, Math.min(6, diff.size()));
    }

    private static String key(ModelWorld mw, Query q, long self, long[] vars, boolean[] set, long[] ids, long[] srcs,
                              boolean[] idKnown) {
        StringBuilder sb = new StringBuilder();
        sb.append(q.hasThis() ? name(mw, self) : "-").append(" |");
        for (int i = 0; i < vars.length; i++) {
            sb.append(" $").append(q.variableNames().get(i)).append('=').append(vars[i] == 0 ? "*" : name(mw, vars[i]));
        }
        sb.append(" |");
        for (int f = 0; f < set.length; f++) {
            sb.append(' ');
            if (!set[f]) {
                sb.append('-');
                continue;
            }
            sb.append(idKnown[f] ? idName(mw, ids[f]) : "?").append('@').append(srcs[f] == Ids.WILDCARD ? "*" : name(mw, srcs[f]));
        }
        return sb.toString();
    }

    private static String idName(ModelWorld mw, long id) {
        try {
            return mw.w.idToString(id);
        } catch (RuntimeException e) {
            return Ids.toHex(id);
        }
    }

    private static String name(ModelWorld mw, long e) {
        return e == 0 ? "0" : mw.w.isAlive(e) ? mw.path(e) : Ids.toHex(e);
    }

    /** Null when equal as multisets, else the rows missing from the engine and the extra ones. */
    private static String multisetDiff(List<String> want, List<String> got) {
        Map<String, Integer> c = new HashMap<>();
        for (String s : want) {
            c.merge(s, 1, Integer::sum);
        }
        for (String s : got) {
            c.merge(s, -1, Integer::sum);
        }
        List<String> missing = new ArrayList<>(), extra = new ArrayList<>();
        for (Map.Entry<String, Integer> e : c.entrySet()) {
            for (int i = 0; i < Math.abs(e.getValue()); i++) {
                (e.getValue() > 0 ? missing : extra).add(e.getKey());
            }
        }
        if (missing.isEmpty() && extra.isEmpty()) {
            return null;
        }
        Collections.sort(missing);
        Collections.sort(extra);
        return "engine " + got.size() + " rows, model " + want.size() + "; missing from the engine "
            + missing.subList(0, Math.min(6, missing.size())) + (missing.size() > 6 ? " ..." : "")
            + "; extra in the engine " + extra.subList(0, Math.min(6, extra.size())) + (extra.size() > 6 ? " ..." : "");
    }
}
