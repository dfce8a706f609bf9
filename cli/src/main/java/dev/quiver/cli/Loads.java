package dev.quiver.cli;

import dev.quiver.snapshots.Snapshots;
import dev.quiver.snapshots.TsvLoader;
import dev.quiver.snapshots.script.FlecsScriptLoader;
import dev.quiver.storage.World;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Loading TSV pair files and Flecs Script files ({@code .flecs}) from the CLI ({@code load} and
 * {@code demo}): input checks before anything changes, one transaction per file, a progress bar on
 * an interactive console, and removal of a world this command created when no file committed.
 */
final class Loads {
    private Loads() {}

    /**
     * Checks that every file is a readable regular file.
     *
     * @throws CliInputException naming the first that is not
     */
    static void requireReadable(List<Path> files) {
        for (Path f : files) {
            if (!Files.isRegularFile(f)) {
                throw new CliInputException("file " + f + (Files.exists(f) ? " is not a regular file" : " does not exist"));
            }
            if (!Files.isReadable(f)) {
                throw new CliInputException("file " + f + " is not readable");
            }
        }
    }

    /** True for a Flecs Script file (name ending in {@code .flecs}), loaded as a script rather than TSV. */
    static boolean isScript(Path f) {
        return f.getFileName().toString().endsWith(".flecs");
    }

    /**
     * Loads the files in order, each as one transaction, printing one line per file: Flecs Script
     * files ({@link #isScript}) through {@link FlecsScriptLoader}, the others as TSV pair files.
     *
     * @param interactive draw a progress bar on the process's stderr
     * @return the lines (TSV) or statements (script) of each file
     * @throws dev.quiver.snapshots.TsvFormatException at the first bad line (earlier files stay loaded)
     * @throws dev.quiver.snapshots.script.FlecsScriptException at the first bad statement (earlier
     *     files stay loaded)
     */
    static List<Long> load(World w, List<Path> files, boolean interactive, PrintWriter out, String indent) {
        List<Long> results = new ArrayList<>();
        TsvLoader loader = new TsvLoader(w);
        for (Path f : files) {
            if (isScript(f)) {
                FlecsScriptLoader.Result s = new FlecsScriptLoader(w).load(f);
                results.add(s.statements());
                out.println(indent + f.getFileName() + ": " + s.statements() + " statements, " + s.entities()
                        + " entities in " + s.millis() + " ms");
                out.flush();
                continue;
            }
            TsvLoader.Result r;
            if (interactive) {
                try (ProgressBar bar = bar(f)) {
                    r = loader.progress((read, total, lines) -> {
                        bar.stepTo(read);
                        bar.setExtraMessage(lines + (read >= total ? " lines, committing" : " lines"));
                    }).load(f);
                }
            } else {
                r = loader.load(f);
            }
            results.add(r.lines());
            out.println(indent + f.getFileName() + ": " + r.lines() + " lines, " + r.names() + " names in " + r.millis() + " ms");
            if (!r.renamed().isEmpty()) {
                out.println(indent + "  digits-only names (digits denote entity ids) were given a '"
                        + TsvLoader.DIGITS_PREFIX + "': " + renamings(r));
            }
            out.flush();
        }
        return results;
    }

    private static String renamings(TsvLoader.Result r) {
        StringBuilder sb = new StringBuilder();
        int shown = 0;
        for (var en : r.renamed().entrySet()) {
            if (shown++ == 5) {
                return sb.append(", ... (").append(r.renamed().size()).append(" in all)").toString();
            }
            sb.append(shown > 1 ? ", " : "").append(en.getKey()).append(" -> ").append(en.getValue());
        }
        return sb.toString();
    }

    private static ProgressBar bar(Path f) {
        long size;
        try {
            size = Files.size(f);
        } catch (IOException e) {
            size = -1;
        }
        return new ProgressBarBuilder()
                .setTaskName(f.getFileName().toString())
                .setInitialMax(size)
                .setStyle(ProgressBarStyle.ASCII)
                .setUnit(" KiB", 1024)
                .setUpdateIntervalMillis(200)
                .clearDisplayOnFinish()
                .setConsumer(new ConsoleProgressBarConsumer(System.err, columns()))
                .build();
    }

    private static int columns() {
        try {
            String c = System.getenv("COLUMNS");
            return c == null ? 100 : Math.max(40, Integer.parseInt(c.trim()) - 1);
        } catch (NumberFormatException e) {
            return 100;
        }
    }

    /**
     * Undoes the creation of a world by this command: removes the directory, or only its contents
     * when it existed (empty) before.
     */
    static void undoCreate(Path dir, boolean dirExisted) {
        Snapshots.undoCreate(dir, dirExisted ? null : dir);
    }
}
