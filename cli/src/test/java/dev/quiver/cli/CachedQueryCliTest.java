package dev.quiver.cli;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static dev.quiver.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** query --cached, --group-by, --order-by: cascade and orderings through the cached path, and their bad input. */
class CachedQueryCliTest {
    @TempDir
    static Path tmp;

    private static String w;

    @BeforeAll
    static void world() {
        w = tmp.resolve("w").toString();
        run("init", w).ok();
        run("component", w, "Age", "years:i32").ok();
        run("add", w, "house.kitchen.lamp", "Transform").ok();
        run("add", w, "house.kitchen", "Transform").ok();
        run("add", w, "house", "Transform").ok();
        for (String[] p : new String[][] {{"ann", "acme", "41"}, {"bo", "globex", "23"}, {"cy", "acme", "35"}}) {
            run("add", w, p[0], "Person", "(WorksAt, " + p[1] + ")").ok();
            run("set", w, p[0], "Age", "{\"years\": " + p[2] + "}").ok();
        }
    }

    /** The positions of the names in the output, which must rise. */
    private static void inOrder(String out, String... names) {
        int at = -1;
        for (String n : names) {
            int i = out.indexOf("\"" + n + "\"");
            assertTrue(i > at, n + " out of order in\n" + out);
            at = i;
        }
    }

    @Test
    void cascadeNeedsTheCachedPath() {
        run("query", w, "Transform(self|cascade)").badInput("cached");
        String parentsFirst = run("query", w, "Transform(self|cascade)", "--cached", "--format", "jsonl").ok().out();
        inOrder(parentsFirst, "house", "house.kitchen", "house.kitchen.lamp");
        String deepestFirst = run("query", w, "Transform(self|cascade|desc)", "--cached", "--format", "jsonl").ok().out();
        inOrder(deepestFirst, "house.kitchen.lamp", "house.kitchen", "house");
        assertEquals("2\n", run("query", w, "Transform(cascade)", "--cached", "--format", "count").ok().out());
    }

    @Test
    void groupByAndOrderBy() {
        String byAge = run("query", w, "Person", "--order-by", "Age.years", "--format", "jsonl").ok().out();
        inOrder(byAge, "bo", "cy", "ann");
        String oldest = run("query", w, "Person", "--order-by", "Age.years desc", "--format", "jsonl", "--limit", "1")
            .ok().out();
        assertTrue(oldest.contains("ann") && !oldest.contains("\"bo\""), oldest);
        String grouped = run("query", w, "Person", "--group-by", "WorksAt", "--order-by", "Age.years",
            "--format", "jsonl").ok().out();
        assertTrue(grouped.indexOf("\"cy\"") < grouped.indexOf("\"ann\""), grouped);
        assertTrue(Math.abs(grouped.indexOf("\"cy\"") - grouped.indexOf("\"ann\"")) < grouped.length(), grouped);
        assertEquals("3\n", run("query", w, "Person", "--group-by", "WorksAt", "--format", "count").ok().out());
        String set = run("query", w, "(WorksAt, $c)", "--var", "c=acme", "--order-by", "id", "--format", "count").ok().out();
        assertEquals("2\n", set);
    }

    @Test
    void badCachedUse() {
        run("query", w, "Person", "--order-by", "Age.months").badInput("no member 'months'");
        run("query", w, "Person", "--order-by", "Age.years up").badInput("KEY or 'KEY desc'");
        run("query", w, "Person", "--group-by", "Nope").badInput("unknown relationship");
        run("query", w, "Person", "--cached", "--explain").badInput("single QUERY");
        run("query", w, "Person", "--cached", "--format", "canonical").badInput("single QUERY");
        run("query", w, "--queries-file", "q.txt", "--order-by", "id").badInput("single QUERY");
        run("query", w, "Person", "--cached", "--limit", "-1").badInput("--limit");
        run("query", w, "Transform(cascade), Person(cascade)", "--cached").badInput("one cascade term");
    }
}
