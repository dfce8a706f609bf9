package dev.quiver.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static dev.quiver.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** query: every format, --limit, --queries-file, and bad queries. */
class QueryCommandTest {
    @TempDir
    static Path tmp;

    private static String w;

    /** A small taxonomy: KindOf is Transitive. */
    @BeforeAll
    static void world() throws Exception {
        w = tmp.resolve("w").toString();
        Path f = Files.writeString(tmp.resolve("t.tsv"), String.join("\n",
                "poodle\tKindOf\tdog", "dog\tKindOf\tcanine", "wolf\tKindOf\tcanine", "canine\tKindOf\tanimal",
                "cat\tKindOf\tanimal", "rose\tKindOf\tplant", "dog\tColor\tbrown", "") );
        run("init", w).ok();
        run("add", w, "KindOf", "Transitive").ok();
        run("load", w, f.toString()).ok();
    }

    @Test
    void varSetsAVariableBeforeEvaluation() {
        assertEquals(run("query", w, "KindOf(poodle, $x)", "--format", "count").ok().out(),
            run("query", w, "KindOf($y, $x)", "--var", "y=poodle", "--format", "count").ok().out());
        assertEquals("1\n", run("query", w, "KindOf($y, $x)", "--var", "y=poodle", "--var", "$x=animal",
            "--format", "count").ok().out());
        String out = run("query", w, "KindOf($y, $x)", "--var", "y=poodle", "--format", "jsonl").ok().out();
        assertTrue(out.contains("poodle"), out);
        assertEquals(run("query", w, "KindOf(poodle, $x)", "--format", "count").ok().out(),
            run("query", w, "KindOf($this, $x)", "--var", "this=poodle", "--format", "count").ok().out());
        run("query", w, "KindOf(poodle, $x)", "--var", "this=poodle").badInput("no $this to set");
        run("query", w, "KindOf($y, $x)", "--var", "z=poodle").badInput("no variable $z");
        run("query", w, "KindOf($y, $x)", "--var", "y=nosuchthing").badInput("nosuchthing");
        run("query", w, "KindOf($y, $x)", "--var", "y").badInput("NAME=ENTITY");
        run("query", w, "KindOf($y, $x)", "--var", "y=poodle", "--format", "canonical").badInput("single QUERY");
    }

    @Test
    void aSetVariableMayBeReadByAPredicateBeforeATermBindsIt() {
        run("query", w, "$this != poodle, KindOf($this, animal)", "--format", "count").badInput("before a term binds it");
        assertEquals("0\n", run("query", w, "$this != poodle, KindOf($this, animal)", "--var", "this=poodle",
            "--format", "count").ok().out());
        assertEquals(run("query", w, "KindOf(poodle, animal)", "--format", "count").ok().out(),
            run("query", w, "$this != dog, KindOf($this, animal)", "--var", "this=poodle", "--format", "count").ok().out());
        assertEquals(run("query", w, "KindOf(poodle, $x)", "--format", "count").ok().out(),
            run("query", w, "$y != dog, KindOf($y, $x)", "--var", "y=poodle", "--format", "count").ok().out());
        assertEquals(run("query", w, "KindOf(poodle, animal)", "--format", "count").ok().out(),
            run("query", w, "$this != dog, KindOf($this, animal)", "--var", "this=poodle", "--order-by", "id",
                "--format", "count").ok().out(), "the cached path (--order-by) too");
    }

    @Test
    void explainPrintsTheCompiledProgramWithoutEvaluating() {
        String plain = run("query", w, "KindOf($y, $x), Color($y, brown)", "--explain").ok().out();
        assertTrue(plain.startsWith("0: "), plain);
        assertTrue(plain.lines().count() >= 2, plain);
        String set = run("query", w, "KindOf($y, $x), Color($y, brown)", "--explain", "--var", "y=dog").ok().out();
        assertTrue(!set.equals(plain), "a set variable changes the program:\n" + plain + "---\n" + set);
        assertEquals("0: THIS_SET $this\n1: TRANS_UP (KindOf,$x)($this) field=0 binds=$x\n",
            run("query", w, "KindOf($this, $x)", "--explain", "--var", "this=poodle").ok().out(),
            "$this set: looked up, not walked");
        run("query", w, "KindOf($y, $x", "--explain").badInput("");
        run("query", w, "--queries-file", "x.txt", "--explain").badInput("single QUERY");
    }

