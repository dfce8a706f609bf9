package dev.quiver.bench;

/**
 * A count or sum that differs from the one the workload contract expects (RG1.md, answers.tsv):
 * the run fails with exit code 1.
 */
public final class CheckFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message what differed, with the actual and the expected value */
    public CheckFailedException(String message) {
        super(message);
    }

    /**
     * Throws when {@code actual != expected}.
     *
     * @param what the figure, for example {@code "iter: count"}
     * @throws CheckFailedException on a mismatch
     */
    public static void check(String what, long actual, long expected) {
        if (actual != expected) {
            throw new CheckFailedException(what + " is " + actual + ", expected " + expected);
        }
    }
}
