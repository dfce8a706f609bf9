package dev.quiver.spark;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

import java.io.PrintStream;

/**
 * The Spark job: reads a Quiver export ({@code quiver export WORLD DIR --format parquet}) and
 * writes one result per analysis to {@code OUT_DIR/<analysis>.parquet} (or {@code .csv}), each a
 * directory holding one part file, as Spark writes them:
 * <ul>
 *   <li>{@code wcc}: {@code id, component} (smallest id of the weakly connected component);</li>
 *   <li>{@code scc}: {@code id, component} (smallest id of the strongly connected component;
 *       once at most {@code --scc-local-finish} edges remain, 1,000,000 by default, the rest is
 *       finished on the driver);</li>
 *   <li>{@code closure}: {@code id, descendants, ancestors} for a sample of vertices
 *       ({@code --closure-sample}, 1000 by default; {@code all} for every vertex);</li>
 *   <li>{@code degree}: {@code id, in_degree, out_degree, degree};</li>
 *   <li>{@code pagerank}: {@code id, rank} (20 iterations, damping 0.85, ranks sum to 1).</li>
 * </ul>
 * The graph is the export's vertices and the distinct (src, dst) pairs of the selected
 * relationships' edges ({@link Graph}). Run it with {@code spark-submit --class
 * dev.quiver.spark.GraphAnalyticsJob quiver-spark.jar --input ... --output ...}.
 */
public final class GraphAnalyticsJob {
    private GraphAnalyticsJob() {}

    /** Runs the job and exits: 0 when done, 2 for bad arguments. */
    public static void main(String[] args) {
        int code = run(System.out, System.err, args);
        if (code != 0) {
            System.exit(code);
        }
    }

    /**
     * Runs the job in this JVM, on the session spark-submit configured (or a new one on
     * {@code --master}).
     *
     * @param log one line per analysis written, with its time
     * @return 0 when done, 2 for bad arguments (one line and the usage on {@code err})
     */
    public static int run(PrintStream log, PrintStream err, String... args) {
        JobOptions options;
        try {
            options = JobOptions.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("quiver-spark: " + e.getMessage());
            err.println(JobOptions.USAGE);
            return 2;
        }
        SparkSession.Builder builder = SparkSession.builder().appName("quiver-analytics");
        if (options.master() != null) {
            builder.master(options.master());
        }
        SparkSession spark = builder.getOrCreate();
        Graph g;
        try {
            g = Graph.read(spark, options.input(), options.relationships());
        } catch (IllegalArgumentException e) {
            err.println("quiver-spark: " + e.getMessage());
            return 2;
        }
        for (JobOptions.Analysis a : options.analyses()) {
            long start = System.nanoTime();
            var writer = analyse(g, a, options).coalesce(1).write().mode(SaveMode.ErrorIfExists);
            String path = options.output() + "/" + a.id() + "." + options.outputFormat();
            if (options.outputFormat().equals("csv")) {
                writer.option("header", "true").csv(path);
            } else {
                writer.parquet(path);
            }
            log.printf("quiver-spark: %s written to %s in %d ms%n", a.id(), path, (System.nanoTime() - start) / 1_000_000);
        }
        return 0;
    }

    /** Runs one analysis (the iterative ones run their rounds here; the result is then one plan). */
    public static Dataset<Row> analyse(Graph g, JobOptions.Analysis a, JobOptions options) {
        switch (a) {
            case WCC: return Components.weak(g);
            case SCC: return Components.strong(g, options.localFinish());
            case CLOSURE: return Closure.sizes(g, options.closureSample(), options.seed());
            case DEGREE: return Degrees.compute(g);
            case PAGERANK: return PageRank.compute(g, options.pageRankIterations(), options.damping());
            default: throw new IllegalStateException(a.toString());
        }
    }
}
