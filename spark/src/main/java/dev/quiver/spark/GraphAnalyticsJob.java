package dev.quiver.spark;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Spark job: reads a Quiver export ({@code quiver export WORLD DIR --format parquet}) and
 * writes one result per analysis to {@code OUT_DIR/<analysis>.parquet} (or {@code .csv}), each a
 * directory holding one part file, as Spark writes them:
 * <ul>
 *   <li>{@code wcc}: {@code id, component} (smallest id of the weakly connected component);</li>
 *   <li>{@code scc}: {@code id, component} (smallest id of the strongly connected component);</li>
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
        int code = run(System.err, args);
        if (code != 0) {
            System.exit(code);
        }
    }

    /**
     * Runs the job in this JVM, on the session spark-submit configured (or a new one on
     * {@code --master}).
     *
     * @return 0 when done, 2 for bad arguments (one line and the usage on {@code err})
     */
    public static int run(PrintStream err, String... args) {
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
        for (Map.Entry<String, Dataset<Row>> r : analyse(g, options).entrySet()) {
            var writer = r.getValue().coalesce(1).write().mode(SaveMode.ErrorIfExists);
            String path = options.output() + "/" + r.getKey() + "." + options.outputFormat();
            if (options.outputFormat().equals("csv")) {
                writer.option("header", "true").csv(path);
            } else {
                writer.parquet(path);
            }
        }
        return 0;
    }

    /** Runs the chosen analyses; results by analysis name, in the order asked. */
    public static Map<String, Dataset<Row>> analyse(Graph g, JobOptions options) {
        Map<String, Dataset<Row>> out = new LinkedHashMap<>();
        for (JobOptions.Analysis a : options.analyses()) {
            Dataset<Row> result;
            switch (a) {
                case WCC: result = Components.weak(g); break;
                case SCC: result = Components.strong(g); break;
                case CLOSURE: result = Closure.sizes(g, options.closureSample(), options.seed()); break;
                case DEGREE: result = Degrees.compute(g); break;
                case PAGERANK: result = PageRank.compute(g, options.pageRankIterations(), options.damping()); break;
                default: throw new IllegalStateException(a.toString());
            }
            out.put(a.id(), result);
        }
        return out;
    }
}
