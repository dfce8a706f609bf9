package dev.quiver.analytics;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Exact transitive closure sizes of every node in both directions:
 * {@code forward(v)} is the number of nodes reachable from v by a path of one or more edges (a
 * package's dependency set, a synset's hypernym chain), {@code reverse(v)} the number of nodes
 * that reach v (a package's impact set, a synset's hyponym count). A node counts itself only when
 * it lies on a cycle (its component is cyclic), as in an irreflexive transitive closure.
 *
 * <p><b>How.</b> On the condensation, in topological order: the closure of a node is the sum of the
 * sizes of the components its component reaches, plus its own component's size when cyclic.
 * <ul>
 *   <li>When every component has at most one successor (a forest whose edges point at the root, e.g.
 *       RG-1's LocatedIn) the forward size is a chain sum and the reverse size a subtree sum: O(n).
 *       The mirror case (at most one predecessor) is handled the same way.</li>
 *   <li>Otherwise a word-parallel bitset dynamic program: the components are cut into windows of
 *       {@code 64 * k} targets; for each window, each component's reach set within the window is
 *       the OR of its successors' sets (processed in reverse topological order, each set kept with
 *       the range of its non-zero words), and its size a popcount (a weighted count for the words
 *       holding cyclic components). Cost O(edges * components / 64) word operations in the worst
 *       case, memory {@code 8 * components * k} bytes with k chosen to keep it near 32 MiB. The two
 *       directions run on two threads.</li>
 * </ul>
 */
public final class ClosureSizes {
    /** Bitset memory budget per direction, in longs (32 MiB). */
    static final int BUDGET_WORDS = 1 << 22;

    private final int[] forward;
    private final int[] reverse;

    private ClosureSizes(int[] forward, int[] reverse) {
        this.forward = forward;
        this.reverse = reverse;
    }

    static ClosureSizes of(Graph g, StrongComponents s) {
        int nc = s.count();
        int[] size = s.sizeArray();
        int[] start = s.condensationStart();
        int[] dag = s.condensationTargets();
        int maxOut = 0;
        for (int c = 0; c < nc; c++) {
            maxOut = Math.max(maxOut, start[c + 1] - start[c]);
        }
        int[] indeg = new int[nc];
        int maxIn = 0;
        for (int d : dag) {
            maxIn = Math.max(maxIn, ++indeg[d]);
        }
        int[] fwdComp;
        int[] revComp;
        Progress p = g.progress();
        if (maxOut <= 1) {
            fwdComp = chain(nc, start, dag, size);
            revComp = subtree(nc, start, dag, size);
        } else if (maxIn <= 1) {
            fwdComp = subtreeForward(nc, start, dag, size);
            revComp = reverseChain(nc, start, dag, size);
        } else {
            // the reverse condensation, renumbered c -> nc-1-c so that its edges also go upwards
            int[] rstart = new int[nc + 1];
            for (int d : dag) {
                rstart[nc - 1 - d + 1]++;
            }
            for (int c = 0; c < nc; c++) {
                rstart[c + 1] += rstart[c];
            }
            int[] radj = new int[dag.length];
            int[] fill = java.util.Arrays.copyOf(rstart, nc);
            for (int c = nc - 1; c >= 0; c--) {
                // predecessors visited in descending order give ascending renumbered targets
                for (int e = start[c]; e < start[c + 1]; e++) {
                    radj[fill[nc - 1 - dag[e]]++] = nc - 1 - c;
                }
            }
            int[] rsize = new int[nc];
            for (int c = 0; c < nc; c++) {
                rsize[nc - 1 - c] = size[c];
            }
            CompletableFuture<int[]> rev = CompletableFuture.supplyAsync(
                    () -> bitsetReach(nc, rstart, radj, rsize, BUDGET_WORDS, p, "closure reverse"));
            fwdComp = bitsetReach(nc, start, dag, size, BUDGET_WORDS, p, "closure forward");
            int[] r;
            try {
                r = rev.join();
            } catch (CompletionException e) {
                throw e.getCause() instanceof RuntimeException ? (RuntimeException) e.getCause() : e;
            }
            revComp = new int[nc];
            for (int c = 0; c < nc; c++) {
                revComp[c] = r[nc - 1 - c];
            }
        }
        int n = g.nodeCount();
        int[] forward = new int[n];
        int[] reverse = new int[n];
        for (int v = 0; v < n; v++) {
            int c = s.component(v);
            int self = s.isCyclic(c) ? size[c] : 0;
            forward[v] = fwdComp[c] + self;
            reverse[v] = revComp[c] + self;
        }
        return new ClosureSizes(forward, reverse);
    }

    /** Every component has at most one successor: reach = successor's size + successor's reach. */
    private static int[] chain(int nc, int[] start, int[] dag, int[] size) {
        int[] r = new int[nc];
        for (int c = nc - 1; c >= 0; c--) {
            if (start[c + 1] > start[c]) {
                int d = dag[start[c]];
                r[c] = size[d] + r[d];
            }
        }
        return r;
    }

