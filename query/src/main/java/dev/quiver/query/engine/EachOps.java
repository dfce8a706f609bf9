package dev.quiver.query.engine;

import dev.quiver.query.plan.Step;
import dev.quiver.storage.Builtin;
import dev.quiver.storage.table.Table;

import java.util.List;

/**
 * The {@link dev.quiver.query.plan.OpKind#EACH} instruction of the {@link Evaluator}: binds a
 * variable to every entity, table by table, for queries without a positive {@code $this} term
 * (FEATURES.md QS-49). Builtin entities are left out; a table without them is handed out whole
 * when the generator may ({@link Evaluator#wholeTable}, {@link Evaluator#batchable}).
 */
final class EachOps {
    private final Evaluator ev;

    EachOps(Evaluator ev) {
        this.ev = ev;
    }

    /**
     * Binds a slot to every entity, table by table (queries without a positive $this term); when
     * the slot was set before evaluation, tests that one entity as the walk would.
     */
    boolean each(Step s) {
        int slot = s.eachSlot();
        Evaluator.Cont k = ev.next[s.id()];
        long set = ev.b.values[slot];
        if (set != 0) {
            Table tb = ev.world.isAlive(set) ? ev.world.tableAccess().table(set) : null;
            if (tb == null || ev.skip(tb) || Builtin.isBuiltin(set)) {
                return true;
            }
            return bindSetAndGo(slot, set, tb, k);
        }
        List<Table> walk = ev.walked(slot, ev.world.tableAccess().allTables());
        for (int ti = ev.walkStart(s, walk.size()), end = ev.walkEnd(s, walk.size()); ti < end; ti++) {
            Table tb = walk.get(ti);
            int n = tb.count();
            if (n == 0 || ev.skip(tb)) {
                continue;
            }
            long[] ents = tb.entities();
            boolean builtins = false;
            for (int row = 0; row < n && !builtins; row++) {
                builtins = Builtin.isBuiltin(ents[row]);
            }
            if (!builtins && ev.wholeTable(s, slot) && ev.batchable(s, tb)) {
                long saved = ev.startRows(slot, tb, 0, n);
                boolean r = k.go();
                ev.endRows(slot, saved);
                if (!r) {
                    return false;
                }
                continue;
            }
            for (int row = 0; row < n; row++) {
                if (Builtin.isBuiltin(ents[row])) {
                    continue;
                }
                ev.bindSource(slot, ents[row], tb, row);
                boolean r = k.go();
                ev.b.values[slot] = 0;
                if (!r) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * {@link dev.quiver.query.plan.OpKind#THIS_SET}: the variable set before evaluation gets its
     * table and row from the entity index (one lookup), so that the later steps read it as a bound
     * source; no result when the entity is no longer alive. The terms that have it as their source
     * leave out Prefab and Disabled entities as they do for any bound source.
     */
    boolean thisSet(Step s) {
        int slot = s.eachSlot();
        long set = ev.b.values[slot];
        if (set == 0 || !ev.world.isAlive(set)) {
            return true;
        }
        return bindSetAndGo(slot, set, ev.world.tableAccess().table(set), ev.next[s.id()]);
    }

    /** Binds the set entity's table and row, continues, and forgets the table (the value stays set for the next run). */
    private boolean bindSetAndGo(int slot, long e, Table tb, Evaluator.Cont k) {
        ev.bindSource(slot, e, tb, ev.world.tableAccess().row(e));
        boolean r = k.go();
        ev.b.tables[slot] = null;
        return r;
    }
}