    @Test
    void countPrintsTheNumberAlone() {
        assertEquals("5\n", run("query", w, "(KindOf, animal)", "--format", "count").ok().out());
        assertEquals("3\n", run("query", w, "KindOf(poodle, $x)", "--format", "COUNT").ok().out());
        assertEquals("1\n", run("query", w, "KindOf(poodle, animal)", "--format", "count").ok().out());
        assertEquals("0\n", run("query", w, "KindOf(animal, poodle)", "--format", "count").ok().out());
        assertEquals("2\n", run("query", w, "(KindOf, animal), !(KindOf, canine)", "--format", "count").ok().out());
    }

    @Test
    void tableHasAHeaderRowsAndACountLine() {
        String out = run("query", w, "(KindOf, canine)").ok().out();
        String[] lines = out.split("\n");
        assertTrue(lines[0].startsWith("this"), out);
        assertEquals(5, lines.length, out);
        assertTrue(out.contains("poodle"), out);
        assertTrue(lines[4].startsWith("3 results in "), out);

        String vars = run("query", w, "KindOf(poodle, $x)").ok().out();
        assertTrue(vars.startsWith("$x"), vars);
        assertTrue(vars.contains("canine"), vars);

        String limited = run("query", w, "(KindOf, animal)", "--limit", "2").ok().out();
        assertEquals(4, limited.split("\n").length, limited);
        assertTrue(limited.contains("5 results (first 2 shown)"), limited);

        assertTrue(run("query", w, "(KindOf, poodle)").ok().out().startsWith("0 results"));
    }

    @Test
    void jsonAndJsonl() throws Exception {
        ObjectMapper json = new ObjectMapper();
        JsonNode doc = json.readTree(run("query", w, "(KindOf, canine)", "--format", "json").ok().out());
        assertEquals("(KindOf, canine)", doc.get("query").asText());
        assertEquals(3, doc.get("count").asInt());
        assertEquals(3, doc.get("results").size());
        assertTrue(doc.get("results").get(0).has("this"));

        String lines = run("query", w, "KindOf(poodle, $x)", "--format", "jsonl", "--limit", "2").ok().out();
        String[] rows = lines.split("\n");
        assertEquals(2, rows.length, lines);
        for (String row : rows) {
            assertTrue(json.readTree(row).get("vars").has("x"), row);
        }
    }

    @Test
    void queriesFileRunsEveryLine() throws Exception {
        Path q = Files.writeString(tmp.resolve("q.tsv"), "query\texpected_count\n"
                + "(KindOf, animal)\t5\n# a comment\n\nKindOf(poodle, $x)\t3\n");
        assertEquals("(KindOf, animal)\t5\nKindOf(poodle, $x)\t3\n",
                run("query", w, "--queries-file", q.toString(), "--format", "count").ok().out());
        JsonNode all = new ObjectMapper().readTree(run("query", w, "--queries-file", q.toString(), "--format", "json").ok().out());
        assertEquals(2, all.size());
        String table = run("query", w, "--queries-file", q.toString()).ok().out();
        assertTrue(table.startsWith("query: (KindOf, animal)\n"), table);

        Path bad = Files.writeString(tmp.resolve("bad.txt"), "(KindOf, animal)\n(KindOf, unicorn)\n");
        run("query", w, "--queries-file", bad.toString(), "--format", "count").badInput(bad + ":2:");
        run("query", w, "--queries-file", tmp.resolve("none").toString()).badInput("no such file");
    }

    @Test
    void badQueriesAreOneLineErrors() {
        run("query", w, "(KindOf, unicorn)").badInput("unicorn");
        run("query", w, "(KindOf, animal").badInput("");
        run("query", w, "KindOf(poodle $x)").badInput("");
        run("query", w, "").badInput("");
        run("query", w).badInput("give a QUERY or --queries-file");
        run("query", w, "(KindOf, animal)", "--format", "xml").badInput("xml");
        run("query", w, "(KindOf, animal)", "--limit", "-1").badInput("--limit");
        run("query", w, "(KindOf, animal)", "--queries-file", "x").badInput("not both");
    }
}
