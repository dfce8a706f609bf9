package dev.quiver.spark;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The job's command line: {@code --input EXPORT_DIR --output OUT_DIR [--relationship R[,R2]]
 * [--analyses wcc,scc,closure,degree,pagerank] [--closure-sample N|all] [--pagerank-iterations N]
 * [--damping D] [--seed N] [--scc-local-finish EDGES] [--output-format parquet|csv] [--master URL]}.
 *
 * @param input              the export directory: vertices.parquet and edges.parquet (files or
 *                           directories of part files), or vertices.csv and edges.csv
 * @param output             the result directory; one Parquet (or CSV) output per analysis
 * @param relationships      relationships whose edges form the graph; empty for all
 * @param analyses           the analyses to run, in the order given
 * @param closureSample      number of vertices whose closure sizes are computed; -1 for every vertex
 * @param pageRankIterations PageRank power iterations
 * @param damping            PageRank damping factor
 * @param seed               seed of the closure sample
 * @param localFinish        SCC: the largest number of remaining edges finished on the driver
 * @param outputFormat       {@code parquet} or {@code csv}
 * @param master             Spark master URL, or null to take spark-submit's
 */
public record JobOptions(String input, String output, List<String> relationships, List<Analysis> analyses,
                         int closureSample, int pageRankIterations, double damping, long seed, long localFinish, String outputFormat,
                         String master) {

    /** The analyses the job knows, by their command-line names. */
    public enum Analysis {
        WCC, SCC, CLOSURE, DEGREE, PAGERANK;

        /** The command-line name and the output name: {@code wcc}, {@code pagerank}, ... */
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }

        static Analysis parse(String s) {
            for (Analysis a : values()) {
                if (a.id().equals(s.trim().toLowerCase(Locale.ROOT))) {
                    return a;
                }
            }
            throw new IllegalArgumentException("unknown analysis '" + s + "' (expected wcc, scc, closure, degree, pagerank)");
        }
    }

    /** The usage text printed on bad arguments. */
    public static final String USAGE = "usage: --input EXPORT_DIR --output OUT_DIR [--relationship R[,R2]] "
            + "[--analyses wcc,scc,closure,degree,pagerank] [--closure-sample N|all] [--pagerank-iterations N] "
            + "[--damping D] [--seed N] [--scc-local-finish EDGES] [--output-format parquet|csv] [--master URL]";

    /**
     * Parses the arguments.
     *
     * @throws IllegalArgumentException with a one-line message for a missing, unknown or malformed argument
     */
    public static JobOptions parse(String... args) {
        String input = null, output = null, format = "parquet", master = null;
        List<String> rels = new ArrayList<>();
        List<Analysis> analyses = new ArrayList<>(Arrays.asList(Analysis.values()));
        int sample = 1000, iterations = 20;
        double damping = 0.85;
        long seed = 1;
        long localFinish = 1_000_000;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument '" + a + "'");
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(a + " needs a value");
            }
            String v = args[++i];
            switch (a) {
                case "--input": input = v; break;
                case "--output": output = v; break;
                case "--relationship":
                    for (String r : v.split(",")) {
                        if (!r.isBlank()) {
                            rels.add(r.trim());
                        }
                    }
                    break;
                case "--analyses": {
                    Set<Analysis> set = new LinkedHashSet<>();
                    for (String s : v.split(",")) {
                        set.add(Analysis.parse(s));
                    }
                    analyses = new ArrayList<>(set);
                    break;
                }
                case "--closure-sample":
                    sample = v.equals("all") ? -1 : positive(a, v);
                    break;
                case "--pagerank-iterations": iterations = positive(a, v); break;
                case "--damping":
                    try {
                        damping = Double.parseDouble(v);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("--damping needs a number, got '" + v + "'");
                    }
                    if (!(damping > 0 && damping < 1)) {
                        throw new IllegalArgumentException("--damping must be between 0 and 1, got " + v);
                    }
                    break;
                case "--seed":
                    try {
                        seed = Long.parseLong(v);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("--seed needs an integer, got '" + v + "'");
                    }
                    break;
                case "--scc-local-finish":
                    try {
                        localFinish = Long.parseLong(v);
                    } catch (NumberFormatException e) {
                        localFinish = -1;
                    }
                    if (localFinish < 0) {
                        throw new IllegalArgumentException("--scc-local-finish needs an edge count of 0 or more, got '" + v + "'");
                    }
                    break;
                case "--output-format":
                    if (!v.equals("parquet") && !v.equals("csv")) {
                        throw new IllegalArgumentException("--output-format must be parquet or csv, got '" + v + "'");
                    }
                    format = v;
                    break;
                case "--master": master = v; break;
                default: throw new IllegalArgumentException("unknown option " + a);
            }
        }
        if (input == null || output == null) {
            throw new IllegalArgumentException(input == null ? "--input is required" : "--output is required");
        }
        return new JobOptions(input, output, List.copyOf(rels), List.copyOf(analyses), sample, iterations, damping, seed, localFinish,
                format, master);
    }

    private static int positive(String option, String v) {
        try {
            int n = Integer.parseInt(v);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(option + " needs a positive integer, got '" + v + "'");
    }
}
