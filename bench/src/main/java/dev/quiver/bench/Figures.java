package dev.quiver.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The figures of one benchmark run, by key, in the order they were first recorded: timings and
 * sizes as {@link Samples} (one value per repeat; the unit ends the key: {@code _s}, {@code _ms},
 * {@code _ns...}, {@code _bytes}), and the checked counts and sums (the same every repeat).
 */
public final class Figures {
    private final Map<String, Samples> samples = new LinkedHashMap<>();
    private final Map<String, Long> counts = new LinkedHashMap<>();

    /** Adds one measurement of a figure. */
    public void add(String key, double value) {
        samples.computeIfAbsent(key, k -> new Samples()).add(value);
    }

    /** The measurements of a figure (empty when none were recorded). */
    public Samples get(String key) {
        return samples.getOrDefault(key, new Samples());
    }

    /** The median of a figure; NaN when none was recorded. */
    public double median(String key) {
        return get(key).median();
    }

    /**
     * Records a checked count or sum, after checking it.
     *
     * @throws CheckFailedException when {@code actual != expected}
     */
    public void count(String key, long actual, long expected) {
        CheckFailedException.check(key, actual, expected);
        counts.put(key, actual);
    }

    /** A recorded count or sum; 0 when none was recorded. */
    public long count(String key) {
        return counts.getOrDefault(key, 0L);
    }

    /** The medians of every figure, then every count, as one flat map (for JSON). */
    public Map<String, Object> flat() {
        Map<String, Object> m = new LinkedHashMap<>();
        samples.forEach((k, s) -> m.put(k, s.median()));
        m.putAll(counts);
        return m;
    }
}
