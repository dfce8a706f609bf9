package dev.quiver.index;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * The background warm-up of Chronicle's classes (ChronicleSupport.warmUpInBackground): every class
 * it names exists (a Chronicle upgrade that renames one fails here instead of silently losing the
 * warm-up), and a map open waits for it to end, so no Chronicle class is initialised by two threads
 * at once.
 */
class ChronicleWarmUpTest {
    @TempDir
    Path tmp;

    @Test
    void everyWarmedClassIsOnTheClassPath() {
        for (String name : ChronicleSupport.WARM_CLASSES) {
            assertDoesNotThrow(() -> Class.forName(name, false, ChronicleSupport.class.getClassLoader()), name);
        }
    }

    @Test
    void anOpenWaitsForTheWarmUpToEnd() {
        ChronicleSupport.warmUpInBackground();
        ChronicleSupport.warmUpInBackground(); // idempotent: one thread
        Thread t = ChronicleSupport.warmUpThread();
        assertNotNull(t);
        ChronicleSupport.awaitWarmUp();
        assertFalse(t.isAlive(), "awaitWarmUp returned while the warm-up still ran");
        try (PagedMap m = PagedMap.open(tmp.resolve("m.cm"), "m", 100, 64, false)) {
            m.put(7, new byte[] {4, 5});
            assertArrayEquals(new byte[] {4, 5}, m.get(7));
        }
    }

    @Test
    void theCommandLineWaitsForBothWarmUpsBeforeItExits() {
        ChronicleSupport.warmUpInBackground();
        Thread jdk = ChronicleSupport.jdkWarmUpThread();
        Thread chronicle = ChronicleSupport.warmUpThread();
        assertNotNull(jdk);
        assertNotNull(chronicle);
        ChronicleSupport.awaitAllWarmUps();
        assertFalse(jdk.isAlive(), "awaitAllWarmUps returned while the JDK warm-up still ran");
        assertFalse(chronicle.isAlive(), "awaitAllWarmUps returned while the Chronicle warm-up still ran");
    }
}
