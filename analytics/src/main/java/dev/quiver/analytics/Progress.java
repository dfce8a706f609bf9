package dev.quiver.analytics;

/**
 * Receives progress of long analyses (the CLI draws a bar with it). Called on the thread that runs
 * the work, or on a worker thread of the closure computation; implementations must be thread-safe.
 */
@FunctionalInterface
public interface Progress {
    /** No reporting. */
    Progress NONE = (phase, done, total) -> { };

    /**
     * @param phase what runs, e.g. {@code "closure forward"}
     * @param done  units done so far
     * @param total units in all (at least {@code done})
     */
    void update(String phase, long done, long total);
}
