package dev.quiver.query.iter;

import dev.quiver.query.engine.Evaluator;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A pull iteration over a query's results, one {@link TableResult} per {@link #next()} (Flecs v4
 * {@code ecs_query_next}). The engine runs in chunks, one per table of the first term's walk
 * (the whole query in one chunk when the first term does not walk tables); the results of a chunk
 * are buffered and handed out one by one, so memory follows one chunk, not the whole answer.
 *
 * <p>Stopping early: stop calling {@link #next()} (nothing is held open) or call {@link #close()}.
 * Writing the world while the iteration is not finished is allowed, but the next call then throws
 * {@link WorldChangedException} (fail-fast) instead of walking moved rows; results already handed
 * out throw it too when their rows are read. Not thread-safe.
 */
public final class QueryIterator implements Iterator<TableResult>, AutoCloseable {
    private final ResultShape shape;
    private final Evaluator evaluator;
    private final long writeCount;
    private final ArrayDeque<TableResult> buffer = new ArrayDeque<>();
    private int nextChunk;
    private int chunks = 1;
    private boolean closed;

    /** Internal: made by {@link dev.quiver.query.Query#iter()} with a fresh evaluator of the query. */
    public QueryIterator(ResultShape shape, Evaluator evaluator) {
        this.shape = shape;
        this.evaluator = evaluator;
        this.writeCount = shape.world().writeCount();
    }

    /**
     * True when another step follows.
     *
     * @throws WorldChangedException when the world was written since the iteration began and it is not finished
     */
    @Override
    public boolean hasNext() {
        if (closed) {
            return false;
        }
        while (buffer.isEmpty() && nextChunk < chunks) {
            checkFresh();
            chunks = evaluator.runChunk(nextChunk++, b -> {
                buffer.add(TableResult.capture(shape, b));
                return true;
            });
        }
        if (buffer.isEmpty()) {
            closed = true;
            return false;
        }
        checkFresh();
        return true;
    }

    private void checkFresh() {
        if (shape.world().writeCount() != writeCount) {
            closed = true;
            buffer.clear();
            throw new WorldChangedException("the world was written during a query iteration; "
                    + "finish or close the iteration before writing");
        }
    }

    /**
     * The next step.
     *
     * @throws NoSuchElementException when there is none
     * @throws WorldChangedException  when the world was written since the iteration began
     */
    @Override
    public TableResult next() {
        if (!hasNext()) {
            throw new NoSuchElementException("no more query results");
        }
        return buffer.poll();
    }

    /** Ends the iteration early: later {@link #hasNext()} calls return false. Idempotent. */
    @Override
    public void close() {
        closed = true;
        buffer.clear();
    }
}
