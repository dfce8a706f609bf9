package dev.quiver.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static dev.quiver.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** query: component values in the table, json, jsonl, csv and tsv formats; --limit with streamed rows. */
class QueryValuesTest {
    @TempDir
    static Path tmp;

    private static String w;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Three ships with Position; "a, b" has a name that needs CSV quoting; Game has a Label with a tab. */
    @BeforeAll
    static void world() {
        w = tmp.resolve("w").toString();
        run("init", w).ok();
        run("component", w, "Position", "x:f64", "y:f64").ok();
        run("component", w, "Label", "text:string").ok();
        run("set", w, "ship1", "Position", "{\"x\": 1, \"y\": 2}").ok();
        run("set", w, "ship2", "Position", "{\"x\": 3, \"y\": 4}").ok();
        run("set", w, "ship3", "Position", "{\"x\": 5, \"y\": 6}").ok();
        run("set", w, "Game", "Label", "{\"text\": \"a,\\tb\"}").ok();
        run("add", w, "ship1", "Fast").ok();
    }

    @Test
    void tableShowsValues() {
        String out = run("query", w, "Position, ?Fast").ok().out();
        assertTrue(out.contains("Position{x: 1.0, y: 2.0} Fast"), out);
        assertTrue(out.contains("Position{x: 5.0, y: 6.0} -"), out);
        assertTrue(out.lines().anyMatch(l -> l.startsWith("3 results in ")), out);
        String shared = run("query", w, "Position, Label(Game)", "--limit", "1").ok().out();
        assertTrue(shared.contains("Label@Game{text: a,\tb}"), shared);
        assertTrue(shared.contains("3 results (first 1 shown)"), shared);
    }

    @Test
    void jsonAndJsonlCarryValues() throws Exception {
        JsonNode doc = JSON.readTree(run("query", w, "Position", "--format", "json").ok().out());
        assertEquals(3, doc.get("count").asInt());
        assertEquals(3, doc.get("results").size());
        for (JsonNode r : doc.get("results")) {
            JsonNode v = r.get("fields").get(0).get("value");
            assertEquals(v.get("x").asDouble() + 1, v.get("y").asDouble(), r.toString());
        }
        List<String> lines = run("query", w, "Position", "--format", "jsonl", "--limit", "2").ok().out().lines().toList();
        assertEquals(2, lines.size());
        assertTrue(JSON.readTree(lines.get(0)).get("fields").get(0).get("value").has("x"), lines.get(0));
        JsonNode tag = JSON.readTree(run("query", w, "Fast", "--format", "jsonl").ok().out());
        assertTrue(!tag.get("fields").get(0).has("value"), "a tag has no value: " + tag);
        Path q = Files.writeString(tmp.resolve("q.txt"), "Position\nFast\n");
        JsonNode all = JSON.readTree(run("query", w, "--queries-file", q.toString(), "--format", "json").ok().out());
        assertEquals(2, all.size());
        assertEquals(3, all.get(0).get("results").size());
        assertEquals(1, all.get(1).get("count").asInt());
        List<String> perQuery = run("query", w, "--queries-file", q.toString(), "--format", "jsonl").ok().out().lines().toList();
        assertEquals(2, perQuery.size());
        assertEquals(3, JSON.readTree(perQuery.get(0)).get("count").asInt());
    }

    @Test
    void csvAndTsv() {
        List<String> csv = run("query", w, "Position, Label(Game)", "--format", "csv").ok().out().lines().toList();
        assertEquals("this,field0,value0,field1,value1", csv.get(0));
        assertEquals(4, csv.size(), csv.toString());
        assertTrue(csv.contains("ship1,Position,\"{\"\"x\"\":1.0,\"\"y\"\":2.0}\",Label@Game,\"{\"\"text\"\":\"\"a,\\tb\"\"}\""),
            csv.toString());
        List<String> tsv = run("query", w, "Position($x), Label(Game)", "--format", "tsv", "--limit", "1").ok().out()
            .lines().toList();
        assertEquals(List.of("$x\tfield0\tvalue0\tfield1\tvalue1",
            tsv.get(1)), tsv);
        assertTrue(tsv.get(1).startsWith("ship"), tsv.toString());
        assertTrue(tsv.get(1).endsWith("\tLabel@Game\t{\"text\":\"a,\\\\tb\"}"), tsv.get(1));
        assertEquals(List.of("this,field0,value0,field1,value1"),
            run("query", w, "Fast, !Position", "--format", "csv").ok().out().lines().toList(), "no rows: the header alone");
    }
}
