package dev.quiver.bench;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code quiver-bench jmh [JMH options]}: runs the JMH micro-benchmarks of
 * {@link dev.quiver.bench.jmh.HotPaths} through JMH's own command line ({@code org.openjdk.jmh.Main}),
 * which forks a JVM per benchmark with the flags Chronicle Map needs.
 */
@Command(name = "jmh", header = "Run the JMH micro-benchmarks (hot paths); arguments go to JMH.",
        description = {"Every argument is passed to JMH: for example '-l' lists the benchmarks, '-h' shows JMH's "
                + "options, 'HotPaths.has' runs one, '-rf json -rff FILE' writes the results. Times are in the "
                + "unit each benchmark names (ns/op unless stated)."})
final class JmhCommand implements Callable<Integer> {
    @Parameters(paramLabel = "JMH_ARG", description = "Arguments for JMH.")
    List<String> args = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        org.openjdk.jmh.Main.main(args.toArray(new String[0]));
        return QuiverBench.OK;
    }
}