    /** Every component has at most one successor: what reaches c is the disjoint union of its subtrees. */
    private static int[] subtree(int nc, int[] start, int[] dag, int[] size) {
        int[] r = new int[nc];
        for (int c = 0; c < nc; c++) {
            if (start[c + 1] > start[c]) {
                r[dag[start[c]]] += size[c] + r[c];
            }
        }
        return r;
    }

    /** Every component has at most one predecessor: c reaches the disjoint union of its successors' subtrees. */
    private static int[] subtreeForward(int nc, int[] start, int[] dag, int[] size) {
        int[] r = new int[nc];
        for (int c = nc - 1; c >= 0; c--) {
            for (int e = start[c]; e < start[c + 1]; e++) {
                r[c] += size[dag[e]] + r[dag[e]];
            }
        }
        return r;
    }

    /** Every component has at most one predecessor: what reaches c is its predecessor and what reaches that. */
    private static int[] reverseChain(int nc, int[] start, int[] dag, int[] size) {
        int[] r = new int[nc];
        for (int c = 0; c < nc; c++) {
            for (int e = start[c]; e < start[c + 1]; e++) {
                r[dag[e]] = size[c] + r[c];
            }
        }
        return r;
    }

    /**
     * For a DAG whose edges all go from lower to higher numbers (adjacency lists ascending), the
     * weighted number of nodes each node reaches by one or more edges. {@code budgetWords} bounds the
     * bitset memory (in longs); windows hold at least 64 targets whatever the budget.
     */
    static int[] bitsetReach(int nc, int[] start, int[] adj, int[] size, int budgetWords, Progress progress,
                             String phase) {
        int[] reach = new int[nc];
        if (nc == 0) {
            return reach;
        }
        int wordsAll = (nc + 63) >>> 6;
        int k = Math.max(1, Math.min(wordsAll, budgetWords / nc));
        int window = k << 6;
        long[] bits = new long[nc * k];
        int[] wlo = new int[nc];
        int[] whi = new int[nc];
        long[] heavy = new long[k];
        int windows = (nc + window - 1) / window;
        for (int wi = 0; wi < windows; wi++) {
            int lo = wi * window;
            int hi = Math.min(nc, lo + window);
            java.util.Arrays.fill(heavy, 0);
            boolean anyHeavy = false;
            for (int c = lo; c < hi; c++) {
                if (size[c] > 1) {
                    heavy[(c - lo) >>> 6] |= 1L << (c - lo);
                    anyHeavy = true;
                }
            }
            for (int c = hi - 1; c >= 0; c--) {
                int base = c * k;
                for (int w = wlo[c], e = whi[c]; w < e; w++) {
                    bits[base + w] = 0;
                }
                int a = k;
                int b = 0;
                for (int e = start[c], end = start[c + 1]; e < end; e++) {
                    int d = adj[e];
                    if (d >= hi) {
                        break; // ascending lists: the rest lie beyond the window
                    }
                    int dlo = wlo[d];
                    int dhi = whi[d];
                    if (dlo >= dhi) {
                        continue;
                    }
                    int dbase = d * k;
                    for (int w = dlo; w < dhi; w++) {
                        bits[base + w] |= bits[dbase + w];
                    }
                    if (dlo < a) {
                        a = dlo;
                    }
                    if (dhi > b) {
                        b = dhi;
                    }
                }
                if (a < b) {
                    int cnt = 0;
                    for (int w = a; w < b; w++) {
                        long x = bits[base + w];
                        cnt += Long.bitCount(x);
                        if (anyHeavy) {
                            long h = x & heavy[w];
                            while (h != 0) {
                                cnt += size[lo + (w << 6) + Long.numberOfTrailingZeros(h)] - 1;
                                h &= h - 1;
                            }
                        }
                    }
                    reach[c] += cnt;
                }
                if (c >= lo) {
                    int off = c - lo;
                    int w = off >>> 6;
                    bits[base + w] |= 1L << off;
                    if (w < a) {
                        a = w;
                    }
                    if (w + 1 > b) {
                        b = w + 1;
                    }
                }
                if (a < b) {
                    wlo[c] = a;
                    whi[c] = b;
                } else {
                    wlo[c] = 0;
                    whi[c] = 0;
                }
            }
            progress.update(phase, wi + 1, windows);
        }
        return reach;
    }

    /** Number of nodes the node reaches by one or more edges (itself only when on a cycle). */
    public int forward(int node) {
        return forward[node];
    }

    /** Number of nodes that reach the node by one or more edges (itself only when on a cycle). */
    public int reverse(int node) {
        return reverse[node];
    }

    /** Forward closure sizes indexed by node. Do not modify. */
    public int[] forwardArray() {
        return forward;
    }

    /** Reverse closure sizes indexed by node. Do not modify. */
    public int[] reverseArray() {
        return reverse;
    }
}
