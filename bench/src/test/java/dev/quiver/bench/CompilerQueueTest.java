package dev.quiver.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CompilerQueueTest {
    private static final String IDLE = "Current compiles: \n\nC1 compile queue:\nEmpty\n\nC2 compile queue:\nEmpty\n\n";

    @Test
    void anIdleReportIsIdle() {
        assertTrue(CompilerQueue.idle(IDLE));
    }

    @Test
    void aCompileInProgressIsNotIdle() {
        assertFalse(CompilerQueue.idle("Current compiles: \nC2 CompilerThread0  1211   !   4       a.B::c (497 bytes)\n\n"
                + "C1 compile queue:\nEmpty\n\nC2 compile queue:\nEmpty\n\n"));
    }

    @Test
    void aQueuedMethodIsNotIdle() {
        assertFalse(CompilerQueue.idle("Current compiles: \n\nC1 compile queue:\nEmpty\n\nC2 compile queue:\n"
                + "1212       4       a.B::d (106 bytes)\n\n"));
    }

    @Test
    void waitingReturnsOnceTheCompilersAreIdle() {
        long waited = CompilerQueue.awaitIdle(10_000);
        // HotSpot offers the command; the compilers of a test JVM go idle well within the bound
        assertTrue(waited >= 0 && waited < 10_000, "waited " + waited + " ms");
    }
}
