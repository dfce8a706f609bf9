package dev.quiver.analytics;

import dev.quiver.index.Ids;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Large and deep graphs built straight as arrays (no world): a chain and a ring of a million nodes
 * (a recursive walk would overflow the stack) and an RG-1 shaped 10-ary tree, whose answers are
 * known in closed form.
 */
class DeepGraphsTest {
    /** A graph over nodes 0..n-1 with the given successor lists (one per node, -1 for none). */
    static Graph graph(int n, int[][] succ) {
        long[] entity = new long[n];
        int[] nodeOfIndex = new int[n + 256];
        java.util.Arrays.fill(nodeOfIndex, -1);
        for (int v = 0; v < n; v++) {
            entity[v] = Ids.entity(v + 256, 0);
            nodeOfIndex[v + 256] = v;
        }
        int[] start = new int[n + 1];
        for (int v = 0; v < n; v++) {
            start[v + 1] = start[v] + succ[v].length;
        }
        int[] adj = new int[start[n]];
        int[] inDeg = new int[n];
        int[] outDeg = new int[n];
        for (int v = 0; v < n; v++) {
            int[] s = succ[v].clone();
            java.util.Arrays.sort(s);
            System.arraycopy(s, 0, adj, start[v], s.length);
            outDeg[v] = s.length;
            for (int t : s) {
                inDeg[t]++;
            }
        }
        return new Graph(null, new long[] {Ids.entity(255, 0)}, entity, nodeOfIndex, start, adj,
                new int[][] {outDeg}, new int[][] {inDeg});
    }

    @Test
    void aChainOfAMillion() {
        int n = 1_000_000;
        int[][] succ = new int[n][];
        for (int v = 0; v < n; v++) {
            succ[v] = v + 1 < n ? new int[] {v + 1} : new int[0];
        }
        Graph g = graph(n, succ);
        StrongComponents s = g.strongComponents();
        assertEquals(n, s.count());
        assertEquals(0, s.cyclicComponents().length);
        ClosureSizes c = g.closureSizes();
        Depths d = g.depths();
        TopologicalLayers t = g.topologicalLayers();
        for (int v = 0; v < n; v += 9973) {
            assertEquals(n - 1 - v, c.forward(v));
            assertEquals(v, c.reverse(v));
            assertEquals(n - 1 - v, d.longest(v));
            assertEquals(n - 1 - v, d.shortest(v));
            assertEquals(v, t.nodeGeneration(v));
        }
        assertEquals(n, g.shortestPath(g.entity(0), g.entity(n - 1), Direction.OUT).length);
        assertEquals(1, g.weakComponents().count());
    }

    @Test
    void aRingOfAMillion() {
        int n = 1_000_000;
        int[][] succ = new int[n][];
        for (int v = 0; v < n; v++) {
            succ[v] = new int[] {(v + 1) % n};
        }
        Graph g = graph(n, succ);
        StrongComponents s = g.strongComponents();
        assertEquals(1, s.count());
        assertTrue(s.isCyclic(0));
        ClosureSizes c = g.closureSizes();
        assertEquals(n, c.forward(12345));
        assertEquals(n, c.reverse(0));
        assertEquals(-1, g.depths().longest(7));
        assertEquals(1, g.topologicalLayers().generationCount());
    }

    @Test
    void anRg1ShapedTree() {
        // RG-1 with F = 10, D = 5: node i's parent is (i-1)/10; the edge points from child to parent
        int n = 111_111;
        int[][] succ = new int[n][];
        succ[0] = new int[0];
        for (int v = 1; v < n; v++) {
            succ[v] = new int[] {(v - 1) / 10};
        }
        Graph g = graph(n, succ);
        ClosureSizes c = g.closureSizes();
        Depths d = g.depths();
        for (int v = 0; v < n; v += 101) {
            int depth = 0;
            for (int x = v; x != 0; x = (x - 1) / 10) {
                depth++;
            }
            int below = 0;
            for (int k = 1, width = 10; depth + k <= 5; k++, width *= 10) {
                below += width;
            }
            assertEquals(depth, c.forward(v), "ancestors of " + v);
            assertEquals(below, c.reverse(v), "descendants of " + v);
            assertEquals(depth, d.shortest(v));
            assertEquals(depth, d.longest(v));
        }
        assertEquals(1, d.rootCount());
        assertEquals(100_000, d.leafCount());
        // one extra edge breaks the forest: the bitset program must give the same sizes plus the new reach
        succ[n - 1] = new int[] {(n - 2) / 10, 1};
        ClosureSizes c2 = graph(n, succ).closureSizes();
        assertEquals(c.forward(n - 1) + 1, c2.forward(n - 1));
        assertEquals(c.reverse(1) + 1, c2.reverse(1));
        assertEquals(c.reverse(0), c2.reverse(0));
        assertEquals(c.forward(5000), c2.forward(5000));
    }
}
