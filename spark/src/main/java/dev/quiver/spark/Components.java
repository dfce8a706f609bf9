package dev.quiver.spark;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

import java.util.ArrayList;
import java.util.List;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.greatest;
import static org.apache.spark.sql.functions.least;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.min;

/**
 * Weakly and strongly connected components, in Spark SQL DataFrames. Both label a component with
 * the smallest vertex id in it: output {@code id, component}. Every iteration is materialised
 * ({@code localCheckpoint}) so that plans do not grow with the number of rounds.
 */
public final class Components {
    private Components() {}

    /**
     * Weakly connected components: min-label propagation over the undirected edges, with pointer
     * jumping (a vertex takes its label's label) after each round, which shortens the rounds from
     * the diameter to about its logarithm on long chains. Labels only decrease and are always ids
     * of the same component, so at the fixpoint (no label changes) every label is its component's
     * smallest id.
     */
    public static Dataset<Row> weak(Graph g) {
        Dataset<Row> und = g.edges().select(col("src").as("a"), col("dst").as("b"))
                .union(g.edges().select(col("dst").as("a"), col("src").as("b")))
                .where(col("a").notEqual(col("b"))).distinct().localCheckpoint();
        Dataset<Row> labels = g.vertices().select(col("id"), col("id").as("label")).localCheckpoint();
        while (true) {
            Dataset<Row> neighbourMin = und.join(labels.select(col("id").as("b"), col("label").as("lb")), "b")
                    .groupBy("a").agg(min("lb").as("m")).withColumnRenamed("a", "id");
            Dataset<Row> step = labels.join(neighbourMin, "id", "left").select(col("id"), col("label").as("old"),
                    least(col("label"), coalesce(col("m"), col("label"))).as("label")).localCheckpoint();
            Dataset<Row> jumped = step.as("s").join(step.as("t"), col("s.label").equalTo(col("t.id")))
                    .select(col("s.id").as("id"), col("s.old").as("old"), least(col("s.label"), col("t.label")).as("label"))
                    .localCheckpoint();
            labels = jumped.select("id", "label");
            if (jumped.where(col("label").notEqual(col("old"))).isEmpty()) {
                return labels.withColumnRenamed("label", "component");
            }
        }
    }

