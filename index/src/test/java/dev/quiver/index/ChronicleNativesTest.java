package dev.quiver.index;

import net.openhft.chronicle.hash.VanillaGlobalMutableState;
import net.openhft.chronicle.values.Values;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * The Chronicle Map header class is compiled at build time (index/src/build/java), so opening a
 * map defines no class at run time: Chronicle Values finds the class on the class path, with the
 * code source of this module, instead of compiling generated source with javac.
 */
class ChronicleNativesTest {
    @TempDir
    Path tmp;

    @Test
    void mapHeaderClassComesFromTheBuildNotFromRunTimeJavac() throws Exception {
        try (PagedMap m = PagedMap.open(tmp.resolve("m.cm"), "m", 100, 64, false)) {
            m.put(1, new byte[] {1, 2, 3});
            assertArrayEquals(new byte[] {1, 2, 3}, m.get(1));
        }
        Class<?> nat = Values.nativeClassFor(VanillaGlobalMutableState.class);
        assertSame(Class.forName("net.openhft.chronicle.hash.VanillaGlobalMutableState$$Native"), nat);
        // a class compiled by Chronicle at run time is defined without a code source
        assertNotNull(nat.getProtectionDomain().getCodeSource(), "header class was compiled at run time");
        assertEquals(PagedMap.class.getProtectionDomain().getCodeSource().getLocation(),
                nat.getProtectionDomain().getCodeSource().getLocation());
    }
}
