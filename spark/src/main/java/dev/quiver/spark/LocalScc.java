package dev.quiver.spark;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Tarjan's strongly connected components (iterative), on the driver, for the small remainder of
 * a graph once distributed trimming has removed the bulk ({@link Components#strong}).
 */
final class LocalScc {
    private LocalScc() {}

    /**
     * @param ids   the vertices
     * @param edges (src, dst) pairs among them
     * @return per vertex (in the order of {@code ids}) the smallest id of its SCC
     */
    static long[] components(long[] ids, List<long[]> edges) {
        int n = ids.length;
        Map<Long, Integer> vertex = new HashMap<>(n * 2);
        for (int i = 0; i < n; i++) {
            vertex.put(ids[i], i);
        }
        int[] count = new int[n + 1];
        int[] src = new int[edges.size()], dst = new int[edges.size()];
        for (int e = 0; e < src.length; e++) {
            src[e] = vertex.get(edges.get(e)[0]);
            dst[e] = vertex.get(edges.get(e)[1]);
            count[src[e] + 1]++;
        }
        for (int i = 0; i < n; i++) {
            count[i + 1] += count[i];
        }
        int[] out = new int[src.length];
        int[] fill = Arrays.copyOf(count, n);
        for (int e = 0; e < src.length; e++) {
            out[fill[src[e]]++] = dst[e];
        }
        int[] index = new int[n], low = new int[n], comp = new int[n], pos = new int[n];
        Arrays.fill(index, -1);
        boolean[] onStack = new boolean[n];
        int[] stack = new int[n], call = new int[n];
        int sp = 0, next = 0, comps = 0;
        for (int root = 0; root < n; root++) {
            if (index[root] != -1) {
                continue;
            }
            int cp = 0;
            call[cp++] = root;
            index[root] = low[root] = next++;
            stack[sp++] = root;
            onStack[root] = true;
            pos[root] = count[root];
            while (cp > 0) {
                int v = call[cp - 1];
                if (pos[v] < count[v + 1]) {
                    int w = out[pos[v]++];
                    if (index[w] == -1) {
                        index[w] = low[w] = next++;
                        stack[sp++] = w;
                        onStack[w] = true;
                        pos[w] = count[w];
                        call[cp++] = w;
                    } else if (onStack[w]) {
                        low[v] = Math.min(low[v], index[w]);
                    }
                    continue;
                }
                if (low[v] == index[v]) {
                    int w;
                    do {
                        w = stack[--sp];
                        onStack[w] = false;
                        comp[w] = comps;
                    } while (w != v);
                    comps++;
                }
                cp--;
                if (cp > 0) {
                    low[call[cp - 1]] = Math.min(low[call[cp - 1]], low[v]);
                }
            }
        }
        long[] smallest = new long[comps];
        Arrays.fill(smallest, Long.MAX_VALUE);
        for (int i = 0; i < n; i++) {
            smallest[comp[i]] = Math.min(smallest[comp[i]], ids[i]);
        }
        long[] result = new long[n];
        for (int i = 0; i < n; i++) {
            result[i] = smallest[comp[i]];
        }
        return result;
    }
}
