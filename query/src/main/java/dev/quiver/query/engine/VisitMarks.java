package dev.quiver.query.engine;

import java.util.Arrays;

/**
 * Visited marks for graph walks over entity indices: one int stamp per index, and a walk counts as
 * having visited an index when its stamp is the walk's. Starting a walk is O(1) (a new stamp), so
 * the array is allocated once per thread and kept across query evaluations, instead of an array
 * the size of the world per evaluation (4 MiB at a million entities).
 *
 * <p>One instance per kind of walk and thread ({@link #BFS}, {@link #UNION}): walks of one kind
 * never interleave on a thread (each runs to completion inside one {@link Closure} method), while
 * a union walk encloses BFS walks.
 */
final class VisitMarks {
    static final ThreadLocal<VisitMarks> BFS = ThreadLocal.withInitial(VisitMarks::new);
    static final ThreadLocal<VisitMarks> UNION = ThreadLocal.withInitial(VisitMarks::new);

    private int[] marks = new int[1024];
    private int stamp;
    /**
     * The queue of a breadth-first walk of this kind, kept across evaluations like the marks (a
     * walk reaching a million entities would otherwise grow a fresh list each time).
     */
    final it.unimi.dsi.fastutil.ints.IntArrayList queue = new it.unimi.dsi.fastutil.ints.IntArrayList();
    /**
     * The queue of a backward walk ({@link Closure#down}), kept the same way: a plain array the walk
     * writes sources into directly (a list's {@code size(int)} would fill the room with zeros first).
     */
    int[] downQueue = new int[1024];

    /** Starts a walk: no index is visited. */
    void newWalk() {
        if (++stamp == Integer.MAX_VALUE) {
            Arrays.fill(marks, 0);
            stamp = 1;
        }
    }

    /** Marks {@code i} visited; true when it was not visited yet in this walk. */
    boolean mark(int i) {
        if (i >= marks.length) {
            marks = Arrays.copyOf(marks, Math.max(i + 1, marks.length * 2));
        }
        if (marks[i] == stamp) {
            return false;
        }
        marks[i] = stamp;
        return true;
    }
}
