package dev.quiver.storage.file;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Injection points for the storage fault and crash tests: the journal's file layer, a call after
 * each journal append, before each page a commit applies to the map files, at each step of
 * recovery and creation, and the check whether a path may be written. Production uses
 * {@link #NONE}, which injects nothing; tests in this package install their own through
 * {@link Store#hooks} (one per JVM, read when a store opens or commits) and put it back after.
 */
class StoreHooks {
    /** No faults: the operating system's files, nothing called. */
    static final StoreHooks NONE = new StoreHooks();

    /** The file layer the journal writes through. */
    FileLayer fileLayer() {
        return FileLayer.OS;
    }

    /** Called after transaction {@code txSeq}'s journal record is on disk, before the map files change. */
    void afterJournal(long txSeq) {}

    /**
     * Called before the {@code index}-th page of transaction {@code txSeq} is put into its map
     * file; may throw to simulate a full disk while the map files are updated.
     */
    void beforeApply(long txSeq, int index) {}

    /** Called at each named step of recovery ({@link Recovery}) and world creation ({@link NewWorld}). */
    void step(String name) {}

    /** Whether {@code path} may be written (the operating system's answer by default). */
    boolean writable(Path path) {
        return Files.isWritable(path);
    }
}
