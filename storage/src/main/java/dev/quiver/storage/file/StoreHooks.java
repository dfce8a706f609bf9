package dev.quiver.storage.file;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Injection points for the storage fault and crash tests: the WAL's file layer, a call after each
 * WAL append, at each named step of a checkpoint and of world creation, and the check whether a
 * path may be written. Production uses {@link #NONE}, which injects nothing; tests in this package
 * install their own through {@link Store#hooks} (one per JVM, read when a store opens) and put it
 * back after.
 */
class StoreHooks {
    /** No faults: the operating system's files, nothing called. */
    static final StoreHooks NONE = new StoreHooks();

    /** The file layer the WAL writes through. */
    FileLayer fileLayer() {
        return FileLayer.OS;
    }

    /** Called after transaction {@code txSeq}'s WAL record is on disk. */
    void afterJournal(long txSeq) {}

    /**
     * Called at each named step of a checkpoint ({@code checkpoint written}, {@code checkpoint
     * manifest}, {@code checkpoint current}, {@code checkpoint done}) and of world creation
     * ({@link NewWorld}); may throw to simulate a failure there.
     */
    void step(String name) {}

    /** Whether {@code path} may be written (the operating system's answer by default). */
    boolean writable(Path path) {
        return Files.isWritable(path);
    }
}
