package dev.quiver.storage.file;

import org.junit.jupiter.api.Test;

import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The names of a world's numbered files (manifests, write-ahead logs, generations) are what the
 * format spec says: the number in at least six digits with leading zeros, ASCII digits whatever the
 * default locale. They are built without {@code String.format} (whose first use costs a short
 * command several milliseconds), so this holds them to it.
 */
class FileNamesTest {
    @Test
    void numbersHaveSixDigitsAtLeast() {
        long[] numbers = {0, 1, 9, 10, 99_999, 123_456, 999_999, 1_000_000, 12_345_678_901L, Long.MAX_VALUE};
        for (long n : numbers) {
            assertEquals(String.format(Locale.ROOT, "MANIFEST-%06d", n), Manifest.fileName(n));
            assertEquals(String.format(Locale.ROOT, "wal-%06d", n), Manifest.walName(n));
            assertEquals(String.format(Locale.ROOT, "gen-%06d.cm", n), Generation.fileName(n));
        }
        assertEquals("MANIFEST-000042", Manifest.fileName(42));
        assertEquals("gen-000007.cm", Generation.fileName(7));
        assertEquals("wal--00001", Manifest.walName(-1)); // as String.format gives it, though no file has one
    }
}
