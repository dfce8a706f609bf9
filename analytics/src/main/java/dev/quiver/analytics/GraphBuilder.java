package dev.quiver.analytics;

import dev.quiver.index.Ids;
import dev.quiver.storage.table.Table;
import dev.quiver.storage.World;
import it.unimi.dsi.fastutil.ints.IntArrays;

import java.util.Arrays;

/**
 * Builds a {@link Graph} from the stored world: for each chosen relationship R, the component
 * index's wildcard record {@code (R, *)} lists every table whose type holds some {@code (R, T)};
 * each row of such a table is a source and each {@code (R, T)} in the type an edge to T. This
 * reads whole tables (entity arrays and sorted types), never one entity at a time, so building
 * costs one pass over the edges plus a counting sort.
 */
final class GraphBuilder {
    private GraphBuilder() {}

    static Graph build(World world, long[] relationships, Progress progress) {
        int r = relationships.length;
        // pass 1: collect edges as entity indices
        int[] src = new int[1024];
        int[] dst = new int[1024];
        byte[] rel = new byte[1024];
        int edges = 0;
        int maxIndex = 0;
        int[] targets = new int[8];
        for (int k = 0; k < r; k++) {
            int ri = Ids.index(relationships[k]);
            for (Table t : world.tableAccess().tables(Ids.pairOfIndices(ri, Ids.WILDCARD_INDEX))) {
                if (Arrays.binarySearch(t.type(), Ids.pairOfIndices(ri, Ids.WILDCARD_INDEX)) >= 0) {
                    // a sparse relationship (FEATURES TRT-16): each row's targets are in the sparse store
                    for (int row = 0; row < t.count(); row++) {
                        int s = Ids.index(t.entity(row));
                        for (int tgt : world.tableAccess().sparse().targets(s, ri)) {
                            if (edges == src.length) {
                                src = Arrays.copyOf(src, edges * 2);
                                dst = Arrays.copyOf(dst, edges * 2);
                                rel = Arrays.copyOf(rel, edges * 2);
                            }
                            src[edges] = s;
                            dst[edges] = tgt;
                            rel[edges] = (byte) k;
                            edges++;
                            maxIndex = Math.max(maxIndex, Math.max(s, tgt));
                        }
                    }
                    continue;
                }
                int nt = 0;
                for (long id : t.type()) {
                    if (Ids.isPair(id) && Ids.first(id) == ri) {
                        if (nt == targets.length) {
                            targets = Arrays.copyOf(targets, nt * 2);
                        }
                        targets[nt++] = Ids.second(id);
                    }
                }
                int rows = t.count();
                if (nt == 0 || rows == 0) {
                    continue;
                }
                long[] ents = t.entities();
                int need = edges + rows * nt;
                if (need > src.length) {
                    int cap = Math.max(need, src.length * 2);
                    src = Arrays.copyOf(src, cap);
                    dst = Arrays.copyOf(dst, cap);
                    rel = Arrays.copyOf(rel, cap);
                }
                for (int j = 0; j < nt; j++) {
                    maxIndex = Math.max(maxIndex, targets[j]);
                }
                for (int row = 0; row < rows; row++) {
                    int s = Ids.index(ents[row]);
                    maxIndex = Math.max(maxIndex, s);
                    for (int j = 0; j < nt; j++) {
                        src[edges] = s;
                        dst[edges] = targets[j];
                        rel[edges] = (byte) k;
                        edges++;
                    }
                }
            }
            progress.update("reading pairs", k + 1, r);
        }
        // nodes: every source and target, numbered in entity-index order
        boolean[] seen = new boolean[maxIndex + 1];
        for (int e = 0; e < edges; e++) {
            seen[src[e]] = true;
            seen[dst[e]] = true;
        }
        int[] nodeOfIndex = new int[maxIndex + 1];
        int n = 0;
        for (int i = 0; i <= maxIndex; i++) {
            nodeOfIndex[i] = seen[i] ? n++ : -1;
        }
        long[] entity = new long[n];
        for (int i = 0; i <= maxIndex; i++) {
            if (seen[i]) {
                long e = world.entityOfIndex(i);
                if (e == 0) {
                    // the world guarantees no pair points at a dead entity; refuse to guess if it did
                    throw new IllegalStateException("pair points at dead entity index " + i);
                }
                entity[nodeOfIndex[i]] = e;
            }
        }
        int[][] outDegree = new int[r][n];
        int[][] inDegree = new int[r][n];
        int[] outStart = new int[n + 1];
        for (int e = 0; e < edges; e++) {
            int s = nodeOfIndex[src[e]];
            int t = nodeOfIndex[dst[e]];
            src[e] = s;
            dst[e] = t;
            outDegree[rel[e]][s]++;
            inDegree[rel[e]][t]++;
            outStart[s + 1]++;
        }
        for (int i = 0; i < n; i++) {
            outStart[i + 1] += outStart[i];
        }
        int[] out = new int[edges];
        int[] fill = Arrays.copyOf(outStart, n);
        for (int e = 0; e < edges; e++) {
            out[fill[src[e]]++] = dst[e];
        }
        // sort each adjacency list; drop duplicates (the same (source, target) under two relationships)
        int w = 0;
        int[] newStart = new int[n + 1];
        for (int v = 0; v < n; v++) {
            int a = outStart[v], b = outStart[v + 1];
            IntArrays.quickSort(out, a, b);
            newStart[v] = w;
            for (int e = a; e < b; e++) {
                if (e == a || out[e] != out[e - 1]) {
                    out[w++] = out[e];
                }
            }
        }
        newStart[n] = w;
        if (w < out.length) {
            out = Arrays.copyOf(out, w);
        }
        return new Graph(world, relationships.clone(), entity, nodeOfIndex, newStart, out, outDegree, inDegree);
    }

    /** The transpose of a CSR adjacency: in-lists, each sorted ascending. */
    static int[][] transpose(int n, int[] start, int[] adj) {
        int[] inStart = new int[n + 1];
        for (int t : adj) {
            inStart[t + 1]++;
        }
        for (int i = 0; i < n; i++) {
            inStart[i + 1] += inStart[i];
        }
        int[] in = new int[adj.length];
        int[] fill = Arrays.copyOf(inStart, n);
        for (int v = 0; v < n; v++) {
            for (int e = start[v]; e < start[v + 1]; e++) {
                in[fill[adj[e]]++] = v;
            }
        }
        return new int[][] {inStart, in};
    }
}
