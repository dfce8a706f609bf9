package dev.quiver.query.engine;

import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;

import java.util.Arrays;

/**
 * Merges the row runs of a transitive walk over one table into the longest row ranges per target,
 * so that a target reached by many consecutive runs is handed out once for all their rows: in RG-1
 * {@code (LocatedIn, $x)} the children of one parent are one run (ten rows) reaching that parent
 * and its ancestors, and the grandchildren of a node, ten runs in consecutive rows, all reach it,
 * so they become one range of 100 rows instead of ten results of ten rows (6.5 million rows come
 * in about 120,000 results instead of 650,000).
 *
 * <p>Runs are added in row order ({@link #add}); a range stays open while every added run reaches
 * its target and follows the previous one without a gap, and is closed (handed back to be emitted)
 * at the first run that does not. Each (row, target) is in exactly one range. One instance per
 * table walk (not shared by nested walks).
 */
final class TargetRuns {
    /** Open range of each target (entity index): its position in {@link #openX}; -1 when none. */
    private final Int2IntOpenHashMap openAt = new Int2IntOpenHashMap();
    /** Open ranges, in the order their targets came in the last run's closure; all end at {@link #end}. */
    private int[] openX = new int[16];
    private int[] openFrom = new int[16];
    private int open;
    private int end = -1;
    /** The ranges the last {@link #add} or {@link #flush} closed: targets and first rows; all end at {@link #closedTo}. */
    int[] closedX = new int[16];
    int[] closedFrom = new int[16];
    int closedTo;
    private int[] nextX = new int[16];
    private int[] nextFrom = new int[16];
    private boolean[] kept = new boolean[16];

    TargetRuns() {
        openAt.defaultReturnValue(-1);
    }

    /**
     * Adds rows {@code from} to {@code to - 1}, whose sources reach the targets {@code closure}
     * (entity indices, no duplicates); {@code from} is past the previous run's rows. Returns how
     * many ranges this closes ({@link #closedX}, {@link #closedFrom}, {@link #closedTo}): those
     * whose target the run does not reach, or all when the run does not start where the previous
     * one ended.
     */
    int add(int from, int to, int[] closure) {
        int n = closure.length;
        if (nextX.length < n) {
            nextX = new int[Math.max(n, 2 * nextX.length)];
            nextFrom = new int[nextX.length];
        }
        if (kept.length < open) {
            kept = new boolean[Math.max(open, 2 * kept.length)];
        }
        Arrays.fill(kept, 0, open, false);
        boolean follows = from == end;
        for (int i = 0; i < n; i++) {
            int x = closure[i];
            int at = follows ? openAt.get(x) : -1;
            nextX[i] = x;
            if (at >= 0) {
                kept[at] = true;
                nextFrom[i] = openFrom[at];
            } else {
                nextFrom[i] = from;
            }
        }
        int closed = close(true);
        for (int i = 0; i < n; i++) {
            openAt.put(nextX[i], i);
        }
        int[] sx = openX, sf = openFrom;
        openX = nextX;
        openFrom = nextFrom;
        nextX = sx;
        nextFrom = sf;
        open = n;
        end = to;
        return closed;
    }

    /** Closes every open range (the table's rows are done); returns how many, as {@link #add}. */
    int flush() {
        int closed = close(false);
        open = 0;
        end = -1;
        return closed;
    }

    /** Moves the open ranges not {@link #kept} (all, when {@code useKept} is false) to the closed ones. */
    private int close(boolean useKept) {
        if (closedX.length < open) {
            closedX = new int[Math.max(open, 2 * closedX.length)];
            closedFrom = new int[closedX.length];
        }
        int closed = 0;
        for (int j = 0; j < open; j++) {
            if (useKept && kept[j]) {
                continue;
            }
            closedX[closed] = openX[j];
            closedFrom[closed++] = openFrom[j];
            openAt.remove(openX[j]);
        }
        closedTo = end;
        return closed;
    }
}
