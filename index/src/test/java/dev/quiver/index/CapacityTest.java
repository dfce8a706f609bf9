package dev.quiver.index;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CapacityTest {
    @Test
    void doublesWhileSmallThenGrowsByAnEighth() {
        assertEquals(8, Capacity.grown(0, 1));
        assertEquals(8, Capacity.grown(4, 5));
        assertEquals(2000, Capacity.grown(1000, 1001));
        assertEquals(131_070, Capacity.grown(Capacity.GEOMETRIC - 1, Capacity.GEOMETRIC));
        assertEquals(73_728, Capacity.grown(Capacity.GEOMETRIC, Capacity.GEOMETRIC + 1));
        assertEquals(1_125_000, Capacity.grown(1_000_000, 1_000_001));
        assertEquals(5_000_000, Capacity.grown(1_000_000, 5_000_000), "what is needed when more than the step");
    }

    @Test
    void appendingCopiesEachSlotAboutNineTimesAndWastesAtMostAnEighth() {
        int len = 0;
        long copies = 0;
        while (len < 50_000_000) {
            int next = Capacity.grown(len, len + 1L);
            assertTrue(next > len, len + " -> " + next);
            if (len >= Capacity.GEOMETRIC) {
                assertTrue(next <= len + len / 8, len + " -> " + next);
            }
            copies += len;
            len = next;
        }
        assertTrue(copies < 10L * len, copies + " copies for " + len + " slots");
    }

    @Test
    void stopsAtTheLargestArray() {
        assertEquals(Capacity.MAX, Capacity.grown(Capacity.MAX - 1, Capacity.MAX));
        assertThrows(IllegalStateException.class, () -> Capacity.grown(Capacity.MAX, Capacity.MAX + 1L));
    }
}
