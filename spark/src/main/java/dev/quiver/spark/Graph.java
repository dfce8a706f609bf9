package dev.quiver.spark;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.apache.spark.sql.functions.col;

/**
 * The directed graph the analyses run on, read from a Quiver export (GraphFrames convention):
 * {@code vertices} has one column {@code id} (the 64-bit entity id, every exported vertex, isolated
 * ones included), {@code edges} has {@code src} and {@code dst}, each (src, dst) once however many
 * selected relationships link them, and only between exported vertices.
 */
public record Graph(Dataset<Row> vertices, Dataset<Row> edges) {

    /**
     * Reads an export directory: {@code vertices.parquet} and {@code edges.parquet} (single files or
     * directories of part files), else {@code vertices.csv} and {@code edges.csv} (with a header).
     *
     * @param relationships keep only the edges of these relationships (the {@code relationship}
     *                      column); empty for all
     * @throws IllegalArgumentException when the directory holds neither form
     */
    public static Graph read(SparkSession spark, String dir, List<String> relationships) {
        Dataset<Row> vertices;
        Dataset<Row> edges;
        Path d = Path.of(dir);
        if (Files.exists(d.resolve("vertices.parquet")) && Files.exists(d.resolve("edges.parquet"))) {
            vertices = spark.read().parquet(d.resolve("vertices.parquet").toString());
            edges = spark.read().parquet(d.resolve("edges.parquet").toString());
        } else if (Files.exists(d.resolve("vertices.csv")) && Files.exists(d.resolve("edges.csv"))) {
            vertices = spark.read().option("header", "true").csv(d.resolve("vertices.csv").toString());
            edges = spark.read().option("header", "true").csv(d.resolve("edges.csv").toString());
        } else if (!dir.contains("://")) {
            throw new IllegalArgumentException("no Quiver export in " + dir
                    + " (expected vertices.parquet and edges.parquet, or vertices.csv and edges.csv)");
        } else {
            // a cluster file system (hdfs://, s3a://): Parquet is the format to use there
            vertices = spark.read().parquet(dir + "/vertices.parquet");
            edges = spark.read().parquet(dir + "/edges.parquet");
        }
        if (!relationships.isEmpty()) {
            edges = edges.where(col("relationship").isin(relationships.toArray()));
        }
        Dataset<Row> ids = vertices.select(col("id").cast(DataTypes.LongType).as("id"));
        Dataset<Row> e = edges.select(col("src").cast(DataTypes.LongType).as("src"), col("dst").cast(DataTypes.LongType).as("dst"))
                .distinct()
                .join(ids.select(col("id").as("src")), "src", "left_semi")
                .join(ids.select(col("id").as("dst")), "dst", "left_semi")
                .select("src", "dst");
        return new Graph(ids.localCheckpoint(), e.localCheckpoint());
    }
}
