package dev.quiver.query;

import dev.quiver.error.BadInputException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Parser and planner fuzzing (issue 10's proofs): at least 100,000 query strings in one run, generated
 * from the language's tokens and mutated from the conformance corpus's real queries, each parsed,
 * planned against a small world and, when it compiles, counted. The only exceptions allowed are the
 * documented query exceptions (bad input); no other exception, no stack overflow, no hang. Deep
 * nesting (parentheses, scopes, Or chains, long paths, chains of *From and member-value terms) is
 * tried on purpose. The tokens cover the whole language ({@code and | E}, {@code or | E},
 * {@code not | E}, {@code Comp.member(src, T)}); every 16th string that compiles is also built
 * through {@code QueryBuilder.expr} and, with {@code $this}, run as a cached query.
 *
 * <p>{@code -Dquiver.seed=N} reproduces a run (the seed is printed with every failure);
 * {@code -Dquiver.fuzz.count=N} sets the number of strings (default 100,000).
 */
class QueryFuzzTest extends QueryTestSupport {
    private static final String[] TOKENS = {
        "Likes", "Eats", "LocatedIn", "ChildOf", "IsA", "Position", "City", "Pet", "alice", "bob", "sf", "earth",
        "$x", "$y", "$this", "$", "$_a", "*", "_", "(", ")", ",", "||", "|", "!", "?", "{", "}", "!{", "==", "!=",
        "~=", "\"al\"", "up", "self", "cascade", "desc", "[in]", "[out]", "[inout]", "[none]", "and", "or", "not",
        ".", "::", " ", " ", " ", "0", "123", "#", "\t", "\n", "Likes(", "$x(", "($y, $x)", "(IsA, City)",
        // *From operators and member-value terms (issue 10's language)
        "and |", "or |", "not |", "AND | Kit", "or | Kit", "not | Kit", "Kit", "|", "Movement.value", "Movement.speed",
        "Movement.value($this, alice)", "Movement.value($x, *)", "Movement.value(bob, $y)", "Movement.value(", ".value",
        "Position.x"};

    private void world() {
        transitive("LocatedIn");
        with("sf", "(LocatedIn, california)", "City");
        with("california", "(LocatedIn, earth)");
        with("alice", "(Likes, bob)", "(Likes, sf)", "Pet");
        with("bob", "(Likes, alice)");
        with("Position");
        with("Eats");
        with("Kit", "Prefab", "Pet", "(Likes, bob)");
        long movement = w.component("Movement", dev.quiver.storage.Schema.of("speed", dev.quiver.storage.FieldType.F32,
            "value", dev.quiver.storage.FieldType.ENTITY));
        w.set(e("alice"), movement, java.util.Map.of("value", e("bob")));
        w.set(e("bob"), movement, java.util.Map.of("value", e("sf")));
    }

    private static List<String> corpus() throws IOException {
        String td = System.getProperty("quiver.testdata");
        List<String> out = new ArrayList<>(List.of("Likes($x, $y)", "(LocatedIn, $x), City", "!{ Likes($this, $y) }"));
        if (td == null) {
            return out;
        }
        try (Stream<Path> s = Files.list(Path.of(td, "conformance", "worlds"))) {
            for (Path p : s.filter(f -> f.toString().endsWith(".queries")).toList()) {
                for (String line : Files.readAllLines(p, StandardCharsets.UTF_8)) {
                    String q = line.strip();
                    if (!q.isEmpty() && !q.startsWith("#")) {
                        out.add(q);
                    }
                }
            }
        }
        return out;
    }

    private static String generate(Random rnd) {
        var sb = new StringBuilder();
        for (int n = 1 + rnd.nextInt(12); n > 0; n--) {
            sb.append(TOKENS[rnd.nextInt(TOKENS.length)]);
            if (rnd.nextInt(3) == 0) {
                sb.append(' ');
            }
        }
        return sb.toString();
    }

    private static String mutate(String q, Random rnd) {
        var sb = new StringBuilder(q);
        for (int n = 1 + rnd.nextInt(3); n > 0; n--) {
            int at = sb.length() == 0 ? 0 : rnd.nextInt(sb.length() + 1);
            switch (rnd.nextInt(4)) {
                case 0 -> sb.insert(at, TOKENS[rnd.nextInt(TOKENS.length)]);
                case 1 -> {
                    if (at < sb.length()) {
                        sb.deleteCharAt(at);
                    }
                }
                case 2 -> {
                    if (at < sb.length()) {
                        sb.setCharAt(at, (char) (32 + rnd.nextInt(95)));
                    }
                }
                default -> {
                    int end = Math.min(sb.length(), at + rnd.nextInt(8));
                    sb.insert(at, sb.substring(at, end)); // duplicate a slice
                }
            }
        }
        return sb.toString();
    }

    /** Deeply nested inputs: each must fail cleanly or compile, never overflow the stack. */
    private static List<String> deep() {
        int d = 20_000;
        return List.of("(".repeat(d) + "Likes" + ")".repeat(d), "!{ ".repeat(d) + "Likes($this, $y)" + " }".repeat(d),
            "Likes" + " || Likes".repeat(d), "Likes, ".repeat(d) + "Likes", "a.".repeat(d) + "b",
            "Likes(" + "$x, ".repeat(d) + "$y)", "!".repeat(d) + "Likes", "?".repeat(d) + "Likes",
            "Likes($x, $y), " + "$x != $y, ".repeat(2000) + "City", "\"" + "a".repeat(d) + "\"",
            "and | Kit, ".repeat(d) + "Pet", "not | ".repeat(d) + "Kit", "or | Kit || ".repeat(d) + "Pet",
            "Movement.value($this, $x), ".repeat(2000) + "Pet", "Movement.value(".repeat(d) + "$this, bob" + ")".repeat(d),
            "!{ and | Kit, ".repeat(d) + "Pet" + " }".repeat(d), "Movement" + ".value".repeat(d) + "($this, bob)");
    }

    /**
     * Parses, plans and (when it compiles) counts, every 16th query also cached and through the
     * builder's {@code expr}; returns what happened, or fails on anything undocumented.
     */
    private String attempt(String q, long seed, int i) {
        try {
            Query query = Query.parse(w, q);
            query.count();
            if (i % 16 == 0) {
                Query.of(w, new dev.quiver.query.builder.QueryBuilder().expr(q).ast()).count();
                if (query.hasThis()) {
                    try (dev.quiver.query.cache.CachedQuery cq = dev.quiver.query.cache.CachedQuery.parse(w, q)) {
                        cq.count();
                    }
                }
            }
            return "compiled";
        } catch (QuerySyntaxException | UnknownQueryNameException | UnsupportedQueryException
                 | QueryValidationException | dev.quiver.query.builder.QueryBuilderException e) {
            return "refused";
        } catch (BadInputException e) {
            fail("seed " + seed + " #" + i + ": undocumented bad-input type " + e.getClass().getName() + " for "
                + show(q) + ": " + e.getMessage());
        } catch (StackOverflowError e) {
            fail("seed " + seed + " #" + i + ": stack overflow for " + show(q));
        } catch (RuntimeException e) {
            throw new AssertionError("seed " + seed + " #" + i + ": " + e + " for " + show(q), e);
        }
        return null;
    }

    private static String show(String q) {
        String s = q.length() > 200 ? q.substring(0, 200) + "... (" + q.length() + " chars)" : q;
        return "'" + s.replace("\n", "\\n").replace("\t", "\\t") + "'";
    }

    /** The time limit only catches a hang (a run takes well under a minute); it is not a speed check. */
    @Test
    @org.junit.jupiter.api.Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
    void aHundredThousandGeneratedAndMutatedQueriesFailCleanlyOrRun() throws IOException {
        world();
        long seed = Long.getLong("quiver.seed", System.nanoTime());
        int count = Integer.getInteger("quiver.fuzz.count", 100_000);
        System.out.println("QueryFuzzTest seed " + seed + " (-Dquiver.seed=" + seed + "), " + count + " strings");
        Random rnd = new Random(seed);
        List<String> corpus = corpus();
        int compiled = 0, refused = 0;
        long t0 = System.nanoTime();
        for (int i = 0; i < count; i++) {
            String q = rnd.nextBoolean() ? generate(rnd) : mutate(corpus.get(rnd.nextInt(corpus.size())), rnd);
            if (attempt(q, seed, i).equals("compiled")) {
                compiled++;
            } else {
                refused++;
            }
        }
        int i = count;
        for (String q : deep()) {
            attempt(q, seed, i++);
        }
        System.out.printf("QueryFuzzTest seed %d: %d compiled and ran, %d refused with a query error, %d deep inputs,"
            + " %.1f s%n", seed, compiled, refused, deep().size(), (System.nanoTime() - t0) / 1e9);
        assertTrue(compiled > count / 200, "the generator produced almost no valid queries: " + compiled);
    }
}
