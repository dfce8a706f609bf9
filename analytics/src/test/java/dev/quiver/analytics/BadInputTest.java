package dev.quiver.analytics;

import dev.quiver.error.BadInputException;
import dev.quiver.storage.ConstraintException;
import dev.quiver.storage.ReadOnlyException;
import dev.quiver.storage.UnknownNameException;
import dev.quiver.storage.World;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad input gets a specific exception, an empty graph gives empty results, and writing back works once. */
class BadInputTest {
    @TempDir
    Path dir;

    @Test
    void badInputIsRefused() {
        try (World w = World.create(dir.resolve("w"))) {
            long r = w.entity("R");
            long a = w.entity("a");
            long b = w.entity("b");
            long lone = w.entity("lone");
            w.add(a, w.pair(r, b));
            Analytics an = Analytics.of(w);
            assertThrows(UnknownNameException.class, () -> an.graph("Nope"));
            assertThrows(AnalyticsInputException.class, () -> an.graph(new String[0]));
            assertThrows(AnalyticsInputException.class, () -> an.graph(" "));
            assertThrows(AnalyticsInputException.class, () -> an.graph("*"));
            assertThrows(AnalyticsInputException.class, () -> an.graph(w.pair(r, b)));
            Graph g = an.graph("R");
            assertEquals(-1, g.node(lone));
            BadInputException e = assertThrows(AnalyticsInputException.class, () -> g.shortestPath(a, lone, Direction.OUT));
            assertTrue(e.getMessage().contains("lone has no pair of R"), e.getMessage());
            assertThrows(AnalyticsInputException.class, () -> g.neighbourhood(a, -1, Direction.OUT));
            assertThrows(AnalyticsInputException.class, () -> g.lowestCommonAncestors(lone, a));
            assertThrows(AnalyticsInputException.class, () -> g.pageRank(1.0, 10, 1e-6));
            assertThrows(AnalyticsInputException.class, () -> g.pageRank(0.85, 0, 1e-6));
            assertThrows(AnalyticsInputException.class, () -> g.communities(0));
            assertThrows(AnalyticsInputException.class, () -> g.degrees().top(-1, Direction.IN));
            w.delete(b);
            assertEquals(0, an.graph("R").nodeCount(), "a deleted entity and its pairs leave the graph");
        }
    }

    @Test
    void aRelationshipWithoutPairsGivesEmptyResults() {
        try (World w = World.create(dir.resolve("w"))) {
            w.entity("R");
            Graph g = Analytics.of(w).graph("R");
            assertEquals(0, g.nodeCount());
            assertEquals(0, g.edgeCount());
            assertEquals(0, g.degrees().distribution(Direction.OUT).length);
            assertEquals(0, g.weakComponents().count());
            assertEquals(0, g.strongComponents().count());
            assertEquals(0, g.topologicalLayers().generationCount());
            assertEquals(0, g.closureSizes().forwardArray().length);
            assertEquals(-1, g.depths().maxDepth());
            assertEquals(0, g.pageRank().rankArray().length);
            assertEquals(0, g.communities().count());
        }
    }

    @Test
    void resultsAreWrittenAsAComponentInOneTransaction() {
        Path p = dir.resolve("w");
        try (World w = World.create(p)) {
            long r = w.entity("R");
            w.transaction(x -> {
                x.add(x.entity("a"), x.pair(r, x.entity("b")));
                x.add(x.entity("b"), x.pair(r, x.entity("c")));
            });
            Graph g = Analytics.of(w).graph("R");
            long c = NodeValues.of(g, g.closureSizes()).write(w, "Impact");
            assertEquals(Map.of("forward", 2L, "reverse", 0L), w.get(w.resolve("a"), c));
            assertEquals(Map.of("forward", 0L, "reverse", 2L), w.get(w.resolve("c"), c));
            long rank = NodeValues.of(g, g.pageRank()).write(w, "Rank");
            assertTrue((Double) w.get(w.resolve("c"), rank).get("rank") > 0.3);
            assertThrows(ConstraintException.class, () -> NodeValues.of(g, g.depths()).write(w, "Impact"));
            assertTrue(w.check().isEmpty(), w.check().toString());
        }
        try (World w = World.openReadOnly(p)) {
            Graph g = Analytics.of(w).graph("R");
            assertThrows(ReadOnlyException.class, () -> NodeValues.of(g, g.closureSizes()).write(w, "Other"));
        }
    }
}
