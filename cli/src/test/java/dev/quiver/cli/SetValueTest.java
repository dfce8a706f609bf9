package dev.quiver.cli;

import dev.quiver.storage.World;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static dev.quiver.cli.CliRunner.fingerprint;
import static dev.quiver.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code quiver set} with JSON values that must be refused as bad input (exit 2, one line, nothing
 * changed): trailing text, numbers that do not fit the field's type, documents nested too deep.
 */
class SetValueTest {
    @TempDir
    Path tmp;

    private String w;
    private Map<String, String> before;

    @BeforeEach
    void world() {
        w = tmp.resolve("w").toString();
        run("init", w).ok();
        run("component", w, "Position", "x:f64", "y:f64").ok();
        run("component", w, "Small", "v:f32").ok();
        run("component", w, "Count", "n:i32", "big:i64").ok();
        run("component", w, "Owner", "who:entity").ok();
        run("set", w, "ship", "Position", "{\"x\": 1, \"y\": 2}").ok();
        run("set", w, "ship", "Small", "{\"v\": 1.5}").ok();
        run("set", w, "ship", "Count", "[3, 4]").ok();
        before = fingerprint(Path.of(w));
    }

    @AfterEach
    void nothingChangedAndTheWorldChecks() {
        assertEquals(before, fingerprint(Path.of(w)));
        run("check", w).ok();
    }

    private Map<String, Object> value(String component) {
        try (World world = World.openReadOnly(Path.of(w))) {
            return world.get(world.lookup("ship"), world.id(component));
        }
    }

    @Test
    void trailingTextAfterTheValueIsRefused() {
        run("set", w, "ship", "Position", "{\"x\": 5} xyz").badInput("malformed JSON");
        run("set", w, "ship", "Position", "{\"x\": 5} {\"y\": 6}").badInput("malformed JSON");
        run("set", w, "ship", "Position", "[5, 6] ]").badInput("malformed JSON");
        run("set", w, "ship", "Position", "{\"x\": 5},").badInput("malformed JSON");
        assertEquals(Map.of("x", 1.0, "y", 2.0), value("Position"));
    }

    @Test
    void whitespaceAroundTheValueIsFine() {
        run("set", w, "ship", "Position", "  {\"x\": 5}\n\t").ok();
        assertEquals(Map.of("x", 5.0, "y", 2.0), value("Position"));
        run("set", w, "ship", "Position", "{\"x\": 1}").ok(); // back to the fingerprinted state
    }

    @Test
    void floatsThatOverflowTheFieldTypeAreRefused() {
        run("set", w, "ship", "Position", "{\"x\": 1e999}").badInput("field 'x': 1E+999 does not fit f64");
        run("set", w, "ship", "Position", "{\"x\": -1e309}").badInput("does not fit f64");
        run("set", w, "ship", "Position", "[1, 2e400]").badInput("field 'y'");
        run("set", w, "ship", "Small", "{\"v\": 1e39}").badInput("field 'v': 1E+39 does not fit f32");
        run("set", w, "ship", "Small", "{\"v\": -3.5e38}").badInput("does not fit f32");
        run("set", w, "ship", "Small", "{\"v\": 1e999}").badInput("does not fit f32");
        assertEquals(Map.of("v", 1.5f), value("Small"));
    }

    @Test
    void floatsAtTheEdgeOfTheirTypeAreKept() {
        run("set", w, "ship", "Small", "{\"v\": 3.4e38}").ok();
        assertEquals(Map.of("v", 3.4e38f), value("Small"));
        run("set", w, "ship", "Position", "{\"x\": 1.7976931348623157e308}").ok();
        assertEquals(Double.MAX_VALUE, value("Position").get("x"));
        run("set", w, "ship", "Position", "{\"x\": 1}").ok();
        run("set", w, "ship", "Small", "{\"v\": 1.5}").ok();
    }

    @Test
    void integersOutOfRangeAreRefused() {
        run("set", w, "ship", "Count", "{\"n\": 2147483648}").badInput("field 'n': 2147483648 does not fit i32");
        run("set", w, "ship", "Count", "{\"n\": -2147483649}").badInput("does not fit i32");
        run("set", w, "ship", "Count", "{\"big\": 9223372036854775808}")
                .badInput("field 'big': 9223372036854775808 does not fit i64");
        run("set", w, "ship", "Count", "{\"big\": -9223372036854775809}").badInput("does not fit i64");
        run("set", w, "ship", "Count", "{\"big\": 1e999}").badInput("field 'big': 1E+999 does not fit i64");
        run("set", w, "ship", "Count", "{\"big\": 1e19}").badInput("does not fit i64");
        run("set", w, "ship", "Count", "{\"n\": 2.5}").badInput("field 'n' is an integer");
        run("set", w, "ship", "Owner", "{\"who\": 99999999999999999999}").badInput("does not fit");
        assertEquals(Map.of("n", 3, "big", 4L), value("Count"));
    }

    @Test
    void integersAtTheEdgeOfTheirTypeAreKept() {
        run("set", w, "ship", "Count", "{\"n\": -2147483648, \"big\": 9223372036854775807}").ok();
        assertEquals(Map.of("n", Integer.MIN_VALUE, "big", Long.MAX_VALUE), value("Count"));
        run("set", w, "ship", "Count", "{\"n\": 2.0E3, \"big\": -9223372036854775808}").ok();
        assertEquals(Map.of("n", 2000, "big", Long.MIN_VALUE), value("Count"));
        run("set", w, "ship", "Count", "[3, 4]").ok();
    }

    @Test
    void deeplyNestedDocumentsAreOneLineOfBadInput() {
        String deep = "[".repeat(50_000) + "]".repeat(50_000);
        run("set", w, "ship", "Position", deep).badInput("malformed JSON value: nesting depth");
        String deepObject = "{\"x\": ".repeat(50_000) + "1" + "}".repeat(50_000);
        run("set", w, "ship", "Position", deepObject).badInput("nesting depth");
        run("set", w, "ship", "Position", "{\"x\": [[1]]}").badInput("field 'x': nested values are not supported");
        run("set", w, "ship", "Position", "[[1], 2]").badInput("nested values are not supported");
    }
}
