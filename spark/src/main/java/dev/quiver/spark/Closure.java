package dev.quiver.spark;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.when;
import static org.apache.spark.sql.functions.xxhash64;

/**
 * Closure sizes, exact: for a vertex v, {@code descendants} is the number of other vertices v
 * reaches by a path of one or more edges and {@code ancestors} the number of other vertices that
 * reach v (v itself is never counted, even on a cycle). Output {@code id, descendants, ancestors}.
 *
 * <p>Computed by a breadth-first walk from many sources at once, down and up together, as
 * (source, direction, vertex) rows: each round extends the frontier by one edge and keeps the
 * rows not seen before, so the rounds are the longest shortest path and the data is the closure
 * of the chosen sources. For every vertex
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
        // both walks at once: direction 0 follows the edges (descendants), 1 goes against them (ancestors)
        Dataset<Row> steps = g.edges().select(lit(0).as("dir"), col("src").as("from"), col("dst").as("to"))
                .union(g.edges().select(lit(1).as("dir"), col("dst").as("from"), col("src").as("to"))).localCheckpoint();
        Dataset<Row> start = sources.select(col("id").as("source"), lit(0).as("dir"), col("id").as("v"))
                .union(sources.select(col("id").as("source"), lit(1).as("dir"), col("id").as("v"))).localCheckpoint();
        // visited is kept as the union of each round's new pairs, every one materialised once
        Dataset<Row> visited = start;
        Dataset<Row> frontier = start;
        while (true) {
            Dataset<Row> next = frontier.join(steps, frontier.col("dir").equalTo(steps.col("dir"))
                            .and(frontier.col("v").equalTo(steps.col("from"))))
                    .select(frontier.col("source"), frontier.col("dir"), steps.col("to").as("v")).distinct()
                    .join(visited, new String[] {"source", "dir", "v"}, "left_anti").localCheckpoint();
            if (next.isEmpty()) {
                break;
            }
            visited = visited.union(next);
            frontier = next;
        }
        Dataset<Row> counts = visited.where(col("source").notEqual(col("v"))).groupBy("source")
                .agg(sum(when(col("dir").equalTo(0), 1L).otherwise(0L)).as("descendants"),
                        sum(when(col("dir").equalTo(1), 1L).otherwise(0L)).as("ancestors"))
                .withColumnRenamed("source", "id");
        return sources.join(counts, "id", "left").select(col("id"),
                coalesce(col("descendants"), lit(0L)).as("descendants"),
                coalesce(col("ancestors"), lit(0L)).as("ancestors"));
    }
}
