package dev.quiver.query.engine;

import dev.quiver.query.plan.ResolvedTerm;
import dev.quiver.query.plan.Step;

import java.util.Locale;

/**
 * The equality predicates of the {@link Evaluator} (FEATURES.md QS-19, QS-20; conformance NOTES
 * K9): {@code ==} binds or compares, {@code !=} compares, {@code ~=} matches a substring of the
 * entity's name ignoring case, with a leading '!' negating. Their fields are never set.
 */
final class PredicateOps {
    private final Evaluator ev;

    PredicateOps(Evaluator ev) {
        this.ev = ev;
    }

    private long rightValue(ResolvedTerm t) {
        if (t.text() != null) {
            return ev.world.lookup(t.text());
        }
        return ev.value(t.second());
    }

    /** {@code $v == x}: binds an unbound variable, compares a bound one (QS-19). */
    boolean eq(Step s) {
        ResolvedTerm t = s.term();
        int slot = t.source().slot();
        long right = rightValue(t);
        if (right == 0) {
            return true;
        }
        ev.unsetField(s.field());
        long left = ev.b.values[slot];
        if (left == 0) {
            if (!ev.world.isAlive(right)) {
                return true;
            }
            ev.b.values[slot] = right;
            ev.b.tables[slot] = null;
            boolean r = ev.next[s.id()].go();
            ev.b.values[slot] = 0;
            return r;
        }
        return left != right || ev.next[s.id()].go();
    }

    /** {@code $v != x} (QS-20). */
    boolean neq(Step s) {
        ResolvedTerm t = s.term();
        long left = ev.b.values[t.source().slot()];
        long right = rightValue(t);
        if (left == 0 || left == right) {
            return true;
        }
        ev.unsetField(s.field());
        return ev.next[s.id()].go();
    }

    /**
     * {@code $v ~= "sub"}: the entity's name contains sub, ignoring case as Flecs does; a leading
     * '!' negates (QS-20).
     */
    boolean match(Step s) {
        ResolvedTerm t = s.term();
        long left = ev.b.values[t.source().slot()];
        if (left == 0) {
            return true;
        }
        String pat = t.text();
        boolean neg = pat.startsWith("!");
        if (neg) {
            pat = pat.substring(1);
        }
        String name = ev.world.isAlive(left) ? ev.world.name(left) : null;
        boolean has = name != null && name.toLowerCase(Locale.ROOT).contains(pat.toLowerCase(Locale.ROOT));
        if (has == neg) {
            return true;
        }
        ev.unsetField(s.field());
        return ev.next[s.id()].go();
    }
}
