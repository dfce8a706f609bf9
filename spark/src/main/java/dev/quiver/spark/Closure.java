package dev.quiver.spark;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.xxhash64;

/**
 * Closure sizes, exact: for a vertex v, {@code descendants} is the number of other vertices v
 * reaches by a path of one or more edges and {@code ancestors} the number of other vertices that
 * reach v (v itself is never counted, even on a cycle). Output {@code id, descendants, ancestors}.
 *
 * <p>Computed by a breadth-first walk from many sources at once, as (source, vertex) pairs: each
 * round extends the frontier by one edge and keeps the pairs not seen before, so the rounds are
 * the longest shortest path and the data is the closure of the chosen sources. For every vertex
 * that is the whole transitive closure (millions of pairs for a 60,000-package dependency graph),
 * so the job takes a sample by default: the {@code sample} vertices with the smallest
 * {@code xxhash64(id, seed)}, the same set on every run with the same seed.
 */
public final class Closure {
    private Closure() {}

    /**
     * @param sample the number of vertices to compute, or -1 for every vertex
     * @param seed   the sample's seed
     */
    public static Dataset<Row> sizes(Graph g, int sample, long seed) {
        Dataset<Row> sources = g.vertices().select("id");
        if (sample >= 0) {
            sources = sources.orderBy(xxhash64(col("id"), lit(seed)), col("id")).limit(sample);
        }
        sources = sources.localCheckpoint();
        Dataset<Row> forward = g.edges().select(col("src").as("from"), col("dst").as("to"));
        Dataset<Row> backward = g.edges().select(col("dst").as("from"), col("src").as("to"));
        Dataset<Row> down = reached(sources, forward).withColumnRenamed("n", "descendants");
        Dataset<Row> up = reached(sources, backward).withColumnRenamed("n", "ancestors");
        return sources.join(down, "id", "left").join(up, "id", "left").select(col("id"),
                coalesce(col("descendants"), lit(0L)).as("descendants"),
                coalesce(col("ancestors"), lit(0L)).as("ancestors"));
    }

    /** For each source, the number of other vertices reached along {@code steps} (from, to): {@code id, n}. */
    private static Dataset<Row> reached(Dataset<Row> sources, Dataset<Row> steps) {
        Dataset<Row> visited = sources.select(col("id").as("source"), col("id").as("v")).localCheckpoint();
        Dataset<Row> frontier = visited;
        while (true) {
            Dataset<Row> next = frontier.join(steps, col("v").equalTo(col("from")))
                    .select(col("source"), col("to").as("v")).distinct()
                    .join(visited, new String[] {"source", "v"}, "left_anti").localCheckpoint();
            if (next.isEmpty()) {
                break;
            }
            visited = visited.union(next).localCheckpoint();
            frontier = next;
        }
        return visited.where(col("source").notEqual(col("v"))).groupBy("source").count()
                .select(col("source").as("id"), col("count").as("n"));
    }
}
