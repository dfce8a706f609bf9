package dev.quiver.query.engine;

import dev.quiver.index.Ids;
import dev.quiver.query.plan.OpKind;
import dev.quiver.query.plan.Operand;
import dev.quiver.query.plan.ResolvedTerm;
import dev.quiver.query.plan.Step;
import dev.quiver.storage.table.Column;
import dev.quiver.storage.table.Table;

/**
 * The step after a pair term that binds a variable {@code $y} to located targets
 * ({@link SparseOps}, {@code (R, $y)} with {@code $y} looked up with its table and row), when that
 * step is a plain {@code WITH} on {@code $y} of a fixed id ({@code C($y)}, {@code (P, Q)($y)}): its
 * answer for a target depends only on the target's table, so it is decided once per table and the
 * target's row goes straight to the step after it. What {@link Evaluator#exec} and
 * {@link IdTermOps#with} would do per row (the requirement and blocked checks, the source's table,
 * the type match into a scratch list, {@link Evaluator#emit}) becomes a comparison with the last
 * table (RG-1 join {@code (Likes, $y), Position($y)}: 10,000 rows, one call into the rest of the
 * plan each instead of about twenty).
 *
 * <p>The answers are {@link IdTermOps#with}'s: a target whose table the query skips (Prefab or
 * Disabled, {@link Evaluator#skip}) or that lacks the id has no match; a table holding the id's
 * sparse marker is matched row by row on the general path ({@link #GENERAL}). One per table walk;
 * the world does not change during a run, so neither does a table's answer.
 */
final class LocatedCheck {
    /** {@link #of}: the target's table lacks the id (or is skipped): no result. */
    static final int NONE = 0;
    /** {@link #of}: the target's table holds the id: {@link #pass}. */
    static final int MATCH = 1;
    /** {@link #of}: the answer depends on the row (a sparse marker): run the step as usual. */
    static final int GENERAL = 2;

    private final Evaluator ev;
    private final Step step;
    private final long id;
    private final boolean pair;
    private final long first;
    private final Evaluator.Cont rest;
    private Table table;
    private int answer;
    /** {@link #warm}'s last table and the id's column there (null: nothing to read ahead). */
    private Table warmTable;
    private Column warmColumn;
    /** What {@link #warm} read, kept so that the reads are not optimized away. */
    private long warmed;

    private LocatedCheck(Evaluator ev, Step step, long id, boolean pair, long first) {
        this.ev = ev;
        this.step = step;
        this.id = id;
        this.pair = pair;
        this.first = first;
        this.rest = ev.next[step.id()];
    }

    /**
     * The check for the step that runs after {@code s} when it is a plain {@code WITH} (own ids,
     * no requirement, no deleted element) of a fixed id or a pair of fixed elements whose source is
     * the variable of {@code slot}; null otherwise (the general path runs it).
     */
    static LocatedCheck after(Evaluator ev, Step s, int slot) {
        Step w = ev.following(s);
        if (w == null || w.kind() != OpKind.WITH || w.requires().length != 0 || ev.dead(w)) {
            return null;
        }
        ResolvedTerm t = w.term();
        if (t.predicate() != null || !t.inherit().none() || t.source().kind() != Operand.Kind.VAR
            || t.source().slot() != slot || t.first().kind() != Operand.Kind.CONST
            || (t.second() != null && t.second().kind() != Operand.Kind.CONST)) {
            return null;
        }
        long f = t.first().entity();
        boolean pair = t.second() != null;
        return new LocatedCheck(ev, w, pair ? Ids.pair(f, t.second().entity()) : f, pair, f);
    }

    /** {@link #NONE}, {@link #MATCH} or {@link #GENERAL} for a target in {@code tb}, computed once per table in a row. */
    int of(Table tb) {
        if (tb == null) {
            return GENERAL;
        }
        if (tb != table) {
            table = tb;
            answer = ev.skip(tb) ? NONE
                : SparseOps.perRow(tb, pair, first, false) ? GENERAL
                : tb.hasId(id) ? MATCH : NONE;
        }
        return answer;
    }

    /**
     * Reads ahead the id's column ({@link Column#touch}) at the located targets {@code from} to
     * {@code to - 1} of {@code loc} (tables whose rows are all in memory only), so that the rows
     * the rest of the plan and the caller then read are in the processor's cache: the targets lie
     * at random rows, and a tight loop of independent reads overlaps their cache misses where
     * reading them one result at a time would wait for each.
     */
    void warm(Located loc, int from, int to) {
        long w = 0;
        Table[] tables = loc.tables;
        int[] rows = loc.rows;
        for (int i = from; i < to; i++) {
            Table t = tables[i];
            if (t == null) {
                continue;
            }
            if (t != warmTable) {
                warmTable = t;
                warmColumn = t.rowsInMemory() ? t.column(id) : null;
            }
            if (warmColumn != null) {
                w += warmColumn.touch(rows[i]);
            }
        }
        warmed += w;
    }

    /**
     * For a target {@code y} (bound, its table answered {@link #MATCH}): writes the step's field as
     * {@link Evaluator#emit} would and runs the rest of the plan.
     */
    boolean pass(long y) {
        ev.setField(step.field(), id, y);
        return rest.go();
    }
}
