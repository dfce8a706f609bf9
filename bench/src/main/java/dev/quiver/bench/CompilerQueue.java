package dev.quiver.bench;

import java.lang.management.ManagementFactory;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * The JIT compilers' work in progress, read through HotSpot's {@code Compiler.queue} diagnostic
 * command (what {@code jcmd PID Compiler.queue} prints), so that the RG-1 harness can let the
 * compiles an operation queued finish before it times the next one: on a 2-core machine HotSpot
 * runs one C2 compiler thread, and a long compile left by one operation (transvar's walk, an
 * on-stack replacement of about 0.4 s) otherwise keeps the next operation's code in its first tier
 * for all of that operation's runs.
 */
final class CompilerQueue {
    private static final String DIAGNOSTIC_COMMAND = "com.sun.management:type=DiagnosticCommand";
    private static final long POLL_MILLIS = 5;

    private CompilerQueue() {}

    /**
     * Waits until no compile runs and both compile queues are empty, polling every 5 ms, for at
     * most {@code maxMillis}; returns the milliseconds waited, or -1 where the JVM does not offer the
     * command (not HotSpot): then it returns at once.
     */
    static long awaitIdle(long maxMillis) {
        long t0 = System.nanoTime();
        long deadline = t0 + maxMillis * 1_000_000L;
        try {
            var server = ManagementFactory.getPlatformMBeanServer();
            var name = new ObjectName(DIAGNOSTIC_COMMAND);
            while (!idle((String) server.invoke(name, "compilerQueue", new Object[] {null},
                    new String[] {String[].class.getName()})) && System.nanoTime() < deadline) {
                Thread.sleep(POLL_MILLIS);
            }
        } catch (JMException | RuntimeException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return (System.nanoTime() - t0) / 1_000_000L;
    }

    /**
     * True when a {@code Compiler.queue} report shows no current compile and every queue empty:
     * the lines after {@code Current compiles:} up to the first blank line are the compiles in
     * progress; each {@code ... compile queue:} header is followed by {@code Empty} or by the
     * queued methods.
     */
    static boolean idle(String report) {
        String[] lines = report.split("\n");
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].trim();
            if (line.startsWith("Current compiles:")) {
                if (i + 1 < lines.length && !lines[i + 1].isBlank()) {
                    return false;
                }
            } else if (line.endsWith("compile queue:")) {
                if (i + 1 >= lines.length || !lines[i + 1].trim().equals("Empty")) {
                    return false;
                }
            }
        }
        return true;
    }
}
