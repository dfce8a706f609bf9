package dev.quiver.cli;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static dev.quiver.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The query language through the CLI: member-value terms over a schema declared with
 * {@code quiver component ... value:entity}, the *From operators, and access modifiers in
 * {@code --explain} (FEATURES.md QL-11, QL-13, QL-19, QS-23..QS-25).
 */
class LanguageCliTest {
    @TempDir
    static Path tmp;

    private static String w;

    @BeforeAll
    static void world() {
        w = tmp.resolve("w").toString();
        run("init", w).ok();
        run("component", w, "Movement", "value:entity").ok();
        run("add", w, "Left", "Direction").ok();
        run("add", w, "Right", "Direction").ok();
        run("set", w, "u1", "Movement", "{\"value\": \"Left\"}").ok();
        run("set", w, "u2", "Movement", "{\"value\": \"Right\"}").ok();
        run("add", w, "Kit", "Prefab").ok();
        run("add", w, "Kit", "Flying").ok();
        run("add", w, "Kit", "Armed").ok();
        run("add", w, "u2", "Flying").ok();
        run("add", w, "u2", "Armed").ok();
        run("add", w, "u1", "Flying").ok();
    }

    @Test
    void memberValueTerms() {
        assertEquals("1\n", run("query", w, "Movement.value($this, Left)", "--format", "count").ok().out());
        String out = run("query", w, "Movement.value($this, $d), $d != Left", "--format", "jsonl").ok().out();
        assertTrue(out.contains("u2") && out.contains("Right") && !out.contains("u1"), out);
        run("query", w, "Movement.speed($this, Left)").badInput("Movement.speed");
        run("query", w, "Flying, Movement.value").badInput("at column 9");
    }

    @Test
    void fromOperators() {
        assertEquals("1\n", run("query", w, "and | Kit", "--format", "count").ok().out());
        assertEquals("2\n", run("query", w, "or | Kit", "--format", "count").ok().out());
        assertEquals("0\n", run("query", w, "Movement, not | Kit", "--format", "count").ok().out());
        run("query", w, "[in] and | Kit").badInput("only [none] is allowed, at column 1");
    }

    @Test
    void explainShowsTheAccessOfFieldsWithData() {
        String plan = run("query", w, "Flying, [in] Movement", "--explain").ok().out();
        assertTrue(plan.contains("Movement($this) field=1 access=in"), plan);
        assertTrue(run("query", w, "Movement", "--explain").ok().out().contains("access=inout"));
    }
}
