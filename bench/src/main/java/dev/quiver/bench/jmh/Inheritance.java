package dev.quiver.bench.jmh;

import dev.quiver.bench.Machine;
import dev.quiver.index.ChronicleSupport;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.FieldType;
import dev.quiver.storage.Schema;
import dev.quiver.storage.World;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * JMH micro-benchmarks of issue 9's figures (Flecs v4 IsA inheritance and prefabs): instantiating
 * a prefab with 10 Override f64 components and 10 named children (microseconds per instance), and
 * {@code get} of an Inherit component through a 3-level IsA chain (nanoseconds per get).
 *
 * <p>Instantiation is measured in committed transactions: each invocation makes {@link #BATCH}
 * (or {@link #BIG_BATCH}) instances in one transaction, its commit included (pages encoded, the
 * WAL record written and forced), divided by the instances: a batch is one transaction, and its
 * instances exist only once it commits (a JFR profile of a batch of 1,000 puts about half of its
 * CPU time in the commit). {@link #instantiatePrefab} adds
 * {@code (IsA, prefab)} to each new entity; {@link #instantiatePrefabBatch} and
 * {@link #instantiatePrefabBatch1000} call {@code World.instantiate(prefab, n)}. Each measurement
 * iteration starts from a new world holding only the prefab ({@link PrefabWorld}), so the world
 * grows from 0 to the instances one iteration makes (not without bound over the run); a
 * checkpoint runs inside a commit once the WAL passes 64 MiB, and at the iteration's close
 * (outside the measurement).
 *
 * <p>Run with {@code java -jar bench/target/quiver-bench.jar jmh Inheritance}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class Inheritance extends ChronicleFork {
    /** Prefab instances created per invocation of {@link #instantiatePrefab} and {@link #instantiatePrefabBatch} (one transaction). */
    static final int BATCH = 100;
    /** Prefab instances created per invocation of {@link #instantiatePrefabBatch1000}. */
    static final int BIG_BATCH = 1000;

    private Path tmp;
    private World w;
    private long isA;
    private long leaf;
    private long shared;

    /** A world holding the prefab (10 f64 components, 10 named children), new for each iteration. */
    @State(Scope.Benchmark)
    public static class PrefabWorld {
        Path tmp;
        World w;
        long prefab;

        @Setup(Level.Iteration)
        public void setUp() throws IOException {
            ChronicleSupport.init();
            tmp = Files.createTempDirectory("quiver-jmh-");
            w = World.create(tmp.resolve("world"));
            Schema value = Schema.of("v", FieldType.F64);
            w.transaction(t -> {
                prefab = t.entity("Ship");
                t.add(prefab, Builtin.PREFAB);
                for (int i = 0; i < 10; i++) {
                    long c = t.component("C" + i, value);
                    t.set(prefab, c, new Object[] {(double) i});
                    long child = t.entity("Ship.part" + i);
                    t.add(child, Builtin.PREFAB);
                }
            });
        }

        @TearDown(Level.Iteration)
        public void tearDown() {
            w.close();
            Machine.deleteTree(tmp);
        }
    }

    /** A world with the 3-level IsA chain. */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        ChronicleSupport.init();
        tmp = Files.createTempDirectory("quiver-jmh-");
        w = World.create(tmp.resolve("world"));
        isA = Builtin.IS_A;
        Schema value = Schema.of("v", FieldType.F64);
        w.transaction(t -> {
            shared = t.component("Shared", value);
            t.add(shared, t.pair(Builtin.ON_INSTANTIATE, Builtin.INHERIT));
            long base = t.entity("Base0");
            t.set(base, shared, new Object[] {42.0});
            long b1 = t.entity("Base1");
            t.add(b1, t.pair(isA, base));
            long b2 = t.entity("Base2");
            t.add(b2, t.pair(isA, b1));
            leaf = t.entity("leaf");
            t.add(leaf, t.pair(isA, b2));
        });
        if (((Number) w.get(leaf, shared).get("v")).doubleValue() != 42.0) {
            throw new IllegalStateException("the inherited value is not read through the IsA chain");
        }
    }

    /** Removes the world. */
    @TearDown(Level.Trial)
    public void tearDown() {
        w.close();
        Machine.deleteTree(tmp);
    }

    /** Instantiates the prefab {@link #BATCH} times in one committed transaction; microseconds per instance. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    @OperationsPerInvocation(BATCH)
    public long instantiatePrefab(PrefabWorld p) {
        return p.w.transactionResult(t -> {
            long last = 0;
            for (int i = 0; i < BATCH; i++) {
                last = t.entity();
                t.add(last, t.pair(Builtin.IS_A, p.prefab));
            }
            return last;
        });
    }

    /**
     * The same batch through the batch API ({@code World.instantiate(prefab, BATCH)}: one
     * transaction, the instances after the first replicating it row by row into its tables);
     * microseconds per instance.
     */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    @OperationsPerInvocation(BATCH)
    public long instantiatePrefabBatch(PrefabWorld p) {
        long[] made = p.w.instantiate(p.prefab, BATCH);
        return made[BATCH - 1];
    }

    /** {@link #instantiatePrefabBatch} with {@link #BIG_BATCH} instances a transaction; microseconds per instance. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    @OperationsPerInvocation(BIG_BATCH)
    public long instantiatePrefabBatch1000(PrefabWorld p) {
        long[] made = p.w.instantiate(p.prefab, BIG_BATCH);
        return made[BIG_BATCH - 1];
    }
    /** {@code get} of an Inherit component the entity reads from the base three IsA steps up; nanoseconds. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public Object inheritedGet() {
        return w.get(leaf, shared);
    }

    /**
     * The same inherited value read as one number field ({@code World.getDouble}, which builds no
     * field map: Flecs' {@code get<T>} returns a pointer); nanoseconds.
     */
    @Benchmark
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public double inheritedGetDouble() {
        return w.getDouble(leaf, shared, 0);
    }
}