    /**
     * Strongly connected components, by trimming and forward-backward colouring (Orzan; McLendon
     * et al., "Finding strongly connected components in distributed graphs", 2005), repeated until
     * no vertex is left:
     * <ol>
     *   <li>trim: a vertex with no incoming or no outgoing edge among the remaining vertices is an
     *       SCC by itself; remove it, and repeat until none is left (on dependency graphs, most
     *       vertices go here);</li>
     *   <li>colour: every vertex takes the largest id that reaches it (max-propagation along the
     *       edges to a fixpoint); a vertex whose colour is its own id is a root;</li>
     *   <li>the SCC of a root r is the set of vertices of colour r that reach r: a backward walk
     *       from r along edges whose two ends have colour r. Those SCCs are removed.</li>
     * </ol>
     * Once the remaining edges number at most {@code localFinish}, the remainder is collected and
     * finished on the driver with Tarjan's algorithm ({@link LocalScc}): the rounds of the steps
     * above cost a Spark job each, however small the remainder (a dependency graph's last
     * thousand vertices take dozens of rounds). 0 keeps every step in Spark.
     *
     * @param localFinish the largest number of remaining edges finished on the driver
     */
    public static Dataset<Row> strong(Graph g, long localFinish) {
        Dataset<Row> active = g.vertices().select("id");
        long activeCount = active.count();
        Dataset<Row> e = g.edges().where(col("src").notEqual(col("dst"))).localCheckpoint();
        List<Dataset<Row>> found = new ArrayList<>();
        long edgeCount = e.count();
        while (activeCount > 0) {
            if (edgeCount <= localFinish) {
                found.add(finishOnDriver(active, e));
                break;
            }
            while (true) {
                Dataset<Row> keep = active
                        .join(e.select(col("src").as("id")).distinct(), "id", "left_semi")
                        .join(e.select(col("dst").as("id")).distinct(), "id", "left_semi").localCheckpoint();
                long kept = keep.count();
                if (kept == activeCount) {
                    break;
                }
                active = keep;
                activeCount = kept;
                e = within(e, keep);
                edgeCount = e.count();
                if (edgeCount <= localFinish) {
                    break;
                }
            }
            if (edgeCount <= localFinish) {
                continue;
            }
            if (activeCount == 0) {
                break;
            }
            Dataset<Row> color = active.select(col("id"), col("id").as("color")).localCheckpoint();
            while (true) {
                Dataset<Row> incoming = e.join(color.select(col("id").as("src"), col("color").as("c")), "src")
                        .groupBy("dst").agg(max("c").as("m")).withColumnRenamed("dst", "id");
                Dataset<Row> next = color.join(incoming, "id", "left").select(col("id"), col("color").as("old"),
                        greatest(col("color"), coalesce(col("m"), col("color"))).as("color")).localCheckpoint();
                color = next.select("id", "color");
                if (next.where(col("color").notEqual(col("old"))).isEmpty()) {
                    break;
                }
            }
            Dataset<Row> sameColor = e.join(color.select(col("id").as("src"), col("color").as("cs")), "src")
                    .join(color.select(col("id").as("dst"), col("color").as("cd")), "dst")
                    .where(col("cs").equalTo(col("cd"))).select("src", "dst").localCheckpoint();
            Dataset<Row> marked = color.where(col("id").equalTo(col("color"))).select("id").localCheckpoint();
            Dataset<Row> frontier = marked;
            while (true) {
                Dataset<Row> next = sameColor.join(frontier.select(col("id").as("dst")), "dst")
                        .select(col("src").as("id")).distinct().join(marked, "id", "left_anti").localCheckpoint();
                if (next.isEmpty()) {
                    break;
                }
                marked = marked.union(next).localCheckpoint();
                frontier = next;
            }
            found.add(marked.join(color, "id").select(col("id"), col("color").as("scc")).localCheckpoint());
            active = active.join(marked, "id", "left_anti").localCheckpoint();
            activeCount = active.count();
            e = within(e, active);
            edgeCount = e.count();
        }
        // a vertex no colouring round found was trimmed: an SCC by itself
        Dataset<Row> all = g.vertices().select("id");
        if (!found.isEmpty()) {
            all = all.join(found.stream().reduce(Dataset::union).get(), "id", "left");
        } else {
            all = all.withColumn("scc", lit(null).cast("long"));
        }
        all = all.select(col("id"), coalesce(col("scc"), col("id")).as("scc"));
        Dataset<Row> smallest = all.groupBy("scc").agg(min("id").as("component"));
        return all.join(smallest, "scc").select("id", "component");
    }

    /** Tarjan on the driver over the remaining vertices and edges: {@code id, scc}. */
    private static Dataset<Row> finishOnDriver(Dataset<Row> active, Dataset<Row> e) {
        List<Row> vertexRows = active.collectAsList();
        long[] ids = new long[vertexRows.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = vertexRows.get(i).getLong(0);
        }
        List<long[]> edges = new ArrayList<>();
        for (Row r : e.select("src", "dst").collectAsList()) {
            edges.add(new long[] {r.getLong(0), r.getLong(1)});
        }
        long[] scc = LocalScc.components(ids, edges);
        List<Row> rows = new ArrayList<>(ids.length);
        for (int i = 0; i < ids.length; i++) {
            rows.add(RowFactory.create(ids[i], scc[i]));
        }
        StructType schema = new StructType().add("id", DataTypes.LongType, false).add("scc", DataTypes.LongType, false);
        return active.sparkSession().createDataFrame(rows, schema);
    }

    /** The edges whose two ends are among {@code ids}. */
    private static Dataset<Row> within(Dataset<Row> edges, Dataset<Row> ids) {
        return edges.join(ids.select(col("id").as("src")), "src", "left_semi")
                .join(ids.select(col("id").as("dst")), "dst", "left_semi").select("src", "dst").localCheckpoint();
    }
}
