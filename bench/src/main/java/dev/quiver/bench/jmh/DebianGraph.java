package dev.quiver.bench.jmh;

import dev.quiver.bench.Machine;
import dev.quiver.index.ChronicleSupport;
import dev.quiver.query.Query;
import dev.quiver.snapshots.TsvLoader;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.World;
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
 * JMH benchmarks of the transitive query of issue 10 on the real Debian dependency graph
 * ({@link #file}, default {@code testdata/debian_deps.tsv.gz}: 61,000 entities; run from the
 * repository root), loaded once per fork into a world in a temporary directory, DependsOn
 * declared Transitive: {@code (DependsOn, libc6)}, 49,540 sources through cycles. Average time per
 * query in microseconds: parse and hand out every result ({@link #forEach}, as
 * {@code quiver-bench graph} times it), parse and count ({@link #count}), and the same with the
 * backward walk done again ({@link #forEachAfterWrite}: a write before each query empties the
 * closures kept across evaluations). Add {@code -prof gc} for the bytes allocated per query.
 *
 * <p>Run with {@code java -jar bench/target/quiver-bench.jar jmh DebianGraph}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
public class DebianGraph extends ChronicleFork {
    static final String QUERY = "(DependsOn, libc6)";
    static final long RESULTS = 49_540;

    /** The pair file (subject, relationship, target), relative to the working directory. */
    @Param({"testdata/debian_deps.tsv.gz"})
    public String file;

    private Path tmp;
    private World w;
    private long scratch;
    private long tag;

    /** Loads the graph, declares DependsOn Transitive and checks the answer's size. */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        ChronicleSupport.init();
        tmp = Files.createTempDirectory("quiver-jmh-debian-");
        w = World.create(tmp.resolve("world"));
        new TsvLoader(w).load(Path.of(file));
        w.add(w.lookup("DependsOn"), Builtin.TRANSITIVE);
        scratch = w.entity();
        tag = w.entity();
        long n = forEach();
        if (n != RESULTS) {
            throw new IllegalStateException(QUERY + " gave " + n + " results, expected " + RESULTS);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        w.close();
        Machine.deleteTree(tmp);
    }

    /** Parses the query and hands out every result; returns their count. */
    @Benchmark
    public long forEach() {
        long[] n = {0};
        Query.parse(w, QUERY).forEach(r -> n[0]++);
        return n[0];
    }

    /** Parses the query and counts its results. */
    @Benchmark
    public long count() {
        return Query.parse(w, QUERY).count();
    }

    /**
     * {@link #forEach} after a write (a tag added to or removed from an entity outside the graph),
     * so that the backward walk and the lookup of where its sources lie are done again.
     */
    @Benchmark
    public long forEachAfterWrite() {
        if (w.has(scratch, tag)) {
            w.remove(scratch, tag);
        } else {
            w.add(scratch, tag);
        }
        return forEach();
    }
}
