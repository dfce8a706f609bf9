package dev.quiver.query;

import dev.quiver.index.Ids;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;
import dev.quiver.storage.World;
import dev.quiver.storage.table.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Queries over tables of several entity pages ({@link Table#entityPage}, issue 8): an RG-1-like
 * tree (fanout 10) of three pages and some rows, in one table, read by whole-table steps, runs of
 * rows of a transitive walk and per-row results, before and after a reopen (whose table is read
 * lazily, a chunk at a time). Every result is checked against the tree (entities and variables),
 * not only counted.
 */
class EntityPagesQueryTest {
    static final int F = 10;
    static final int N = 3 * (1 << Table.PAGE_SHIFT) + 7;

    @TempDir
    Path tmp;

    @Test
    void resultsOverSeveralEntityPagesAreTheTreesBeforeAndAfterAReopen() {
        Path dir = tmp.resolve("w");
        long[] nodes = new long[N];
        try (World w = World.create(dir)) {
            long position = w.component("Position", Schema.of("x", FieldType.F64));
            w.transaction(x -> {
                long locatedIn = x.entity("LocatedIn");
                x.add(locatedIn, Builtin.TRANSITIVE);
                for (int i = 0; i < N; i++) {
                    nodes[i] = x.entity("n" + i);
                    x.set(nodes[i], position, new Object[] {(double) i});
                    if (i > 0) {
                        x.add(nodes[i], Ids.pair(locatedIn, nodes[(i - 1) / F]));
                    }
                }
            });
            assertResults(w, nodes, "in memory");
        }
        try (World w = World.open(dir)) {
            assertResults(w, nodes, "reopened");
        }
    }

    private static void assertResults(World w, long[] nodes, String what) {
        // whole-table steps: every node once, through each row and through the steps' entities
        List<Long> each = new ArrayList<>();
        Query.parse(w, "Position, (LocatedIn, *|self)").forEach(r -> each.add(r.thisEntity()));
        assertEachNodeOnce(nodes, 1, N, each, what + ": Position rows");
        List<Long> steps = new ArrayList<>();
        Query.parse(w, "Position").forEachTable(t -> {
            long[] ents = new long[t.count()];
            t.copyEntities(ents, 0);
            for (int i = 0; i < ents.length; i++) {
                assertEquals(ents[i], t.entity(i));
                if (t.table() != null) {
                    assertEquals(t.table().entity(t.offset() + i), ents[i], what + ": step row " + i);
                }
                steps.add(ents[i]);
            }
            return true;
        });
        assertEachNodeOnce(nodes, 0, N, steps, what + ": Position steps");
        // a transitive variable: each node with each of its ancestors
        Set<String> expected = new HashSet<>();
        for (int i = 1; i < N; i++) {
            for (int a = (i - 1) / F; ; a = (a - 1) / F) {
                expected.add(nodes[i] + ">" + nodes[a]);
                if (a == 0) {
                    break;
                }
            }
        }
        List<String> pairs = new ArrayList<>();
        Query.parse(w, "(LocatedIn, $x)").forEach(r -> pairs.add(r.thisEntity() + ">" + r.variable("x")));
        assertEquals(expected.size(), pairs.size(), what + ": (LocatedIn, $x) rows");
        assertEquals(expected, new HashSet<>(pairs), what + ": (LocatedIn, $x)");
        // a fixed target: n1's subtree
        Set<Long> below = new HashSet<>();
        for (int i = 2; i < N; i++) {
            for (int a = (i - 1) / F; a > 0; a = (a - 1) / F) {
                if (a == 1) {
                    below.add(nodes[i]);
                }
            }
        }
        List<Long> found = new ArrayList<>();
        Query.parse(w, "(LocatedIn, n1)").forEach(r -> found.add(r.thisEntity()));
        assertEquals(below.size(), found.size(), what + ": (LocatedIn, n1) rows");
        assertEquals(below, new HashSet<>(found), what + ": (LocatedIn, n1)");
        assertTrue(below.size() > 1 << Table.PAGE_SHIFT, "the subtree spans pages");
    }

    private static void assertEachNodeOnce(long[] nodes, int from, int to, List<Long> got, String what) {
        long[] want = Arrays.copyOfRange(nodes, from, to);
        long[] have = got.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(want);
        Arrays.sort(have);
        assertEquals(Arrays.toString(want), Arrays.toString(have), what);
    }
}
