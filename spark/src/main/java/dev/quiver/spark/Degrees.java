package dev.quiver.spark;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

/** Degrees: {@code id, in_degree, out_degree, degree} (degree = in + out; a self-loop counts in both). */
public final class Degrees {
    private Degrees() {}

    public static Dataset<Row> compute(Graph g) {
        Dataset<Row> out = g.edges().groupBy("src").count().select(col("src").as("id"), col("count").as("out_degree"));
        Dataset<Row> in = g.edges().groupBy("dst").count().select(col("dst").as("id"), col("count").as("in_degree"));
        return g.vertices().join(in, "id", "left").join(out, "id", "left").select(col("id"),
                coalesce(col("in_degree"), lit(0L)).as("in_degree"),
                coalesce(col("out_degree"), lit(0L)).as("out_degree"),
                coalesce(col("in_degree"), lit(0L)).plus(coalesce(col("out_degree"), lit(0L))).as("degree"));
    }
}
