package dev.quiver.bench.jmh;

import dev.quiver.bench.Machine;
import dev.quiver.bench.Rg1Spec;
import dev.quiver.bench.Rg1World;
import dev.quiver.index.ChronicleSupport;
import dev.quiver.query.Query;
import dev.quiver.storage.World;
import dev.quiver.storage.table.Table;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
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
 * The RG-1 join (bench/RG1.md step 5, {@code rg1}'s {@code join} figure) as a JMH benchmark: query
 * {@code (Likes, $y), Position($y)} parsed and iterated row by row, Position.x of {@code $y} read
 * from the table and row the engine bound {@code $y} with, summed. On an RG-1 world of depth
 * {@link #depth} (default 6: 1,111,111 nodes, 10,000 Likes pairs; 5: 1,000 pairs) built once per
 * fork. Average time of one whole join in microseconds; {@code -prof gc} gives its allocation
 * (divide by the rows for bytes per row). Steady state only: the {@code rg1} figure also pays for
 * the first runs while the JIT compiles the row path. {@link #join} iterates as {@code rg1} does,
 * with one reused row ({@link Query#forEachReused}); {@link #joinNewRows} with a new row per
 * result ({@link Query#forEach}), for the allocation that saves.
 *
 * <p>Run with {@code java -jar bench/target/quiver-bench.jar jmh Join}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
public class Join extends ChronicleFork {
    /** RG-1 depth of the world the benchmark runs on. */
    @Param({"6"})
    public int depth;

    private Path tmp;
    private Rg1World rg;
    private World w;
    private Rg1Spec spec;
    /** The expected count and sum, computed once: each walks the million nodes (about 40% of a measured join when it ran per call). */
    private long wantCount;
    private long wantSum;

    /**
     * Builds the world, then closes and reopens it: the close's checkpoint seals what the load
     * wrote, so no background settling of the load runs while the join is measured.
     */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        ChronicleSupport.init();
        tmp = Files.createTempDirectory("quiver-jmh-join-");
        spec = new Rg1Spec(depth);
        wantCount = spec.likesCount();
        wantSum = spec.joinSum();
        rg = Rg1World.create(spec, tmp.resolve("world"));
        rg.reopen();
        w = rg.world();
    }

    /** Removes the world. */
    @TearDown(Level.Trial)
    public void tearDown() {
        rg.close();
        Machine.deleteTree(tmp);
    }

    /**
     * One join: the sum of Position.x over the targets of all Likes pairs (checked against RG-1's
     * expected sum, so that a wrong answer never passes for a fast one).
     */
    @Benchmark
    public long join() {
        return sum(true);
    }

    /** {@link #join} with a new row object per result ({@link Query#forEach}). */
    @Benchmark
    public long joinNewRows() {
        return sum(false);
    }

    private long sum(boolean reuse) {
        Rg1World.PositionX px = rg.new PositionX();
        long[] acc = new long[2];
        java.util.function.Consumer<dev.quiver.query.QueryRow> add = r -> {
            Table t = r.fieldTable(1);
            acc[0]++;
            acc[1] += (long) (t != null ? px.at(t, r.fieldRow(1)) : px.of(r.variable("y")));
        };
        Query q = Query.parse(w, "(Likes, $y), Position($y)");
        if (reuse) {
            q.forEachReused(add);
        } else {
            q.forEach(add);
        }
        if (acc[0] != wantCount || acc[1] != wantSum) {
            throw new IllegalStateException("join: " + acc[0] + " rows, sum " + acc[1] + "; expected "
                + wantCount + ", " + wantSum);
        }
        return acc[1];
    }
}
