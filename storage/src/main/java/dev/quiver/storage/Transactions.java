package dev.quiver.storage;

import java.util.function.Supplier;

/**
 * The transaction state of one {@link World}: nesting (inner calls join the outer transaction),
 * the commit at the end of the outermost one, the rollback when its body throws, and the query
 * iterations during which writes are refused. A commit writes the transaction's pages
 * ({@link Persistence#commit}); a failure before that undoes the touched pages only, one during
 * it reloads the committed state ({@link Persistence#rollback}).
 */
final class Transactions {
    private final Persistence persistence;
    private final String world;
    private int depth;
    /** Query iterations handing results to callbacks now; while positive, writes are refused. */
    private int iterations;
    /** Transactions opened so far, nested ones included. */
    private long writes;
    /** The open transaction has started writing (its pages are computed): a rollback reloads all. */
    private boolean committing;

    Transactions(Persistence persistence, String world) {
        this.persistence = persistence;
        this.world = world;
    }

    /**
     * Runs {@code body} as a transaction, or inside the open one.
     *
     * @param checkWritable runs before a new outermost transaction (refuses a read-only world)
     * @throws WorldIteratingException while an iteration runs
     */
    <T> T run(Supplier<T> body, Runnable checkWritable) {
        if (iterations > 0) {
            throw new WorldIteratingException("cannot change world " + world + " while a query iteration is running; "
                    + "collect the changes and apply them after the iteration");
        }
        writes++;
        if (depth > 0) {
            return body.get();
        }
        checkWritable.run();
        depth++;
        try {
            T r = body.get();
            commit();
            return r;
        } catch (RuntimeException | Error e) {
            persistence.rollback(e, committing);
            throw e;
        } finally {
            depth = 0;
            committing = false;
        }
    }

    /**
     * Runs {@code body} as if inside a transaction (mutation code may run; nothing commits unless
     * the body calls {@link #commit()}): bootstrapping, and views of the state that are read back.
     *
     * @throws IllegalStateException when a transaction is open ({@code what} names the caller)
     */
    void inside(String what, Runnable body) {
        if (depth > 0) {
            throw new IllegalStateException(what + " inside a transaction");
        }
        depth = 1;
        try {
            body.run();
        } finally {
            depth = 0;
            committing = false;
        }
    }

    /** Writes the transaction's pages; from here on a failure reloads the whole committed state. */
    void commit() {
        committing = true;
        persistence.commit();
    }

    /** True while a transaction is open. */
    boolean open() {
        return depth > 0;
    }

    void beginIteration() {
        iterations++;
    }

    void endIteration() {
        if (iterations > 0) {
            iterations--;
        }
    }

    long writes() {
        return writes;
    }
}
