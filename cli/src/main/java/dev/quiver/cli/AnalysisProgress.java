package dev.quiver.cli;

import dev.quiver.analytics.Progress;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A progress bar on stderr for {@code quiver analyze}: the mean completion of the phases of the
 * current stage (the closure's two directions run at once and report separately; a phase reported
 * after all earlier ones finished starts a new stage), in per mille, with the latest phase as its
 * message. Cleared when closed.
 */
final class AnalysisProgress implements Progress, AutoCloseable {
    private final ProgressBar bar;
    private final Map<String, Double> phases = new LinkedHashMap<>();

    AnalysisProgress(String task) {
        bar = new ProgressBarBuilder()
                .setTaskName(task)
                .setInitialMax(1000)
                .setStyle(ProgressBarStyle.ASCII)
                .setUpdateIntervalMillis(200)
                .clearDisplayOnFinish()
                .hideEta()
                .setConsumer(new ConsoleProgressBarConsumer(System.err, columns()))
                .build();
    }

    @Override
    public synchronized void update(String phase, long done, long total) {
        if (!phases.containsKey(phase) && phases.values().stream().allMatch(f -> f >= 1.0)) {
            phases.clear(); // a new stage starts once every phase before it has finished
        }
        phases.put(phase, total <= 0 ? 1.0 : Math.min(1.0, (double) done / total));
        double sum = 0;
        for (double f : phases.values()) {
            sum += f;
        }
        bar.stepTo(Math.round(1000 * sum / phases.size()));
        bar.setExtraMessage(phase);
    }

    @Override
    public void close() {
        bar.close();
    }

    private static int columns() {
        try {
            String c = System.getenv("COLUMNS");
            return c == null ? 100 : Math.max(40, Integer.parseInt(c.trim()) - 1);
        } catch (NumberFormatException e) {
            return 100;
        }
    }
}
