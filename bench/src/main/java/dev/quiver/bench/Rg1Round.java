package dev.quiver.bench;

import dev.quiver.query.Query;
import dev.quiver.query.iter.MemberColumn;
import dev.quiver.snapshots.SnapshotInfo;
import dev.quiver.snapshots.Snapshots;
import dev.quiver.storage.World;
import dev.quiver.storage.table.Table;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * One repeat of the RG-1 workload: every operation of bench/RG1.md in its order, on a world
 * created from nothing in a fresh directory. Each operation adds its timings to the
 * {@link Figures} and checks its counts and sums against {@link Rg1Spec} (a mismatch throws
 * {@link CheckFailedException}); only the operation itself is timed, never its checks.
 *
 * <p>Query operations time {@link Query#parse} plus the iteration of every result with
 * {@link Query#forEach} ({@code iter}: {@link Query#forEachTable}, a table at a time), the way a
 * caller consumes results; the {@code _count_} figures time the
 * same query answered by {@link Query#count()} and double as a check that both agree.
 */
final class Rg1Round {
    /** Figure keys (the unit ends the name) and the RG-1 queries. */
    static final String ITER = "Position, (LocatedIn, *|self)";
    static final String TRANSVAR = "(LocatedIn, $x)";
    static final String JOIN = "(Likes, $y), Position($y)";
    /**
     * Runs of each read-only operation that can be repeated on the same world (iter, trans (passes
     * over its ten queries), transvar, join, lookup;
     * RG1.md: "report each as median of repeats where it is repeatable"). The first run, which
     * also pays for class loading and JIT compilation of its path, is reported apart as well
     * ({@code _first_} figures) and counts among the runs.
     */
    static final int RUNS = 5;
    /** The operations in run order: the memory figures ({@code mem_<op>_...}) are taken after each. */
    static final String[] OPERATIONS = {"load", "iter", "trans", "transvar", "join", "lookup", "delete", "reopen", "snapshot"};

    private final Rg1Spec spec;
    private final Path dir;
    private final Figures fig;
    private final Consumer<String> progress;
    private Rg1World rg;

    /**
     * @param spec     the workload
     * @param dir      a fresh directory for this repeat: the world goes to {@code dir/world}, the
     *                 snapshot to {@code dir/rg1.qvsnap}
     * @param fig      where the figures go
     * @param progress receives one short line per operation ("load 1.23 s")
     */
    Rg1Round(Rg1Spec spec, Path dir, Figures fig, Consumer<String> progress) {
        this.spec = spec;
        this.dir = dir;
        this.fig = fig;
        this.progress = progress;
    }

    /** Runs every operation in RG1.md order, then closes the world (its files stay). */
    void run() {
        try {
            load();
            iter();
            trans();
            transvar();
            join();
            lookup();
            delete();
            reopen();
            snapshot();
            quiesce("snapshot");
        } finally {
            if (rg != null) {
                rg.close();
            }
        }
    }

    private void load() {
        quiesce(null);
        long t0 = System.nanoTime();
        rg = Rg1World.create(spec, dir.resolve("world"));
        double s = seconds(t0);
        fig.add("load_s", s);
        fig.add("load_entities_per_s", spec.nodes() / s);
        fig.add("load_disk_bytes", Machine.directoryBytes(rg.directory()));
        // the nodes plus Position, LocatedIn and Likes
        fig.count("load_entities", rg.world().entityCount(), spec.nodes() + 3L);
        progress.accept(String.format(Locale.ROOT, "load %.2f s", s));
    }

    /**
     * The {@code iter} operation, table by table ({@link Query#forEachTable}): each step is a
     * table's rows with the Position column, read through a typed member view; steps that come
     * without their table (none are expected) read Position.x through the entity index and are
     * counted.
     */
    private void iter() {
        quiesce("load");
        for (int k = 0; k < RUNS; k++) {
            iterOnce(k == 0);
        }
        progress.accept(String.format(Locale.ROOT, "iter %.1f ns/result (first run %.1f)", fig.median("iter_ns_per_result"),
            fig.median("iter_first_ns_per_result")));
    }

    private void iterOnce(boolean first) {
        World w = rg.world();
        long[] acc = new long[3];
        long t0 = System.nanoTime();
        Query.parse(w, ITER).forEachTable(t -> {
            int n = t.count();
            if (t.table() == null) {
                for (int i = 0; i < n; i++) {
                    acc[1] += (long) t.get(0, i, "x", Double.class).doubleValue();
                }
                acc[2] += n;
            } else {
                MemberColumn x = t.column(0).member("x");
                long sum = 0;
                for (int i = 0; i < n; i++) {
                    sum += (long) x.getDouble(i);
                }
                acc[1] += sum;
            }
            acc[0] += n;
            return true;
        });
        long ns = System.nanoTime() - t0;
        double per = (double) ns / Math.max(1, acc[0]);
        fig.add("iter_ns_per_result", per);
        if (first) {
            fig.add("iter_first_ns_per_result", per);
        }
        fig.count("iter_count", acc[0], spec.iterCount());
        fig.count("iter_sum", acc[1], spec.iterSum());
        fig.count("iter_rows_without_table", acc[2], 0);
    }

    /**
     * {@code trans}: {@link #RUNS} passes over the ten queries (each query is read-only, so
     * repeatable: RG1.md's median of repeats); the first pass, right after the load, is also
     * reported apart ({@code trans_first_ms}). Thread CPU time is recorded beside the wall time
     * ({@code _cpu_} figures): on a busy machine the wall time also counts the time the thread
     * waited for a core.
     */
    private void trans() {
        quiesce("iter");
        World w = rg.world();
        for (int pass = 0; pass < RUNS; pass++) {
            for (int k = 1; k <= Rg1Spec.TRANS_QUERIES; k++) {
                String text = "(LocatedIn, n" + k + ")";
                long rows = timedRows(w, text, "trans", "ms", 1e6, pass == 0).rows();
                fig.count("trans_count", rows, spec.transCount());
                long t0 = System.nanoTime();
                long counted = Query.parse(w, text).count();
                fig.add("trans_count_ms", millis(t0));
                CheckFailedException.check("trans: count() of " + text, counted, rows);
            }
        }
        progress.accept(String.format(Locale.ROOT, "trans %.2f ms/query (first pass %.2f)", fig.median("trans_ms"),
            fig.median("trans_first_ms")));
    }

    /** The rows of a timed run and its wall time in the run's unit. */
    private record Timed(long rows, double wall) {}

    /**
     * Runs {@code text} once, iterating every row, and records its wall time as {@code <name>_<unit>},
     * its thread CPU time as {@code <name>_cpu_<unit>} and, when {@code first}, the wall time again
     * as {@code <name>_first_<unit>}; {@code nanosPerUnit} is 1e6 for ms, 1e9 for s.
     */
    private Timed timedRows(World w, String text, String name, String unit, double nanosPerUnit, boolean first) {
        long c0 = Machine.threadCpuNanos();
        long t0 = System.nanoTime();
        long rows = rows(Query.parse(w, text));
        double wall = (System.nanoTime() - t0) / nanosPerUnit;
        fig.add(name + "_" + unit, wall);
        fig.add(name + "_cpu_" + unit, (Machine.threadCpuNanos() - c0) / nanosPerUnit);
        if (first) {
            fig.add(name + "_first_" + unit, wall);
        }
        return new Timed(rows, wall);
    }

    /** {@code transvar}: {@link #RUNS} runs (read-only, repeatable), the first also reported apart; CPU time beside. */
    private void transvar() {
        for (int k = 0; k < RUNS; k++) {
            quiesce(k == 0 ? "trans" : null);
            World w = rg.world();
            Timed run = timedRows(w, TRANSVAR, "transvar", "s", 1e9, k == 0);
            long rows = run.rows();
            fig.add("transvar_rows_per_s", rows / run.wall());
            fig.count("transvar_count", rows, spec.transvarCount());
            quiesce(null);
            long t0 = System.nanoTime();
            long counted = Query.parse(w, TRANSVAR).count();
            fig.add("transvar_count_s", seconds(t0));
            CheckFailedException.check("transvar: count()", counted, rows);
        }
        progress.accept(String.format(Locale.ROOT, "transvar %.2f s (first run %.2f)", fig.median("transvar_s"),
            fig.median("transvar_first_s")));
    }

    private void join() {
        quiesce("transvar");
        for (int k = 0; k < RUNS; k++) {
            joinOnce(k == 0);
        }
        progress.accept(String.format(Locale.ROOT, "join %.2f ms (first run %.2f), allocated %s a run", fig.median("join_ms"),
            fig.median("join_first_ms"), Machine.bytes(Math.round(fig.median("join_alloc_bytes")))));
    }

    private void joinOnce(boolean first) {
        World w = rg.world();
        Rg1World.PositionX px = rg.new PositionX();
        long[] acc = new long[3];
        long a0 = Machine.threadAllocatedBytes();
        long c0 = Machine.threadCpuNanos();
        long t0 = System.nanoTime();
        // one reused row for every result (Query.forEachReused): nothing is allocated per row, so no
        // young collection lands in a run (new rows were about 220 bytes each, 2.2 MB a run)
        Query.parse(w, JOIN).forEachReused(r -> {
            // field 1, Position($y): the engine bound $y with its table and row; entity index only when it did not
            acc[0]++;
            Table t = r.fieldTable(1);
            if (t != null) {
                acc[1] += (long) px.at(t, r.fieldRow(1));
            } else {
                acc[1] += (long) px.of(r.variable("y"));
                acc[2]++;
            }
        });
        double ms = millis(t0);
        fig.add("join_ms", ms);
        fig.add("join_cpu_ms", (Machine.threadCpuNanos() - c0) / 1e6);
        // parse and iteration: a figure the machine's load does not change
        fig.add("join_alloc_bytes", Machine.threadAllocatedBytes() - a0);
        if (first) {
            fig.add("join_first_ms", ms);
        }
        fig.count("join_count", acc[0], spec.likesCount());
        fig.count("join_sum", acc[1], spec.joinSum());
        fig.count("join_rows_without_table", acc[2], 0);
    }

    private void lookup() {
        quiesce("join");
        for (int k = 0; k < RUNS; k++) {
            lookupOnce(k == 0);
        }
        progress.accept(String.format(Locale.ROOT, "lookup %.1f ns/check (first run %.1f)", fig.median("lookup_ns"),
            fig.median("lookup_first_ns")));
    }

    private void lookupOnce(boolean first) {
        World w = rg.world();
        long located = rg.locatedIn();
        long hits = 0;
        long t0 = System.nanoTime();
        for (int j = 0; j < Rg1Spec.LOOKUPS; j++) {
            int i = spec.lookupNode(j);
            if (w.has(rg.node(i), w.pair(located, rg.node(Rg1Spec.parent(i))))) {
                hits++;
            }
        }
        double ns = (double) (System.nanoTime() - t0) / Rg1Spec.LOOKUPS;
        fig.add("lookup_ns", ns);
        if (first) {
            fig.add("lookup_first_ns", ns);
        }
        fig.count("lookup_hits", hits, Rg1Spec.LOOKUPS);
    }

    private void delete() {
        quiesce("lookup");
        World w = rg.world();
        long t0 = System.nanoTime();
        w.delete(rg.node(1));
        double s = seconds(t0);
        fig.add("delete_s", s);
        fig.count("delete_n1_alive", w.isAlive(rg.node(1)) ? 1 : 0, 0);
        fig.count("delete_nodes_left", Query.parse(w, "Position").count(), spec.nodesAfterDelete());
        fig.count("delete_located_in_left", Query.parse(w, "(LocatedIn, *|self)").count(),
                spec.nodesAfterDelete() - 1);
        fig.count("delete_likes_left", Query.parse(w, "(Likes, *)").count(), spec.likesAfterDelete());
        fig.count("delete_entities_left", w.entityCount(), spec.nodesAfterDelete() + 3);
        progress.accept(String.format(Locale.ROOT, "delete %.2f s", s));
    }

    private void reopen() {
        quiesce("delete");
        long t0 = System.nanoTime();
        rg.closeWorld(); // RG1.md: close, reopen; report the open seconds (the close's checkpoint apart)
        double close = seconds(t0);
        // No collection between the close and the open (tried, reopen6): with the launcher's heap
        // options a full collection here shrinks the old generation to about 40 MiB with 25 MiB
        // live, and the first query decodes 16-19 MiB of pages that stay live; the young collection
        // inside the query then cannot promote them and a full collection follows (in 3 of 4
        // repeats), where without it the closed world's garbage leaves the old generation room.
        t0 = System.nanoTime();
        rg.openWorld();
        double open = seconds(t0);
        // the first query's wall time, and what of it is this thread's CPU and collection time: a
        // young collection lands inside it whenever the open and the query allocate more than the
        // young generation has free (the query's decoded pages are live, so it copies them all)
        long gc0 = Machine.gcMillis();
        long a0 = Machine.threadAllocatedBytes();
        long c0 = Machine.threadCpuNanos();
        t0 = System.nanoTime();
        long rows = rows(Query.parse(rg.world(), "(LocatedIn, n2)"));
        double first = millis(t0);
        fig.add("reopen_first_query_cpu_ms", (Machine.threadCpuNanos() - c0) / 1e6);
        // what the query decoded and allocated: figures the machine's load does not change
        fig.add("reopen_first_query_alloc_bytes", Machine.threadAllocatedBytes() - a0);
        var pages = rg.world().pageReads();
        fig.add("reopen_first_query_reverse_pages", pages.reversePages());
        fig.add("reopen_first_query_reverse_skipped", pages.reverseLookupsSkipped());
        fig.add("reopen_first_query_entity_pages", pages.entityPages());
        fig.add("reopen_first_query_entity_name_sections", pages.entityNameSections());
        fig.add("reopen_first_query_row_pages", pages.rowPages());
        fig.add("reopen_first_query_gc_ms", Machine.gcMillis() - gc0);
        fig.add("reopen_open_s", open);
        fig.add("reopen_close_s", close);
        fig.add("reopen_first_query_ms", first);
        fig.count("reopen_first_query_count", rows, spec.transCount());
        fig.add("disk_bytes", Machine.directoryBytes(rg.directory()));
        fig.add("disk_allocated_bytes", Machine.allocatedBytes(rg.directory()));
        progress.accept(String.format(Locale.ROOT, "reopen %.2f s + first query %.1f ms", open, first));
    }

    private void snapshot() {
        quiesce("reopen");
        Path file = dir.resolve("rg1.qvsnap");
        long t0 = System.nanoTime();
        SnapshotInfo info = Snapshots.write(rg.world(), file);
        double s = seconds(t0);
        fig.add("snapshot_s", s);
        fig.add("snapshot_bytes", info.bytes());
        CheckFailedException.check("snapshot: file size", info.bytes(), size(file));
        fig.count("snapshot_pages", Snapshots.verify(file).pages(), info.pages());
        progress.accept(String.format(Locale.ROOT, "snapshot %.2f s, %s", s, Machine.bytes(info.bytes())));
    }

    private static long rows(Query q) {
        long[] n = {0};
        q.forEach(r -> n[0]++);
        return n[0];
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * Collects garbage left by the previous operation, so that it is not charged to the next; then,
     * when {@code after} names that operation, records the memory it left: the heap in use after
     * the collection ({@code mem_<op>_heap_bytes}: what the process holds live), the heap the
     * collector keeps committed after it ({@code mem_<op>_heap_committed_bytes}), the resident set
     * ({@code mem_<op>_rss_bytes}), its part that maps files ({@code mem_<op>_rss_file_bytes}) and
     * the peak resident set so far ({@code mem_<op>_peak_rss_bytes}).
     */
    private void quiesce(String after) {
        System.gc();
        if (after != null) {
            Runtime rt = Runtime.getRuntime();
            fig.add("mem_" + after + "_heap_bytes", rt.totalMemory() - rt.freeMemory());
            fig.add("mem_" + after + "_heap_committed_bytes", rt.totalMemory());
            fig.add("mem_" + after + "_rss_bytes", Machine.rssBytes());
            fig.add("mem_" + after + "_rss_file_bytes", Machine.rssFileBytes());
            fig.add("mem_" + after + "_peak_rss_bytes", Machine.peakRssBytes());
        }
    }

    private static double seconds(long t0) {
        return (System.nanoTime() - t0) / 1e9;
    }

    private static double millis(long t0) {
        return (System.nanoTime() - t0) / 1e6;
    }
}
