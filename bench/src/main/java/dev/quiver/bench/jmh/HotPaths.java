package dev.quiver.bench.jmh;

import dev.quiver.bench.Machine;
import dev.quiver.bench.Rg1Spec;
import dev.quiver.bench.Rg1World;
import dev.quiver.index.ChronicleSupport;
import dev.quiver.query.Query;
import dev.quiver.storage.World;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * JMH micro-benchmarks of the hot paths, on an RG-1 world (depth {@link #depth}, default 4:
 * 11,111 nodes) built once per fork in a temporary directory: adding and removing a pair, has,
 * lookup by name, and one transitive step. Average time per operation, in nanoseconds unless the
 * benchmark says otherwise.
 *
 * <p>Run with {@code java -jar bench/target/quiver-bench.jar jmh} (all) or
 * {@code ... jmh HotPaths.has} (one). Each fork is a new JVM with the flags Chronicle Map needs.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class HotPaths extends ChronicleFork {
    /** Pairs added and removed per invocation of {@link #addRemovePairBatched}. */
    private static final int BATCH = 1000;
    /** Length of the precomputed node sequences (a power of two). */
    private static final int SEQ = 1 << 16;

    /** RG-1 depth of the world the benchmarks run on. */
    @Param({"4"})
    public int depth;

    private Path tmp;
    private Rg1World rg;
    private World w;
    private long[] pairOwner;
    private long[] pairToCheck;
    private String[] names;
    private Query step;
    private long stepTarget;
    private int cursor;

    /** Builds the world and the sequences of nodes the benchmarks walk through. */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        ChronicleSupport.init();
        tmp = Files.createTempDirectory("quiver-jmh-");
        Rg1Spec spec = new Rg1Spec(depth);
        rg = Rg1World.create(spec, tmp.resolve("world"));
        w = rg.world();
        pairOwner = new long[SEQ];
        pairToCheck = new long[SEQ];
        names = new String[SEQ];
        for (int j = 0; j < SEQ; j++) {
            int i = spec.lookupNode(j);
            pairOwner[j] = rg.node(i);
            pairToCheck[j] = w.pair(rg.locatedIn(), rg.node(Rg1Spec.parent(i)));
            names[j] = "n" + i;
        }
        // a node just above the leaves: one reverse-index step reaches its F children
        int k = spec.firstLeaf() - 1;
        stepTarget = rg.node(k);
        step = Query.parse(w, "(LocatedIn, n" + k + ")");
    }

    /** Removes the world. */
    @TearDown(Level.Trial)
    public void tearDown() {
        rg.close();
        Machine.deleteTree(tmp);
    }

    private int next() {
        return cursor++ & (SEQ - 1);
    }

    /** Adds a Likes pair to a node and removes it again, each a committed (durable) transaction; microseconds. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public void addRemovePairCommitted() {
        int j = next();
        long pair = w.pair(rg.likes(), rg.node(1));
        w.add(pairOwner[j], pair);
        w.remove(pairOwner[j], pair);
    }

    /** Adds and removes a Likes pair on {@value #BATCH} nodes inside one transaction (one commit); per node. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void addRemovePairBatched() {
        long pair = w.pair(rg.likes(), rg.node(1));
        w.transaction(tx -> {
            for (int b = 0; b < BATCH; b++) {
                long e = pairOwner[next()];
                tx.add(e, pair);
                tx.remove(e, pair);
            }
        });
    }

    /** has-pair(n_i, LocatedIn, parent(n_i)) for a varying node, as RG-1's lookup operation. */
    @Benchmark
    public boolean has() {
        int j = next();
        return w.has(pairOwner[j], pairToCheck[j]);
    }

    /** Looks an entity up by name ("n&lt;i&gt;") in the name index. */
    @Benchmark
    public long lookupByName() {
        return w.lookup(names[next()]);
    }

    /** One transitive step: a parsed {@code (LocatedIn, n_k)} query counted, k a parent of leaves (F results). */
    @Benchmark
    public long transitiveStepQuery() {
        return step.count();
    }

    /** The same step through the reverse index directly: the sources of (LocatedIn, n_k). */
    @Benchmark
    public void transitiveStepReverseIndex(Blackhole bh) {
        w.forEachSource(rg.locatedIn(), stepTarget, bh::consume);
    }
}
