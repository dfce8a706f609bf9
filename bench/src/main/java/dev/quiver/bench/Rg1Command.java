package dev.quiver.bench;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * {@code quiver-bench rg1}: the RG-1 workload of bench/RG1.md. Each repeat creates the world from
 * nothing in a fresh directory and runs every operation in order (load, iter, trans, transvar,
 * join, lookup, delete, reopen, snapshot), checking every count and sum; then one line per
 * operation gives the median and the range over the repeats, followed by peak RSS, bytes on disk,
 * the JVM and the machine.
 */
@Command(name = "rg1", header = "Run the RG-1 workload (bench/RG1.md) and print every figure.",
        description = {"Each repeat builds the RG-1 world (F=10, depth D) through the library API in a fresh "
                + "world directory and runs load, iter, trans, transvar, join, lookup, delete, reopen and snapshot, "
                + "checking every expected count and sum (a mismatch exits 1). Prints the median and min-max of each "
                + "figure over the repeats. D=4 takes seconds; D=6 (1,111,111 nodes) takes about half a "
                + "minute a repeat within -Xmx1g (bench/quiver-bench's default options); D=7 (11,111,111 nodes) about a "
                + "minute within -Xmx4g."})
final class Rg1Command extends BenchCommand {
    @Option(names = "--depth", paramLabel = "D", defaultValue = "6",
            description = "Tree depth, " + Rg1Spec.MIN_DEPTH + " to " + Rg1Spec.MAX_DEPTH + " (default ${DEFAULT-VALUE}: "
                    + "1,111,111 nodes; 4: 11,111).")
    int depth;

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "3",
            description = "Repeats of the whole workload, each on a new world (default ${DEFAULT-VALUE}).")
    int repeat;

    @Override
    public Integer call() {
        Rg1Spec rg = new Rg1Spec(depth);
        if (repeat < 1) {
            throw new BenchInputException("--repeat must be at least 1, got " + repeat);
        }
        checkCommonOptions();
        String loadAtStart = Machine.loadAverage();
        out().println(String.format(Locale.ROOT, "RG-1 D=%d: F=%d, N=%s nodes, %s Likes pairs; %d repeat%s, each on a "
                        + "new world", depth, Rg1Spec.FANOUT, count(rg.nodes()), count(rg.likesCount()), repeat,
                repeat == 1 ? "" : "s"));
        Figures fig = new Figures();
        Path work = workDirectory("quiver-bench-rg1-");
        Path round = null;
        try {
            for (int r = 1; r <= repeat; r++) {
                if (round != null) {
                    Machine.deleteTree(round);
                }
                round = work.resolve("round-" + r);
                String tag = String.format(Locale.ROOT, "  [%d/%d] ", r, repeat);
                new Rg1Round(rg, round, fig, line -> {
                    out().println(tag + line);
                    out().flush();
                }).run();
            }
        } finally {
            cleanUp(work, round);
        }
        if (keep) {
            out().println("kept the last world and snapshot in " + round);
        }
        out().println();
        summary(rg, fig);
        printEnvironment(loadAtStart);
        out().println("every count and sum as expected");
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("depth", depth);
        m.put("fanout", Rg1Spec.FANOUT);
        m.put("nodes", rg.nodes());
        m.put("repeat", repeat);
        fig.flat().forEach((k, v) -> m.put(k, k.endsWith("_bytes") ? (Object) Math.round((Double) v) : v));
        // every run of the figures measured several times per repeat, in order: where the JIT
        // compiler's progress shows (the first runs execute code of its lower tiers)
        for (String k : new String[] {"join_ms", "lookup_ns"}) {
            m.put(k + "_runs", fig.get(k).values());
        }
        m.putAll(environment(loadAtStart));
        writeJson(m);
        return QuiverBench.OK;
    }

    private void summary(Rg1Spec rg, Figures f) {
        out().println(String.format(Locale.ROOT, "RG-1 D=%d, median (min-max) of %d repeat%s; every line's counts "
                + "checked", depth, repeat, repeat == 1 ? "" : "s"));
        line("load", figure(f.get("load_s"), "s"), num(f.median("load_entities_per_s")) + " entities/s; "
                + count(f.count("load_entities")) + " entities, " + Machine.bytes(Math.round(f.median("load_disk_bytes")))
                + " on disk");
        line("iter", figure(f.get("iter_ns_per_result"), "ns/result"), "first run " + figure(f.get("iter_first_ns_per_result"), "ns") + "; " + count(f.count("iter_count"))
                + " results of " + Rg1Round.ITER + ", sum of Position.x " + count(f.count("iter_sum")));
        line("trans", figure(f.get("trans_ms"), "ms/query"), "first pass " + figure(f.get("trans_first_ms"), "ms")
                + ", thread CPU " + figure(f.get("trans_cpu_ms"), "ms") + "; "
                + Rg1Spec.TRANS_QUERIES + " queries (LocatedIn, n1..n10) x "
                + count(f.count("trans_count")) + " results; count() only " + figure(f.get("trans_count_ms"), "ms"));
        line("transvar", figure(f.get("transvar_s"), "s"), "first run " + figure(f.get("transvar_first_s"), "s")
                + ", thread CPU " + figure(f.get("transvar_cpu_s"), "s") + "; " + count(f.count("transvar_count")) + " rows of "
                + Rg1Round.TRANSVAR + ", " + num(f.median("transvar_rows_per_s")) + " rows/s; count() only "
                + figure(f.get("transvar_count_s"), "s"));
        line("join", figure(f.get("join_ms"), "ms"), "first run " + figure(f.get("join_first_ms"), "ms")
                + ", thread CPU " + figure(f.get("join_cpu_ms"), "ms") + "; "
                + count(f.count("join_count")) + " results of " + Rg1Round.JOIN
                + ", sum of Position.x of $y " + count(f.count("join_sum")));
        line("lookup", figure(f.get("lookup_ns"), "ns/check"), "first run " + figure(f.get("lookup_first_ns"), "ns") + "; "
                + count(f.count("lookup_hits")) + " of "
                + count(Rg1Spec.LOOKUPS) + " has-pair checks true");
        line("delete", figure(f.get("delete_s"), "s"), "n1 and its subtree (" + count(rg.subtreeSize())
                + " entities); left: " + count(f.count("delete_nodes_left")) + " nodes, "
                + count(f.count("delete_located_in_left")) + " (LocatedIn, *|self), "
                + count(f.count("delete_likes_left")) + " Likes pairs");
        line("reopen", "open " + figure(f.get("reopen_open_s"), "s"), "(after a close of " + figure(f.get("reopen_close_s"), "s")
                + ") first query (LocatedIn, n2) "
                + figure(f.get("reopen_first_query_ms"), "ms") + " (thread CPU " + figure(f.get("reopen_first_query_cpu_ms"), "ms")
                + ", collections " + figure(f.get("reopen_first_query_gc_ms"), "ms") + "), "
                + count(f.count("reopen_first_query_count"))
                + " results, allocated " + Machine.bytes(Math.round(f.median("reopen_first_query_alloc_bytes")))
                + ", decoded " + num(f.median("reopen_first_query_reverse_pages")) + " reverse pages ("
                + num(f.median("reopen_first_query_reverse_skipped")) + " lookups skipped by their summaries), "
                + num(f.median("reopen_first_query_entity_pages")) + " entity pages ("
                + num(f.median("reopen_first_query_entity_name_sections")) + " of their names sections), "
                + num(f.median("reopen_first_query_row_pages")) + " row pages; on disk " + diskBytes(f.median("disk_bytes")) + ", allocated "
                + Machine.bytes(Math.round(f.median("disk_allocated_bytes"))));
        line("snapshot", figure(f.get("snapshot_s"), "s"), diskBytes(f.median("snapshot_bytes")) + ", "
                + count(f.count("snapshot_pages")) + " pages, verified");
        StringBuilder mem = new StringBuilder();
        for (String op : Rg1Round.OPERATIONS) {
            mem.append(mem.length() == 0 ? "" : ", ").append(op).append(' ')
                    .append(mib(f.median("mem_" + op + "_heap_bytes"))).append('/')
                    .append(mib(f.median("mem_" + op + "_heap_committed_bytes"))).append('/')
                    .append(mib(f.median("mem_" + op + "_rss_bytes"))).append(" (file ")
                    .append(mib(f.median("mem_" + op + "_rss_file_bytes"))).append(")/")
                    .append(mib(f.median("mem_" + op + "_peak_rss_bytes")));
        }
        line("memory", "after each operation", "heap in use after a full GC / heap committed / RSS (of it mapping files) / peak RSS so far, MiB (medians): " + mem);
    }

    private static String mib(double bytes) {
        return Double.isNaN(bytes) || bytes < 0 ? "?" : String.format(Locale.ROOT, "%.0f", bytes / (1 << 20));
    }

    private static String diskBytes(double bytes) {
        long b = Math.round(bytes);
        return Machine.bytes(b) + " (" + count(b) + " bytes)";
    }

    private void line(String op, String figure, String details) {
        out().println(String.format(Locale.ROOT, "%-9s %-32s %s", op, figure, details));
    }
}
