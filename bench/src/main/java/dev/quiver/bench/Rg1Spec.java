package dev.quiver.bench;

/**
 * The RG-1 workload's parameters and every count and sum it expects (bench/RG1.md, the contract),
 * computed from the depth. Pure arithmetic: no world involved.
 *
 * <p>Node i (0-based, breadth-first) has children {@code i*F+1 .. i*F+F}; node 0 is the root.
 */
public final class Rg1Spec {
    /** The fanout F. */
    public static final int FANOUT = 10;
    /** The smallest depth accepted. */
    public static final int MIN_DEPTH = 1;
    /** The largest depth accepted (N = 11,111,111 nodes). */
    public static final int MAX_DEPTH = 7;
    /** Number of has-pair checks of the lookup operation. */
    public static final int LOOKUPS = 1_000_000;
    /** The multiplier of the Likes target and of the lookup sequence. */
    public static final long PRIME = 7919;
    /** Number of transitive queries {@code (LocatedIn, n<k>)} of the trans operation, k = 1..10. */
    public static final int TRANS_QUERIES = 10;

    private final int depth;
    private final int n;
    private final int firstLeaf;
    private final int numLeaves;

    /**
     * @param depth D, from {@link #MIN_DEPTH} to {@link #MAX_DEPTH}
     * @throws BenchInputException for another depth
     */
    public Rg1Spec(int depth) {
        if (depth < MIN_DEPTH || depth > MAX_DEPTH) {
            throw new BenchInputException("depth must be from " + MIN_DEPTH + " to " + MAX_DEPTH + ", got " + depth);
        }
        this.depth = depth;
        long pow = 1;
        for (int d = 0; d < depth; d++) {
            pow *= FANOUT;
        }
        this.numLeaves = (int) pow;
        this.firstLeaf = (int) ((pow - 1) / (FANOUT - 1));
        this.n = (int) ((pow * FANOUT - 1) / (FANOUT - 1));
    }

    /** The depth D. */
    public int depth() {
        return depth;
    }

    /** N, the number of nodes: (F^(D+1)-1)/(F-1). */
    public int nodes() {
        return n;
    }

    /** Index of the first node at depth D. */
    public int firstLeaf() {
        return firstLeaf;
    }

    /** F^D, the number of leaves. */
    public int numLeaves() {
        return numLeaves;
    }

    /** The parent of node {@code i > 0}. */
    public static int parent(int i) {
        return (i - 1) / FANOUT;
    }

    /** The depth of node {@code i}: parent steps to the root. */
    public static int depthOf(int i) {
        int d = 0;
        while (i > 0) {
            i = parent(i);
            d++;
        }
        return d;
    }

    /** True when leaf {@code i} has a Likes pair: {@code i % 100 == 7}. */
    public boolean likes(int i) {
        return i >= firstLeaf && i % 100 == 7;
    }

    /** The node leaf {@code i} likes: {@code firstLeaf + (i * 7919) % numLeaves}. */
    public int likesTarget(int i) {
        return firstLeaf + (int) ((i * PRIME) % numLeaves);
    }

    /** The node of lookup check {@code j}: {@code 1 + (j * 7919) % (N-1)}. */
    public int lookupNode(int j) {
        return 1 + (int) ((j * PRIME) % (n - 1));
    }

    /** True when node {@code i} is {@code root} or lies below it. */
    public static boolean inSubtree(int i, int root) {
        while (i > root) {
            i = parent(i);
        }
        return i == root;
    }

    /** iter: results of {@code Position, (LocatedIn, *|self)}: N-1. */
    public long iterCount() {
        return n - 1L;
    }

    /** iter: the sum of Position.x over those results: (N-1)N/2. */
    public long iterSum() {
        return (n - 1L) * n / 2;
    }

    /** trans: results of {@code (LocatedIn, n<k>)}, k = 1..10: the nodes below a depth-1 node. */
    public long transCount() {
        return subtreeSize() - 1;
    }

    /** transvar: rows of {@code (LocatedIn, $x)}, every (node, ancestor) pair: the sum of depths. */
    public long transvarCount() {
        long sum = 0, pow = 1;
        for (int d = 1; d <= depth; d++) {
            pow *= FANOUT;
            sum += d * pow;
        }
        return sum;
    }

    /** join: number of Likes pairs. */
    public long likesCount() {
        long c = 0;
        for (int i = firstLeaf; i < n; i++) {
            if (likes(i)) {
                c++;
            }
        }
        return c;
    }

    /** join: the sum of Position.x of the Likes targets. */
    public long joinSum() {
        long s = 0;
        for (int i = firstLeaf; i < n; i++) {
            if (likes(i)) {
                s += likesTarget(i);
            }
        }
        return s;
    }

    /** Entities in the subtree of a depth-1 node, the node included: (N-1)/F. */
    public long subtreeSize() {
        return (n - 1L) / FANOUT;
    }

    /** delete: nodes left after deleting n1 and its subtree. */
    public long nodesAfterDelete() {
        return n - subtreeSize();
    }

    /** delete: Likes pairs left, those whose source and target both lie outside n1's subtree. */
    public long likesAfterDelete() {
        long c = 0;
        for (int i = firstLeaf; i < n; i++) {
            if (likes(i) && !inSubtree(i, 1) && !inSubtree(likesTarget(i), 1)) {
                c++;
            }
        }
        return c;
    }
}
