package dev.quiver.spark;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.sum;

/**
 * PageRank by power iteration, with the conventions of the Quiver analytics: N vertices, every
 * rank 1/N at the start, then a fixed number of iterations of
 * {@code rank'(v) = (1 - d) / N + d * (sum over edges u->v of rank(u) / outdeg(u) + dangling / N)},
 * where {@code dangling} is the total rank of the vertices without outgoing edges (spread evenly,
 * so the ranks always sum to 1). Output {@code id, rank}.
 */
public final class PageRank {
    private PageRank() {}

    /**
     * @param iterations number of iterations (20 by default in the job)
     * @param damping    the damping factor d (0.85 by default)
     */
    public static Dataset<Row> compute(Graph g, int iterations, double damping) {
        long n = g.vertices().count();
        if (n == 0) {
            return g.vertices().select(col("id"), lit(0.0).as("rank"));
        }
        Dataset<Row> outDegree = g.edges().groupBy("src").count().select(col("src").as("id"), col("count").as("outdeg"));
        Dataset<Row> vertices = g.vertices().join(outDegree, "id", "left")
                .select(col("id"), coalesce(col("outdeg"), lit(0L)).as("outdeg")).localCheckpoint();
        Dataset<Row> ranks = vertices.select(col("id"), lit(1.0 / n).as("rank")).localCheckpoint();
        for (int i = 0; i < iterations; i++) {
            Dataset<Row> withDegree = ranks.join(vertices, "id");
            Dataset<Row> dangling = withDegree.where(col("outdeg").equalTo(0))
                    .agg(coalesce(sum("rank"), lit(0.0)).as("dangling"));
            Dataset<Row> incoming = g.edges()
                    .join(withDegree.select(col("id").as("src"), col("rank").divide(col("outdeg")).as("share")), "src")
                    .groupBy("dst").agg(sum("share").as("incoming")).withColumnRenamed("dst", "id");
            ranks = vertices.select("id").join(incoming, "id", "left").crossJoin(dangling)
                    .select(col("id"), lit((1 - damping) / n).plus(lit(damping).multiply(
                            coalesce(col("incoming"), lit(0.0)).plus(col("dangling").divide(n)))).as("rank"))
                    .localCheckpoint();
        }
        return ranks;
    }
}
